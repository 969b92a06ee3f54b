"""ICAT: factuality of atomic claims and coverage of the query's aspects (Samarinas et al. 2025,
§3).

Notation: ``C`` the atomic claims of a response, ``C_T ⊆ C`` the claims grounded in the
knowledge source, ``TQ(x)`` the query's aspects, ``TO(c)`` the aspects claim ``c`` covers.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Hashable, Iterable


def fact_score(n_supported: int, n_claims: int) -> float | None:
    """Factuality score ``S_fact = |C_T| / |C|`` (Samarinas et al. 2025, §3, "Factuality Score").

    ``None`` when the response has no claim (nothing to verify).
    """
    if n_claims < 0 or n_supported < 0 or n_supported > n_claims:
        raise ValueError(f"need 0 <= n_supported <= n_claims, got {n_supported}, {n_claims}")
    return None if n_claims == 0 else n_supported / n_claims


def coverage_score(
    covered_aspects: Iterable[Hashable], aspects: Collection[Hashable]
) -> float | None:
    """Coverage score ``S_cov = |∪_{c ∈ C_T} TO(c) ∩ TQ(x)| / |TQ(x)|`` (Samarinas et al. 2025, §3).

    ``covered_aspects`` are the aspects covered by *supported* claims (any iterable, duplicates
    and aspects outside ``aspects`` are ignored: coverage is set-based). ``None`` when the
    query has no aspect.
    """
    universe = set(aspects)
    if not universe:
        return None
    return len(set(covered_aspects) & universe) / len(universe)


def graded_coverage_score(
    well: int, partial: int, n_aspects: int, partial_weight: float = 0.5
) -> float | None:
    """Coverage with well / partially covered aspects (as in an ICAT integration guide for a
    LangGraph multi-agent RAG system, "ICAT Score Calculation").

    ``S_cov = (well + w · partial) / n_aspects`` with ``w = 0.5`` by default.
    ``None`` when there is no aspect.
    """
    if min(well, partial, n_aspects) < 0 or well + partial > n_aspects:
        raise ValueError(f"need well + partial <= n_aspects, got {well}, {partial}, {n_aspects}")
    if not 0.0 <= partial_weight <= 1.0:
        raise ValueError("partial_weight must lie in [0, 1]")
    if n_aspects == 0:
        return None
    return (well + partial_weight * partial) / n_aspects


def icat_score(fact: float, coverage: float, beta: float = 1.0) -> float:
    """``ICAT_β = (1 + β²) · S_fact · S_cov / (β² · S_fact + S_cov)`` (Samarinas et al. 2025, §3,
    Eq. 3).

    The weighted harmonic mean of factuality and coverage; β > 1 weighs coverage more,
    β < 1 factuality. When both scores are 0 the value is 0 (the F-measure convention).
    """
    if not (beta > 0 and math.isfinite(beta)):
        raise ValueError(f"beta must be a positive finite number, got {beta}")
    for name, v in (("fact", fact), ("coverage", coverage)):
        if not 0.0 <= v <= 1.0:
            raise ValueError(f"{name} score must lie in [0, 1], got {v}")
    b2 = beta * beta
    denom = b2 * fact + coverage
    return 0.0 if denom == 0 else (1 + b2) * fact * coverage / denom


def icat_beta_sweep(
    fact: float, coverage: float, betas: Iterable[float]
) -> list[tuple[float, float]]:
    """``[(β, ICAT_β)]`` for plotting the factuality / coverage trade-off (Samarinas et al. 2025,
    Fig. 3)."""
    return [(b, icat_score(fact, coverage, b)) for b in betas]


DEFAULT_BETAS: tuple[float, ...] = (0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
