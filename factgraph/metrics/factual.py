"""Factual precision and recall with importance weighting (Jafari et al. 2026, §3.2.3, §3.4, §4).

Claims ``C = {c_1..c_L}`` come from the response; reference facts ``F*(q)`` from the evidence.
Precision verdicts are SUPPORTED / CONTRADICTED / NOT SUPPORTED per claim; recall verdicts
COVERED / NOT COVERED per reference fact.
"""

from __future__ import annotations

from collections.abc import Sequence


def _rate(count: int, total: int) -> float | None:
    if total < 0 or count < 0 or count > total:
        raise ValueError(f"need 0 <= count <= total, got {count}, {total}")
    return None if total == 0 else count / total


def factual_precision(n_supported: int, n_claims: int) -> float | None:
    """``Prec = (1/L) Σ_l 1[y_l = SUPPORTED]`` (Jafari et al. 2026, §3.4, Eq. 2). None with no
    claim."""
    return _rate(n_supported, n_claims)


def contradiction_rate(n_contradicted: int, n_claims: int) -> float | None:
    """``CRate = (1/L) Σ_l 1[y_l = CONTRADICTED]`` (Jafari et al. 2026, §3.4, Eq. 3)."""
    return _rate(n_contradicted, n_claims)


def not_supported_rate(n_not_supported: int, n_claims: int) -> float | None:
    """``NSRate = (1/L) Σ_l 1[y_l = NOT SUPPORTED]`` (Jafari et al. 2026, §3.4)."""
    return _rate(n_not_supported, n_claims)


def factual_recall(n_covered: int, n_facts: int) -> float | None:
    """``Rec = (1/|F*|) Σ_{f ∈ F*} 1[v_f = COVERED]`` (Jafari et al. 2026, §3.4, Eq. 4). None if no
    fact."""
    return _rate(n_covered, n_facts)


def importance_weight(
    relevance: float, salience: float, alpha: float = 0.5, beta: float = 0.5
) -> float:
    """``imp(f; q) = α·r̂ + β·ŝ`` with ``r̂ = (r−1)/4``, ``ŝ = (s−1)/4`` (Jafari et al. 2026,
    §3.2.3, Eq. 1).

    ``r`` and ``s`` are 1-5 ratings of relevance to the query and salience to the topic;
    ``α, β ≥ 0`` trade them off (the defaults weigh both equally, giving imp ∈ [0, 1]).
    """
    for name, v in (("relevance", relevance), ("salience", salience)):
        if not 1.0 <= v <= 5.0:
            raise ValueError(f"{name} must be a 1-5 rating, got {v}")
    if alpha < 0 or beta < 0:
        raise ValueError("alpha and beta must be non-negative")
    return alpha * (relevance - 1) / 4 + beta * (salience - 1) / 4


def weighted_recall(importances: Sequence[float], covered: Sequence[bool]) -> float | None:
    """``Rec_imp = Σ imp(f)·1[f covered] / Σ imp(f)`` over F*(q) (Jafari et al. 2026, §3.4, Eq. 5).

    None when F*(q) is empty or every importance is 0 (the weighting is undefined).
    """
    if len(importances) != len(covered):
        raise ValueError("importances and covered must have the same length")
    if any(w < 0 for w in importances):
        raise ValueError("importances must be non-negative")
    total = float(sum(importances))
    if total == 0:
        return None
    return sum(w for w, c in zip(importances, covered, strict=True) if c) / total


def recall_at_k(importances: Sequence[float], covered: Sequence[bool], k: int) -> float | None:
    """Recall over the ``k`` most important reference facts (Jafari et al. 2026, §5, "recall@k").

    Facts are ranked by importance, descending; ties keep their given order (stable sort).
    With fewer than ``k`` facts the denominator is the number of facts. None with no fact.
    """
    if k <= 0:
        raise ValueError("k must be positive")
    if len(importances) != len(covered):
        raise ValueError("importances and covered must have the same length")
    order = sorted(range(len(importances)), key=lambda i: -importances[i])[:k]
    if not order:
        return None
    return sum(1 for i in order if covered[i]) / len(order)


def f1_score(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean ``F1 = 2·P·R / (P + R)`` (Jafari et al. 2026, §3.4); 0 when P = R = 0."""
    if precision is None or recall is None:
        return None
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def claim_fact_ratio(n_claims: Sequence[int], n_facts: Sequence[int]) -> float | None:
    """``ρ = mean(|C|) / mean(|F*|)`` over prompts (Jafari et al. 2026, §4, Table 2).

    The average number of generated claims per prompt over the average number of reference
    facts per prompt; a single response is the one-element case.
    """
    if len(n_claims) != len(n_facts) or not n_claims:
        raise ValueError("need equally many (and at least one) claim and fact counts")
    facts = sum(n_facts) / len(n_facts)
    return None if facts == 0 else (sum(n_claims) / len(n_claims)) / facts
