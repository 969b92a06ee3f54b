"""Label match rates: does a comprehensiveness score agree with weak labels? (Dejl et al. 2025,
App. B)

WikiContradict answers carry a human label — Correct (C), Partially correct (PC) or
Incorrect (I) — saying whether the answer uses both, one or neither of two conflicting
contexts. ``match(S, l) = 1[S = 1]`` for C, ``1[0 < S < 1]`` for PC, ``1[S = 0]`` for I, and
``LMR = (1/N) Σ match(S_i, l_i)``. Answers written from one context only (answer indices 1 and
2) that humans marked Correct count as Partially correct (footnote 6).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

Label = Literal["Correct", "Partially correct", "Incorrect"]
LABELS: tuple[Label, ...] = ("Correct", "Partially correct", "Incorrect")

# IBM's reference mapping compares with a tolerance of 10e-6 (= 1e-5) rather than equality.
STRICT_EPS = 10e-6


def strict_label(score: float) -> Label:
    """The label a score implies under ``match``: S = 1 → C, 0 < S < 1 → PC, S = 0 → I.

    Equality is tested with IBM's tolerance: ``S > 1 − 1e-5`` is C, ``S > 1e-5`` is PC.
    """
    if score > 1 - STRICT_EPS:
        return "Correct"
    if score > STRICT_EPS:
        return "Partially correct"
    return "Incorrect"


def moderate_label(score: float, high: float = 0.8, low: float = 0.2) -> Label:
    """IBM's looser mapping: ``S > 0.8`` → C, ``S > 0.2`` → PC, else I (strict inequalities)."""
    if score > high:
        return "Correct"
    if score > low:
        return "Partially correct"
    return "Incorrect"


def adjusted_human_label(label: str, answer_index: int) -> Label:
    """The label to compare against: a "Correct" on a single-context answer (index 1 or 2)
    counts as "Partially correct" (Dejl et al. 2025, App. B, footnote 6)."""
    if label not in LABELS:
        raise ValueError(f"unknown WikiContradict label {label!r}")
    if label == "Correct" and answer_index in (1, 2):
        return "Partially correct"
    return label


def label_match(score: float, label: str, mode: Literal["strict", "moderate"] = "strict") -> bool:
    """``match(S, l)`` with the strict (paper) or moderate mapping."""
    predicted = strict_label(score) if mode == "strict" else moderate_label(score)
    return predicted == label


def label_match_rate(matches: Sequence[bool]) -> float | None:
    """``LMR = (1/N) Σ match_i``; None for N = 0."""
    return None if not matches else sum(matches) / len(matches)


def conflictbank_strict_term(
    s_all: float, s_by_context: dict[str, float], matches_context: dict[str, bool]
) -> float:
    """One sample's term of ``LMR_CB,strict`` (Dejl et al. 2025, App. B, Fig. 7).

    ``(1[0 < S < 1] + Σ_{X ∈ {D, C1, C2, C3}} 1[S_X = 1[R = R_X]]) / (1 + 4)`` where ``S`` is
    the score against all contexts, ``S_X`` against context X alone and ``matches_context[X]``
    says whether the response states X's fact (``R = R_X``).
    """
    if set(s_by_context) != set(matches_context) or not s_by_context:
        raise ValueError("s_by_context and matches_context must name the same contexts")
    hits = int(0 < s_all < 1)
    hits += sum(int(s_by_context[x] == float(matches_context[x])) for x in s_by_context)
    return hits / (1 + len(s_by_context))


def conflictbank_lax_term(
    s_default: float,
    s_counterfactual: Sequence[float],
    response_is_default: bool,
    response_is_counterfactual: bool,
) -> float:
    """One sample's term of ``LMR_CB,lax`` (Dejl et al. 2025, App. B, Fig. 7).

    ``Σ_{X ∈ {C1,C2,C3}} (1[R = R_D ∧ S_X < S_D] + 1[R = R_C ∧ S_X > S_D]) / 3``: scores for
    the contexts the response agrees with must be higher than for the others.
    """
    if not s_counterfactual:
        raise ValueError("need at least one counterfactual context")
    total = 0
    for s_x in s_counterfactual:
        total += int(response_is_default and s_x < s_default)
        total += int(response_is_counterfactual and s_x > s_default)
    return total / len(s_counterfactual)


def conflictbank_lmr(strict_terms: Sequence[float], lax_terms: Sequence[float]) -> float | None:
    """``LMR_CB = (LMR_strict + LMR_lax) / 2`` with each the mean of its per-sample terms."""
    if not strict_terms or len(strict_terms) != len(lax_terms):
        return None
    return (sum(strict_terms) / len(strict_terms) + sum(lax_terms) / len(lax_terms)) / 2
