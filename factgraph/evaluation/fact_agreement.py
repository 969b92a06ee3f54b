"""Agreement of per-fact presence decisions with people's labels, and of per-summary coverage
with the people's share — the statistics of ``factgraph meta-eval facts`` (pure numpy).

**Per fact.** The class a coverage judge's uncovered basis claims is *missing*, so it is the
positive class. Over n facts, with people's label ``y`` and the judge's decision ``ŷ``
(True = present), the four cells are

* ``a`` = both missing, ``b`` = judged missing but present, ``c`` = judged present but
  missing, ``d`` = both present;

and the statistics are read from them (the definitions of scikit-learn, checked against it in
the tests):

* accuracy ``(a + d) / n``;
* balanced accuracy ``½ · (a / (a + c) + d / (b + d))`` — the mean recall of the two classes;
* Cohen's κ ``(p_o − p_e) / (1 − p_e)``, ``p_o = (a + d) / n``,
  ``p_e = ((a + b)(a + c) + (c + d)(b + d)) / n²`` (Cohen 1960);
* precision of missing ``a / (a + b)``, recall of missing ``a / (a + c)``, F1 of missing
  ``2a / (2a + b + c)``.

A ratio whose denominator is 0 is NaN (reported as undefined, never 0).

**BCa 95% intervals resampling clusters** (Efron 1987): the facts of one article are not
independent draws (they share a reference and a set of summaries), so the bootstrap draws whole
articles with replacement; each statistic of a resample is computed from the sums of the drawn
articles' cells (``scipy.stats.bootstrap``, ``method="BCa"``, vectorised over resamples).

**Per summary.** ``share`` = covered facts / judged facts of one summary, set against the
people's share of present facts: Pearson's r over summaries; Kendall's τ-b per article across
the systems that summarised it, averaged over the articles where it is defined (the protocol of
REALSumm and RoSE); and at system level, Pearson / Kendall of the systems' mean shares
(correlations: ``factgraph.evaluation.pairwise``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from factgraph.evaluation.pairwise import kendall_tau_b, pearson

PER_FACT = ("accuracy", "balanced_accuracy", "kappa", "precision_missing", "recall_missing",
            "f1_missing")


def cells(present: Sequence[bool] | np.ndarray, judged_present: Sequence[bool] | np.ndarray
          ) -> np.ndarray:
    """``[a, b, c, d]`` (module docstring): missing is the positive class."""
    y = np.asarray(present, dtype=bool)
    p = np.asarray(judged_present, dtype=bool)
    if y.shape != p.shape:
        raise ValueError(f"{y.size} labels but {p.size} decisions")
    return np.array([np.sum(~y & ~p), np.sum(y & ~p), np.sum(~y & p), np.sum(y & p)],
                    dtype=float)


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def statistics_of_cells(c: np.ndarray) -> np.ndarray:
    """The six per-fact statistics (``PER_FACT`` order) of cells ``[..., 4]`` (any leading
    axes: one row per resample)."""
    a, b, cc, d = (c[..., k] for k in range(4))
    n = a + b + cc + d
    p_o = _ratio(a + d, n)
    p_e = _ratio((a + b) * (a + cc) + (cc + d) * (b + d), n * n)
    recall_missing = _ratio(a, a + cc)
    recall_present = _ratio(d, b + d)
    return np.stack([
        p_o,
        0.5 * (recall_missing + recall_present),
        _ratio(p_o - p_e, 1.0 - p_e),
        _ratio(a, a + b),
        recall_missing,
        _ratio(2 * a, 2 * a + b + cc),
    ], axis=-1)


def per_fact_statistics(present: Sequence[bool], judged_present: Sequence[bool]
                        ) -> dict[str, float | None]:
    """The per-fact statistics of one list of decisions (None where undefined)."""
    values = statistics_of_cells(cells(present, judged_present))
    return {name: _finite(v) for name, v in zip(PER_FACT, values.tolist(), strict=True)}


def cluster_cells(present: Sequence[bool], judged_present: Sequence[bool],
                  clusters: Sequence[str]) -> np.ndarray:
    """Cells per cluster, ``[n_clusters, 4]``, clusters in sorted order."""
    names = sorted(set(clusters))
    index = {c: i for i, c in enumerate(names)}
    out = np.zeros((len(names), 4))
    y = np.asarray(present, dtype=bool)
    p = np.asarray(judged_present, dtype=bool)
    k = np.fromiter((index[c] for c in clusters), dtype=np.int64, count=len(clusters))
    for j, mask in enumerate((~y & ~p, y & ~p, ~y & p, y & p)):
        out[:, j] = np.bincount(k[mask], minlength=len(names))
    return out


def cluster_bca(per_cluster: np.ndarray, n_resamples: int = 2_000, seed: int = 42,
                confidence: float = 0.95) -> list[tuple[float, float] | None]:
    """BCa intervals of the six statistics, resampling the rows of ``per_cluster`` (each
    cluster's cells); None for a statistic whose interval is not finite, or with fewer than
    3 clusters or no resamples."""
    from scipy import stats as sps

    k = len(per_cluster)
    if n_resamples <= 0 or k < 3:
        return [None] * len(PER_FACT)

    def stat(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        drawn = per_cluster[np.asarray(idx, dtype=np.int64)]  # [..., k, 4]
        return np.moveaxis(statistics_of_cells(drawn.sum(axis=-2)), -1, 0)

    with np.errstate(all="ignore"):
        res = sps.bootstrap((np.arange(k),), stat, vectorized=True, n_resamples=n_resamples,
                            method="BCa", confidence_level=confidence,
                            rng=np.random.default_rng(seed))
    lows = np.atleast_1d(res.confidence_interval.low)
    highs = np.atleast_1d(res.confidence_interval.high)
    return [(float(lo), float(hi)) if math.isfinite(lo) and math.isfinite(hi) else None
            for lo, hi in zip(lows, highs, strict=True)]


def best_cutoff(present: Sequence[bool], scores: Sequence[float],
                candidates: Sequence[float]) -> tuple[float, float | None]:
    """The candidate cut-off whose decision ``score ≥ cut-off`` has the highest κ against
    ``present`` (the first on ties), and that κ."""
    best: tuple[float, float | None] = (candidates[0], None)
    s = np.asarray(scores, dtype=float)
    for cut in candidates:
        kappa = per_fact_statistics(present, (s >= cut).tolist())["kappa"]
        if kappa is not None and (best[1] is None or kappa > best[1]):
            best = (cut, kappa)
    return best


# --- per summary ----------------------------------------------------------------------------

def kendall_per_group(x: Sequence[float], y: Sequence[float], groups: Sequence[str]
                      ) -> tuple[float | None, list[float]]:
    """Mean over groups of Kendall's τ-b between ``x`` and ``y`` within the group, over the
    groups where τ-b is defined (two or more items, neither constant); and the defined τs in
    sorted group order."""
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    g = np.asarray(groups)
    taus = []
    for name in sorted(set(groups)):
        m = g == name
        if m.sum() < 2:
            continue
        tau = kendall_tau_b(xs[m], ys[m])
        if math.isfinite(tau):
            taus.append(tau)
    return (float(np.mean(taus)) if taus else None), taus


def group_means(values: Sequence[float], groups: Sequence[str]) -> dict[str, float]:
    """The mean of ``values`` per group."""
    out: dict[str, list[float]] = {}
    for v, name in zip(values, groups, strict=True):
        out.setdefault(name, []).append(float(v))
    return {k: float(np.mean(v)) for k, v in sorted(out.items())}


def correlations(x: Sequence[float], y: Sequence[float]) -> tuple[float | None, float | None]:
    """(Pearson's r, Kendall's τ-b) of two vectors (None where undefined)."""
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(xs) < 2:
        return None, None
    return _finite(pearson(xs, ys)), _finite(kendall_tau_b(xs, ys))


def _finite(v: float) -> float | None:
    return float(v) if math.isfinite(v) else None
