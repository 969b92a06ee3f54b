"""NLI with a generative model: ask, then read the label's probability off the next token.

The judge asks whether a premise shows a hypothesis true ("yes" = entailment), false
("no" = contradiction) or neither ("unknown" = neutral) and wants one word back (the prompt is
``factgraph/prompts/nli.toml``; small models follow yes/no/unknown better than NLI jargon).
When the engine returns top log-probabilities for the first generated token,
the three labels' probabilities are the summed probabilities of the tokens that begin each
label word, renormalised (``source="probabilities"``). Without log-probabilities the parsed
word gives a one-hot result (``source="parsed_label"``); an unreadable reply is
``source="failed"`` with all-zero probabilities, for the caller to record — never a guess.
A user's prompt directory replaces the prompt (``with_prompts``; a session applies its own).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence

from factgraph.backends.base import (
    ChatMessage,
    Generation,
    GenerationParams,
    NLIResult,
    TextBackend,
)
from factgraph.prompts import PACKAGED, PromptSet

LABEL_WORDS = {"yes": "entails", "unknown": "neutral", "no": "contradicts",
               "entailment": "entails", "neutral": "neutral", "contradiction": "contradicts"}


def nli_messages(premise: str, hypothesis: str,
                 prompts: PromptSet = PACKAGED) -> list[ChatMessage]:
    """The ``nli`` prompt (factgraph/prompts/nli.toml, or a user directory's) for one pair."""
    return prompts.get("nli").messages(premise=premise, hypothesis=hypothesis)


def _label_of(token: str) -> str | None:
    """The label a (possibly partial) first token starts: "yes", "Yes", "unk", "no", ..."""
    t = token.strip().strip(".,:;\"'").lower()
    if len(t) < 2:
        return None
    for word, label in LABEL_WORDS.items():
        if word.startswith(t) or t.startswith(word):
            return label
    return None


def result_from_generation(gen: Generation) -> NLIResult:
    """Label probabilities from a one-word answer (see module docstring)."""
    if gen.logprobs:
        mass = {"entails": 0.0, "neutral": 0.0, "contradicts": 0.0}
        first = gen.logprobs[0]
        top = dict(first.top) or {first.token: first.logprob}
        for token, lp in top.items():
            label = _label_of(token)
            if label:
                mass[label] += math.exp(lp)
        total = sum(mass.values())
        if total > 0:
            return NLIResult(entailment=mass["entails"] / total, neutral=mass["neutral"] / total,
                             contradiction=mass["contradicts"] / total, source="probabilities",
                             trace=gen.trace)
    words = gen.text.strip().split()
    label = _label_of(words[0].strip(".,:;\"'")) if words else None
    if label is None:
        return NLIResult(entailment=0.0, neutral=0.0, contradiction=0.0, source="failed",
                         trace=gen.trace.model_copy(update={"parse_error": "no NLI label"}))
    probs = {k: float(k == label) for k in ("entails", "neutral", "contradicts")}
    return NLIResult(entailment=probs["entails"], neutral=probs["neutral"],
                     contradiction=probs["contradicts"], source="parsed_label", trace=gen.trace)


class GenerativeNLIJudge:
    """An NLIBackend on top of any TextBackend."""

    def __init__(self, backend: TextBackend, top_logprobs: int = 10, batch_size: int = 16,
                 prompts: PromptSet = PACKAGED) -> None:
        self.backend = backend
        self.engine = f"{backend.engine}-judge"
        self.model = backend.model
        self.params = GenerationParams(temperature=0.0, max_tokens=3, top_logprobs=top_logprobs)
        self.batch_size = batch_size
        self.prompts = prompts

    def with_prompts(self, prompts: PromptSet) -> GenerativeNLIJudge:
        """The same judge asking with ``prompts``' ``nli`` prompt (a session's own)."""
        judge = copy.copy(self)
        judge.prompts = prompts
        return judge

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[NLIResult]:
        out: list[NLIResult] = []
        for start in range(0, len(pairs), self.batch_size):
            chunk = pairs[start : start + self.batch_size]
            gens = self.backend.generate([nli_messages(p, h, self.prompts) for p, h in chunk],
                                         self.params)
            out.extend(result_from_generation(g) for g in gens)
        return out
