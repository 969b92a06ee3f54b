"""A hand-made ICAT case: a four-document corpus, a four-claim response, four aspects, and a
scripted model / NLI judge whose decisions are fixed per claim (numbers in test_icat.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from factgraph.backends.base import ChatMessage, GenerationParams
from factgraph.backends.scripted import ScriptedNLIBackend, ScriptedTextBackend
from factgraph.inputs import Document, EvaluationInput
from factgraph.prompts import load_prompt
from factgraph.stages.session import ModelSession

QUERY = "Tell me about the Kessler Dam."
DOCS = [
    Document(id="d1", text="The Kessler Dam holds back Lake Mirren in the Tal valley."),
    Document(id="d2", text="The Kessler Dam was finished in 1962 after six years of work."),
    Document(id="d3", text="The Kessler Dam supplies electric power to the towns Orm and Vell."),
    Document(id="d4", text="Lake Mirren is popular with anglers who catch trout there."),
]
CLAIMS = [
    "The Kessler Dam holds back Lake Mirren.",   # entailed by d1
    "The Kessler Dam was finished in 1962.",     # entailed by d2
    "The Kessler Dam was finished in 1970.",     # contradicted by d2
    "The Kessler Dam is made of gold.",          # nothing supports it
]
ASPECTS = [
    {"id": "1", "text": "location of the dam"},
    {"id": "2", "text": "construction history"},
    {"id": "3", "text": "power production"},
    {"id": "4", "text": "recreation on the lake"},
]
# Which passage text entails / contradicts which claim.
ENTAILS = {CLAIMS[0]: "holds back Lake Mirren", CLAIMS[1]: "finished in 1962"}
CONTRADICTS = {CLAIMS[2]: "finished in 1962"}


def nli(premise: str, hypothesis: str) -> str:
    if hypothesis in ENTAILS and ENTAILS[hypothesis] in premise:
        return "entails"
    if hypothesis in CONTRADICTS and CONTRADICTS[hypothesis] in premise:
        return "contradicts"
    return "neutral"


def write_corpus(folder: Path, docs: Sequence[Document] = DOCS) -> Path:
    path = folder / "corpus.jsonl"
    path.write_text("".join(d.model_dump_json() + "\n" for d in docs), encoding="utf-8")
    return path


def write_aspects(folder: Path) -> Path:
    path = folder / "aspects.json"
    path.write_text(json.dumps(ASPECTS), encoding="utf-8")
    return path


def case(documents: Sequence[Document] = ()) -> EvaluationInput:
    return EvaluationInput(id="kessler", query=QUERY, response=" ".join(CLAIMS),
                           documents=list(documents))


def block(user: str, label: str) -> list[str]:
    """The numbered lines under ``LABEL:`` in a prompt, without their numbers."""
    m = re.search(rf"^{label}:\n(.*?)(?:\n[A-Z]+:|\Z)", user, re.S | re.M)
    assert m, f"no {label} block in {user!r}"
    return [re.sub(r"^\d+\.\s*", "", line) for line in m.group(1).strip().splitlines()]


class Router:
    """Replies by prompt: atomize -> CLAIMS, aspects -> ``aspects``, align -> ``align``."""

    def __init__(self, align: str = '{"covered": []}', aspects: Sequence[str] = (),
                 check: Callable[[str], None] | None = None) -> None:
        self.align, self.aspects, self.check = align, list(aspects), check
        self.by_system = {load_prompt(n).system.strip(): n for n in ("atomize", "aspects",
                                                                     "align")}
        self.asked: list[str] = []
        self.prompts: dict[str, str] = {}

    def __call__(self, messages: Sequence[ChatMessage], params: GenerationParams) -> str:
        name = self.by_system[messages[0].content]
        self.asked.append(name)
        self.prompts[name] = messages[-1].content
        if name == "atomize":
            return json.dumps({"statements": CLAIMS})
        if name == "aspects":
            return json.dumps({"aspects": self.aspects})
        return self.align


def session(router: Router) -> ModelSession:
    return ModelSession(text=ScriptedTextBackend(router), nli=ScriptedNLIBackend(nli))
