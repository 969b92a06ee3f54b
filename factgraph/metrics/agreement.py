"""Agreement of a judge's labels with human labels, chance-corrected.

A label match rate alone cannot tell a good judge from a constant: on WikiContradict a judge
that always says "Partially correct" matches 77% of the human labels. These functions report
what a constant cannot fake (the same definitions as scikit-learn, checked against it in
``tests/test_agreement.py``):

- Cohen's κ (Cohen 1960): ``κ = (p_o − p_e) / (1 − p_e)`` with ``p_o`` the share of items where
  the two label sequences agree and ``p_e = Σ_k p_true(k) · p_pred(k)`` the agreement expected
  from the two marginals alone. A constant judge has ``κ = 0``.
- Balanced accuracy: the mean over the classes present in the human labels of the per-class
  recall ``|{i: y_i = k, ŷ_i = k}| / |{i: y_i = k}|``. A constant judge gets ``1 / K``.
- Macro-F1: the unweighted mean over classes of ``F1_k = 2·TP_k / (2·TP_k + FP_k + FN_k)``
  (``0`` where a class has no true and no predicted item in the given list of classes).
- The majority-class baseline: the label match rate of the constant judge that always answers
  the most frequent human label of the same items.
- BCa 95% intervals of κ and balanced accuracy: ``scipy.stats.bootstrap`` over items (paired
  resampling of (human, predicted) pairs), ``method="BCa"``.

Predictions may contain a label the humans never use (``"undefined"``: no score could be
computed); it counts as a disagreement everywhere and as its own class in κ's marginals.
Used by ``factgraph meta-eval`` (Dejl et al. 2025 report only LMR, App. B; this is the issue-16
extension).
"""

from __future__ import annotations

import math
import warnings
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

UNDEFINED = "undefined"


def _codes(y_true: Sequence[str], y_pred: Sequence[str]) -> tuple[list[str], Any, Any]:
    if len(y_true) != len(y_pred):
        raise ValueError(f"{len(y_true)} human labels but {len(y_pred)} predictions")
    classes = sorted(set(y_true) | set(y_pred))
    index = {c: i for i, c in enumerate(classes)}
    t = np.fromiter((index[y] for y in y_true), dtype=np.int64, count=len(y_true))
    p = np.fromiter((index[y] for y in y_pred), dtype=np.int64, count=len(y_pred))
    return classes, t, p


