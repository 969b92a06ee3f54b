"""Score functions: hand-computed values, edge cases and properties."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factgraph.metrics import bootstrap, factual, icat, lmr

unit = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
betas = st.floats(min_value=1e-3, max_value=1e3, allow_nan=False)


def test_icat_hand_values() -> None:
    # Worked example of the ICAT integration guide: F = 0.75, C = 0.6 -> 0.667 with the plain
    # harmonic mean.
    assert icat.icat_score(0.75, 0.6) == pytest.approx(2 * 0.75 * 0.6 / 1.35)
    assert icat.icat_score(0.88, 0.857) == pytest.approx(0.868, abs=5e-4)
    # β = 2 weighs coverage: (1+4)·F·C / (4F + C)
    assert icat.icat_score(0.5, 0.25, beta=2) == pytest.approx(5 * 0.125 / 2.25)
    assert icat.icat_score(0.0, 0.0) == 0.0
    with pytest.raises(ValueError):
        icat.icat_score(0.5, 0.5, beta=0)
    with pytest.raises(ValueError):
        icat.icat_score(1.5, 0.5)


@given(unit, unit, betas)
def test_icat_between_components(f: float, c: float, b: float) -> None:
    v = icat.icat_score(f, c, b)
    assert min(f, c) - 1e-9 <= v <= max(f, c) + 1e-9


@given(st.floats(0.01, 1.0), st.floats(0.01, 1.0))
def test_icat_beta_limits(f: float, c: float) -> None:
    # β -> 0 gives factuality, β -> ∞ gives coverage (Samarinas et al. 2025, §3 discussion of β).
    assert icat.icat_score(f, c, 1e-6) == pytest.approx(f, rel=1e-6)
    assert icat.icat_score(f, c, 1e6) == pytest.approx(c, rel=1e-6)


def test_icat_components_and_sweep() -> None:
    assert icat.fact_score(3, 4) == 0.75 and icat.fact_score(0, 0) is None
    assert icat.coverage_score(["a", "a", "zz"], {"a", "b", "c"}) == pytest.approx(1 / 3)
    assert icat.coverage_score([], []) is None
    assert icat.graded_coverage_score(3, 2, 5) == pytest.approx(0.8)
    with pytest.raises(ValueError):
        icat.graded_coverage_score(4, 2, 5)
    sweep = icat.icat_beta_sweep(0.9, 0.3, [0.5, 1, 2])
    values = [v for _, v in sweep]
    assert values == sorted(values, reverse=True)  # coverage < fact: more β, lower ICAT


def test_factual_hand_values() -> None:
    assert factual.factual_precision(7, 10) == 0.7
    assert factual.contradiction_rate(1, 10) == 0.1
    assert factual.not_supported_rate(2, 10) == 0.2
    assert factual.factual_recall(0, 0) is None
    assert factual.importance_weight(5, 1) == pytest.approx(0.5)
    assert factual.importance_weight(3, 5, alpha=1, beta=1) == pytest.approx(1.5)
    with pytest.raises(ValueError):
        factual.importance_weight(0, 3)
    imps, cov = [1.0, 0.5, 0.25, 0.25], [True, False, True, False]
    assert factual.weighted_recall(imps, cov) == pytest.approx(1.25 / 2.0)
    assert factual.weighted_recall([0.0], [True]) is None
    assert factual.recall_at_k(imps, cov, 2) == 0.5
    assert factual.recall_at_k(imps, cov, 10) == 0.5
    assert factual.f1_score(0.5, 1.0) == pytest.approx(2 / 3)
    assert factual.f1_score(0.0, 0.0) == 0.0 and factual.f1_score(None, 0.3) is None
    assert factual.claim_fact_ratio([10, 20], [5, 5]) == 3.0


@given(st.lists(st.tuples(st.floats(0, 1), st.booleans()), min_size=1, max_size=30))
def test_weighted_recall_equals_recall_with_equal_weights(rows: list[tuple[float, bool]]) -> None:
    cov = [c for _, c in rows]
    assert factual.weighted_recall([1.0] * len(cov), cov) == pytest.approx(
        factual.factual_recall(sum(cov), len(cov)))


def test_lmr_mappings() -> None:
    assert lmr.strict_label(1.0) == "Correct"
    assert lmr.strict_label(0.99) == "Partially correct"
    assert lmr.strict_label(0.0) == "Incorrect"
    assert lmr.moderate_label(0.8) == "Partially correct"
    assert lmr.moderate_label(0.2) == "Incorrect"
    assert lmr.adjusted_human_label("Correct", 1) == "Partially correct"
    assert lmr.adjusted_human_label("Correct", 3) == "Correct"
    assert lmr.adjusted_human_label("Incorrect", 2) == "Incorrect"
    with pytest.raises(ValueError):
        lmr.adjusted_human_label("Great", 0)
    assert lmr.label_match(0.5, "Partially correct") and not lmr.label_match(1.0, "Incorrect")
    assert lmr.label_match_rate([]) is None


def test_conflictbank_terms() -> None:
    # Response states the default fact: S=0.5 overall, 1 on D, 0 on each counterfactual.
    s_x = {"D": 1.0, "C1": 0.0, "C2": 0.0, "C3": 0.0}
    m_x = {"D": True, "C1": False, "C2": False, "C3": False}
    assert lmr.conflictbank_strict_term(0.5, s_x, m_x) == 1.0
    assert lmr.conflictbank_strict_term(1.0, s_x, m_x) == pytest.approx(4 / 5)
    assert lmr.conflictbank_lax_term(1.0, [0.0, 0.0, 0.0], True, False) == 1.0
    assert lmr.conflictbank_lax_term(0.2, [0.5, 0.1, 0.2], False, True) == pytest.approx(1 / 3)
    assert lmr.conflictbank_lmr([1.0, 0.5], [1.0, 0.0]) == pytest.approx((0.75 + 0.5) / 2)


def test_bca_interval() -> None:
    assert bootstrap.bca_interval([1.0]) is None
    assert bootstrap.bca_interval([1.0, 1.0, 1.0]) == (1.0, 1.0)
    low, high = bootstrap.bca_interval([0.0] * 50 + [1.0] * 50, n_resamples=2000)
    assert low < 0.5 < high and math.isclose(low + high, 1.0, abs_tol=0.03)
