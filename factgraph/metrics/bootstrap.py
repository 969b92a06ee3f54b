"""BCa bootstrap confidence intervals (Efron 1987), as used for every LMR in Dejl et al. 2025,
§4."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from scipy import stats


def bca_interval(
    values: Sequence[float],
    confidence: float = 0.95,
    n_resamples: int = 10_000,
    seed: int = 42,
) -> tuple[float, float] | None:
    """The BCa bootstrap interval of the mean of ``values``.

    Returns ``(low, high)``; ``None`` for fewer than two values. When every value is equal the
    bootstrap distribution is degenerate and the interval is the point ``(v, v)``.
    """
    data = np.asarray(values, dtype=float)
    if data.size < 2:
        return None
    if np.all(data == data[0]):
        return float(data[0]), float(data[0])
    res = stats.bootstrap(
        (data,),
        np.mean,
        confidence_level=confidence,
        n_resamples=n_resamples,
        method="BCa",
        rng=np.random.default_rng(seed),
    )
    low, high = float(res.confidence_interval.low), float(res.confidence_interval.high)
    if not (math.isfinite(low) and math.isfinite(high)):
        return None
    return low, high
