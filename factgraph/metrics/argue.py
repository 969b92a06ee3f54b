"""ARGUE report scoring (Mayfield et al. 2024, §4.3, §4.5, Figure 2).

Each report sentence gets one of eight outcomes from a chain of yes/no questions
(the paper's Figure 2; the reading below follows its §4.5 principles):

====  =========================================================================  ======
 #    path                                                                        effect
====  =========================================================================  ======
 1    has citation · some cited document does not support the sentence             −
 2    has citation · all cited documents support it · answers no nugget            0
 3    has citation · all support it · answers a nugget bound to a cited document   +
 4    no citation · not a negative claim · needs no citation                       0
 5    no citation · not negative · needs a citation · first occurrence             −
 6    no citation · not negative · needs a citation · claim already made before    0
 7    no citation · negative claim (asserts an absence) · no nugget states it      −
 8    no citation · negative claim · a nugget states that absence                  +
====  =========================================================================  ======

"+" sentences are rewarded, "−" penalised, "0" left out of the score (§4.5).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

REWARD = {1: -1, 2: 0, 3: 1, 4: 0, 5: -1, 6: 0, 7: -1, 8: 1}


@dataclass(frozen=True)
class SentenceJudgement:
    """The answers to the flowchart questions for one sentence (None: not asked — the flow
    never reached that question)."""

    has_citation: bool
    all_supported: bool | None = None
    nuggets: frozenset[str] = field(default_factory=frozenset)  # nuggets answered validly
    negative: bool | None = None
    needs_citation: bool | None = None
    first_occurrence: bool | None = None


def sentence_outcome(j: SentenceJudgement) -> int:
    """The Figure 2 outcome (1-8) of one sentence. ValueError when a question the path needs
    has no answer (a judgement is missing, never guessed)."""

    def need(value: bool | None, what: str) -> bool:
        if value is None:
            raise ValueError(f"outcome needs the {what!r} judgement")
        return value

    if j.has_citation:
        if not need(j.all_supported, "support"):
            return 1
        return 3 if j.nuggets else 2
    if need(j.negative, "negative"):
        return 8 if j.nuggets else 7
    if not need(j.needs_citation, "needs_citation"):
        return 4
    return 5 if need(j.first_occurrence, "first_occurrence") else 6


def sentence_precision(outcomes: Sequence[int]) -> float | None:
    """``P = |{+}| / (|S| − |{0}|)`` (Mayfield et al. 2024, §4.5).

    The denominator is the number of report sentences minus those that need no citation or
    that properly cite information outside every nugget (the "0" outcomes #2, #4, #6); the
    numerator the sentences rewarded (#3, #8). None when every sentence is a "0" outcome
    (nothing was scored, so precision is undefined).
    """
    for o in outcomes:
        if o not in REWARD:
            raise ValueError(f"unknown outcome {o}")
    scored = [o for o in outcomes if REWARD[o] != 0]
    if not scored:
        return None
    return sum(1 for o in scored if REWARD[o] > 0) / len(scored)


def nugget_recall(reported: Iterable[str], nuggets: Sequence[str]) -> float | None:
    """``R = |reported ∩ nuggets| / |nuggets|`` (Mayfield et al. 2024, §4.5): each nugget counts
    once, however many sentences report it. None with no nugget."""
    ids = list(dict.fromkeys(nuggets))
    if not ids:
        return None
    got = set(reported)
    return sum(1 for n in ids if n in got) / len(ids)


def weighted_nugget_recall(
    reported: Iterable[str], importance: Mapping[str, float]
) -> float | None:
    """``R_w = Σ_{n reported} w_n / Σ_n w_n`` — recall with nugget importance weights (§4.5:
    "modified to account for some nuggets having greater weight"). None when no weight is
    given or they sum to 0."""
    if any(w < 0 for w in importance.values()):
        raise ValueError("nugget importances must be non-negative")
    total = sum(importance.values())
    if not importance or total == 0:
        return None
    got = set(reported)
    return sum(w for n, w in importance.items() if n in got) / total


def citation_scores(support: Sequence[Sequence[bool]]) -> tuple[float | None, float | None]:
    """``(micro, macro)`` citation precision over the cited sentences (Mayfield et al. 2024, §4.5).

    ``support[i]`` lists, for sentence i, whether each of its cited documents supports it.
    Micro: supported citations / all citations (focus on citation accuracy). Macro: the mean
    over cited sentences of each sentence's supported fraction (every sentence weighs the
    same). Sentences without citations are left out; None when no sentence cites.
    """
    cited = [list(s) for s in support if len(s)]
    if not cited:
        return None, None
    micro = sum(sum(s) for s in cited) / sum(len(s) for s in cited)
    macro = sum(sum(s) / len(s) for s in cited) / len(cited)
    return micro, macro
