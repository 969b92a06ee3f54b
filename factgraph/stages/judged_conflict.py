"""The contradiction check as the ``evidence`` judge asks it: a conflict is shown only where the
sentences would state the fact if its values matched.

The rules of :mod:`factgraph.stages.contradiction` find another value in the fact's slot of the
sentence aligned to it. On a fact the answer does not state at all, a sentence on the same
topic often holds another value of the same kind for another thing ("Mary Anning was born in
1799" against "Mary Anning died in 1847"; "Optimized Battery Charging holds it around 80%"
against "stored long-term at about 50% charge"): the fact is missing, not stated wrongly. So
before a conflict is shown, the calibration is asked one more question: the fact's ``P(stated)``
with its value evidence set aside — the features that say a number or name of the fact is
missing from the response (:data:`VALUE_FEATURES`) read as zero, as if the sentence's values
were the fact's. Where even that P is below :data:`CONFLICT_MIN_P`, the sentence does not
carry the rest of the fact, and the fact is judged missing rather than contradicted.

``P_aside(fact) = σ(b + Σ_{j ∉ value features} w_j x_j)`` (the logistic model of
:mod:`factgraph.stages.fact_calibration` with ``x_j = 0`` for the value features).

The cut-off 0.4 was read on long-answer sets 1-12 (``benchmarks/data``): every wrong fact of
the twelve sets that the rules catch has ``P_aside ≥ 0.4`` but one of 106, every changed answer
they catch has it (564 of 564), and 5 of the 23 false alarms have less — all on facts the
answer does not state (set 12's "born in 1799", "around 80%"). Pure functions over numpy.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from factgraph.stages.contradiction import Conflict, find_conflict
from factgraph.stages.fact_calibration import Calibration
from factgraph.stages.fact_evidence import FactEvidence, ResponseIndex, feature_vector

__all__ = ["CONFLICT_MIN_P", "VALUE_FEATURES", "judged_conflict", "values_aside_probability"]

# the features that say a value of the fact is missing from the response
VALUE_FEATURES = frozenset({"numbers_missing", "names_missing"})

# a conflict is shown where the fact's P with its value evidence set aside reaches this
CONFLICT_MIN_P = 0.4


def values_aside_probability(calibration: Calibration, x: np.ndarray) -> np.ndarray:
    """``P(stated)`` for each row of ``x`` (n × ``calibration.features``) with the value
    features (:data:`VALUE_FEATURES`) read as zero: how well the sentences carry the rest of
    the fact, whatever values they give."""
    aside = np.array(x, dtype=float, copy=True, ndmin=2)
    for j, name in enumerate(calibration.features):
        if name in VALUE_FEATURES:
            aside[:, j] = 0.0
    return calibration.probability(aside)


def judged_conflict(fact: str, index: ResponseIndex, evidence: FactEvidence, response: str,
                    calibration: Calibration, cutoff: float | None = None,
                    features: Sequence[float] | None = None) -> tuple[int, Conflict] | None:
    """(sentence index, conflict) for ``fact`` as the evidence judge decides it, or None: the
    rules' conflict (:func:`~factgraph.stages.contradiction.find_conflict`, the sentence read
    as stating the fact where ``P(stated)`` reaches ``cutoff``, the calibration's own by
    default), shown only where :func:`values_aside_probability` reaches
    :data:`CONFLICT_MIN_P`. ``features``: the fact's feature vector where the caller holds
    it."""
    x = np.array([features if features is not None
                  else feature_vector(evidence, calibration.features)], dtype=float)
    if float(values_aside_probability(calibration, x)[0]) < CONFLICT_MIN_P:
        return None
    p = float(calibration.probability(x)[0])
    return find_conflict(fact, index, evidence.sentence, response,
                         judged_stated=p >= (calibration.cutoff if cutoff is None else cutoff))
