"""Agreement statistics against scikit-learn, on random label vectors (hypothesis)."""

from __future__ import annotations

import math
import warnings
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factgraph.metrics.agreement import (
    agreement,
    balanced_accuracy,
    bca_agreement_interval,
    cohen_kappa,
    macro_f1,
    majority_baseline,
)

sklearn_metrics = pytest.importorskip("sklearn.metrics", reason="scikit-learn is the reference")

HUMAN = ["Correct", "Partially correct", "Incorrect"]
PREDICTED = [*HUMAN, "undefined"]


@st.composite
def label_pairs(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    n = draw(st.integers(min_value=1, max_value=60))
    y_true = draw(st.lists(st.sampled_from(HUMAN), min_size=n, max_size=n))
    y_pred = draw(st.lists(st.sampled_from(PREDICTED), min_size=n, max_size=n))
    return y_true, y_pred


def _sk(func: Any, *args: Any, **kw: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kw)


@settings(max_examples=150, deadline=None)
@given(label_pairs())
def test_kappa_equals_sklearn(pair: tuple[list[str], list[str]]) -> None:
    y_true, y_pred = pair
    ours = cohen_kappa(y_true, y_pred)
    ref = float(_sk(sklearn_metrics.cohen_kappa_score, y_true, y_pred))
    if math.isnan(ref):
        assert ours is None
    else:
        assert ours is not None and abs(ours - ref) <= 1e-9


@settings(max_examples=150, deadline=None)
@given(label_pairs())
def test_balanced_accuracy_equals_sklearn(pair: tuple[list[str], list[str]]) -> None:
    y_true, y_pred = pair
    ref = float(_sk(sklearn_metrics.balanced_accuracy_score, y_true, y_pred))
    ours = balanced_accuracy(y_true, y_pred)
    assert ours is not None and abs(ours - ref) <= 1e-9


@settings(max_examples=150, deadline=None)
@given(label_pairs())
def test_macro_f1_equals_sklearn(pair: tuple[list[str], list[str]]) -> None:
    y_true, y_pred = pair
    labels = sorted((set(y_true) | set(y_pred)) - {"undefined"})
    ref = float(_sk(sklearn_metrics.f1_score, y_true, y_pred, labels=labels, average="macro",
                    zero_division=0))
    ours = macro_f1(y_true, y_pred)
    assert ours is not None and abs(ours - ref) <= 1e-9
    # with the three human classes fixed, too
    ref3 = float(_sk(sklearn_metrics.f1_score, y_true, y_pred, labels=HUMAN, average="macro",
                     zero_division=0))
    assert abs(macro_f1(y_true, y_pred, labels=HUMAN) - ref3) <= 1e-9  # type: ignore[operator]


def test_constant_judge_cannot_pass() -> None:
    y_true = ["Partially correct"] * 77 + ["Incorrect"] * 17 + ["Correct"] * 6
    const = ["Partially correct"] * 100
    a = agreement(y_true, const, HUMAN, n_resamples=200)
    assert a.lmr == pytest.approx(0.77)
    assert a.majority_baseline == pytest.approx(0.77)
    assert a.majority_label == "Partially correct"
    assert a.kappa == 0.0
    assert a.balanced_accuracy == pytest.approx(1 / 3)
    assert a.confusion["Incorrect"] == {"Partially correct": 17}


def test_majority_tie_goes_to_first_label() -> None:
    assert majority_baseline(["b", "a", "b", "a"]) == ("a", 0.5)
    assert majority_baseline([]) is None


def test_bca_interval_contains_point_and_narrows_with_n() -> None:
    import random

    rng = random.Random(3)

    def noisy(n: int) -> tuple[list[str], list[str]]:
        t = [rng.choice(HUMAN) for _ in range(n)]
        p = [x if rng.random() < 0.7 else rng.choice(HUMAN) for x in t]
        return t, p

    t, p = noisy(60)
    ci = bca_agreement_interval(t, p, "kappa", n_resamples=2000)
    k = cohen_kappa(t, p)
    assert ci is not None and k is not None and ci[0] <= k <= ci[1]
    t2, p2 = noisy(600)
    ci2 = bca_agreement_interval(t2, p2, "kappa", n_resamples=2000)
    assert ci2 is not None and (ci2[1] - ci2[0]) < (ci[1] - ci[0])
    ba = bca_agreement_interval(t, p, "balanced_accuracy", n_resamples=2000)
    b = balanced_accuracy(t, p)
    assert ba is not None and b is not None and ba[0] <= b <= ba[1]


def test_degenerate_kappa_is_none() -> None:
    assert cohen_kappa(["Correct", "Correct"], ["Correct", "Correct"]) is None
    assert bca_agreement_interval(["Correct"] * 5, ["Correct"] * 5, "kappa") is None
    with pytest.raises(ValueError):
        cohen_kappa(["Correct"], [])