def _kappa_codes(t: Any, p: Any, n_classes: int) -> Any:
    """κ over the last axis of integer code arrays (vectorised for the bootstrap)."""
    p_o = np.mean(t == p, axis=-1)
    p_e = np.zeros(p_o.shape)
    for k in range(n_classes):
        p_e = p_e + np.mean(t == k, axis=-1) * np.mean(p == k, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (p_o - p_e) / (1.0 - p_e)


def _balanced_accuracy_codes(t: Any, p: Any, n_classes: int) -> Any:
    """Mean per-class recall over the classes present in ``t`` (last axis)."""
    total = np.zeros(t.shape[:-1])
    present = np.zeros(t.shape[:-1])
    for k in range(n_classes):
        in_k = t == k
        support = in_k.sum(axis=-1)
        hits = (in_k & (p == k)).sum(axis=-1)
        has = support > 0
        total = total + np.where(has, hits / np.maximum(support, 1), 0.0)
        present = present + has
    with np.errstate(divide="ignore", invalid="ignore"):
        return total / present


def cohen_kappa(y_true: Sequence[str], y_pred: Sequence[str]) -> float | None:
    """Cohen's κ = (p_o − p_e) / (1 − p_e); ``None`` when undefined (p_e = 1, or no items)."""
    if not y_true:
        return None
    classes, t, p = _codes(y_true, y_pred)
    value = float(_kappa_codes(t, p, len(classes)))
    return value if math.isfinite(value) else None


def balanced_accuracy(y_true: Sequence[str], y_pred: Sequence[str]) -> float | None:
    """Mean recall over the human-label classes present; ``None`` for no items."""
    if not y_true:
        return None
    classes, t, p = _codes(y_true, y_pred)
    return float(_balanced_accuracy_codes(t, p, len(classes)))


def macro_f1(y_true: Sequence[str], y_pred: Sequence[str],
             labels: Sequence[str] | None = None) -> float | None:
    """Mean over ``labels`` of ``F1_k = 2·TP_k / (2·TP_k + FP_k + FN_k)`` (0 where undefined).

    Default ``labels``: every class seen in either sequence except ``"undefined"`` (an
    undefined prediction is a false negative of its true class, not a class of its own).
    """
    if not y_true:
        return None
    if len(y_true) != len(y_pred):
        raise ValueError(f"{len(y_true)} human labels but {len(y_pred)} predictions")
    if labels is None:
        labels = sorted((set(y_true) | set(y_pred)) - {UNDEFINED})
    if not labels:
        return None
    scores = []
    for k in labels:
        tp = sum(a == k and b == k for a, b in zip(y_true, y_pred, strict=True))
        fp = sum(a != k and b == k for a, b in zip(y_true, y_pred, strict=True))
        fn = sum(a == k and b != k for a, b in zip(y_true, y_pred, strict=True))
        scores.append(0.0 if tp + fp + fn == 0 else 2 * tp / (2 * tp + fp + fn))
    return sum(scores) / len(scores)


def majority_baseline(y_true: Sequence[str]) -> tuple[str, float] | None:
    """(most frequent human label, its share): the LMR of the constant judge answering it.
    Ties go to the alphabetically first label."""
    if not y_true:
        return None
    counts = Counter(y_true)
    label = min(counts, key=lambda k: (-counts[k], k))
    return label, counts[label] / len(y_true)


def confusion(y_true: Sequence[str], y_pred: Sequence[str],
              labels: Sequence[str]) -> dict[str, dict[str, int]]:
    """``confusion[human][predicted]`` counts, rows for every label in ``labels``."""
    out: dict[str, Counter[str]] = {lab: Counter() for lab in labels}
    for a, b in zip(y_true, y_pred, strict=True):
        out.setdefault(a, Counter())[b] += 1
    return {lab: dict(c) for lab, c in out.items()}


def bca_agreement_interval(
    y_true: Sequence[str], y_pred: Sequence[str], statistic: str,
    confidence: float = 0.95, n_resamples: int = 10_000, seed: int = 42,
) -> tuple[float, float] | None:
    """BCa interval of ``"kappa"`` or ``"balanced_accuracy"`` by resampling items
    (``scipy.stats.bootstrap``, paired). ``None`` for fewer than two items or when the
    bootstrap distribution is degenerate (e.g. every item in one class)."""
    from scipy import stats

    if len(y_true) < 2:
        return None
    classes, t, p = _codes(y_true, y_pred)
    k = len(classes)
    funcs = {"kappa": _kappa_codes, "balanced_accuracy": _balanced_accuracy_codes}
    if statistic not in funcs:
        raise ValueError(f"unknown statistic {statistic!r}")
    func = funcs[statistic]
    point = func(t, p, k)
    if not np.isfinite(point):
        return None

    def stat(tt: Any, pp: Any, axis: int = -1) -> Any:
        return func(tt, pp, k)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            res = stats.bootstrap((t, p), stat, paired=True, vectorized=True,
                                  confidence_level=confidence, n_resamples=n_resamples,
                                  method="BCa", batch=1000, rng=np.random.default_rng(seed))
        except ValueError:
            return None
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if not (math.isfinite(low) and math.isfinite(high)):
        return None
    return low, high


class Agreement(BaseModel):
    """Agreement of predicted labels with human labels over the same n items."""

    n: int
    lmr: float | None = Field(description="Label match rate (accuracy).")
    kappa: float | None = Field(description="Cohen's κ (None when undefined).")
    kappa_ci: tuple[float, float] | None = None
    balanced_accuracy: float | None
    balanced_accuracy_ci: tuple[float, float] | None = None
    macro_f1: float | None
    majority_label: str | None
    majority_baseline: float | None = Field(
        description="LMR of the constant judge answering the most frequent human label.")
    confusion: dict[str, dict[str, int]] = Field(
        default_factory=dict, description="confusion[human label][predicted label].")


def agreement(y_true: Sequence[str], y_pred: Sequence[str], labels: Sequence[str],
              n_resamples: int = 10_000, seed: int = 42) -> Agreement:
    """Every agreement figure of one judge on one set of items."""
    maj = majority_baseline(y_true)
    n = len(y_true)
    return Agreement(
        n=n,
        lmr=None if not n else sum(a == b for a, b in zip(y_true, y_pred, strict=True)) / n,
        kappa=cohen_kappa(y_true, y_pred),
        kappa_ci=bca_agreement_interval(y_true, y_pred, "kappa", n_resamples=n_resamples,
                                        seed=seed) if n_resamples else None,
        balanced_accuracy=balanced_accuracy(y_true, y_pred),
        balanced_accuracy_ci=bca_agreement_interval(
            y_true, y_pred, "balanced_accuracy", n_resamples=n_resamples, seed=seed)
        if n_resamples else None,
        macro_f1=macro_f1(y_true, y_pred),
        majority_label=maj[0] if maj else None,
        majority_baseline=maj[1] if maj else None,
        confusion=confusion(y_true, y_pred, labels),
    )
