"""A scripted model for pipeline tests: replies chosen by which packaged prompt is asked.

``PromptRouter({"atomize": fn, ...})`` is a ScriptedTextBackend script: it recognises the stage
by the system message of the chat (each stage has its own prompt file) and calls that stage's
function with the final user message. Unknown prompts fail the test loudly.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from factgraph.backends.base import ChatMessage, GenerationParams, TokenLogprob
from factgraph.backends.scripted import ScriptOutput
from factgraph.cli.main import cli
from factgraph.inputs import Document, EvaluationInput
from factgraph.prompts import load_prompt

StageFn = Callable[[str], ScriptOutput]
PROMPTS = ("atomize", "revise", "relevance", "question_relevance", "questions",
           "refine_questions", "answers", "compare_answers", "e2e", "summarize", "nli")


class PromptRouter:
    def __init__(self, handlers: dict[str, StageFn]) -> None:
        self.handlers = handlers
        self.by_system = {load_prompt(n).system.strip(): n for n in PROMPTS}
        self.asked: list[str] = []

    def __call__(self, messages: Sequence[ChatMessage], params: GenerationParams) -> ScriptOutput:
        name = self.by_system.get(messages[0].content)
        if name is None:
            raise AssertionError(f"unexpected prompt: {messages[0].content[:80]!r}")
        self.asked.append(name)
        # A repair turn: the last user message asks again; answer from the original request.
        user = next(m.content for m in reversed(messages) if m.role == "user"
                    and not m.content.startswith("That reply could not be used"))
        return self.handlers[name](user)


def field(user: str, label: str) -> str:
    """The text after ``LABEL:`` up to the next blank line / label."""
    m = re.search(rf"^{label}:[ \t]*\n?(.*?)(?:\n+[A-Z][A-Z ]+:|\Z)", user, re.S | re.M)
    assert m, f"no {label} in {user!r}"
    return m.group(1).strip()


def digit_with_logprobs(probabilities: dict[str, float]) -> ScriptOutput:
    """A one-token reply whose first token carries these top probabilities."""
    best = max(probabilities, key=lambda k: probabilities[k])
    top = {k: math.log(p) for k, p in probabilities.items()}
    return best, [TokenLogprob(token=best, logprob=top[best], top=top)]


# -- the hand-made case -----------------------------------------------------------------------
QUERY = "Where and when was the painter Mara Voss born?"
DOC1 = "Mara Voss was born in 1871 in Bergen, Norway."
DOC2 = "Mara Voss was born in 1872. She studied in Paris."
RESPONSE = "Mara Voss was born in Bergen in 1871."


def case(response: str = RESPONSE, item_id: str = "voss") -> EvaluationInput:
    return EvaluationInput(id=item_id, query=QUERY, response=response,
                           documents=[Document(id="d1", text=DOC1), Document(id="d2", text=DOC2)])


def invoke(*args: str) -> Any:
    """The CLI in this process (exceptions propagate, so a test sees a real traceback)."""
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def write_voss_files(folder: Path) -> dict[str, Path]:
    """RESPONSE, DOC1 and DOC2 as the files the CLI reads."""
    files = {"response": folder / "response.txt", "d1": folder / "d1.txt",
             "d2": folder / "d2.txt"}
    for key, text in (("response", RESPONSE), ("d1", DOC1), ("d2", DOC2)):
        files[key].write_text(text, encoding="utf-8")
    return files
