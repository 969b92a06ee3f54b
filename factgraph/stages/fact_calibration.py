"""From evidence to ``P(stated)``: the calibrated model of the ``evidence`` judge.

A logistic model over the features of ``factgraph.stages.fact_evidence``
(:data:`~factgraph.stages.fact_evidence.FEATURES`):
``P(stated) = 1 / (1 + exp(-(b + Σ_j w_j x_j)))``. Its weights were fitted by
``python -m benchmarks.fact_judge --fit`` on fact-level present / not-present labels of two
kinds of text, weighed alike: people's labels of news summaries (REALSumm's dev part, Bhandari
et al. 2020) and hand labels of long answers of other kinds (``benchmarks/data/
fact_labels_other_kinds*.jsonl``); they ship with the package as data
(``factgraph/_data/judges/<name>.json``: the features, weights, cut-off, what it was fitted on
and its agreement with each data set left out), read here with numpy alone. The cascade's
combination with a text model is fitted on the default's P (:data:`CASCADE_CALIBRATION`;
``python -m benchmarks.fact_judge_model --fit``). ``evidence-v2``, fitted on REALSumm alone,
stays shipped with the combination first fitted on its P.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from factgraph.errors import UserInputError

DEFAULT_CALIBRATION = "evidence-v3"
# the calibration the text model's combination (``Calibration.model``) was fitted on: the
# cascade reads it
CASCADE_CALIBRATION = "evidence-v3"


def logit(p: np.ndarray | float, eps: float = 1e-4) -> np.ndarray:
    """``log(p / (1 - p))``, ``p`` clipped to ``[eps, 1 - eps]``."""
    q = np.clip(np.asarray(p, dtype=float), eps, 1.0 - eps)
    return np.log(q / (1.0 - q))


@dataclass(frozen=True)
class ModelCombination:
    """How a text model's one-token answer joins the cheap evidence, for the facts it is asked
    about: ``P = σ(b + w_cheap·logit(P_cheap) + w_yes·logit(P(yes)) + w_no·logit(P(no)))``,
    fitted on people's labels with the model named in ``fitted_with`` (another model's
    probabilities may sit elsewhere: refit with ``python -m benchmarks.fact_judge_model``)."""

    weights: tuple[float, float, float]  # cheap, yes, no
    intercept: float
    band: tuple[float, float]  # the cheap P band the model is asked in: [low, high)
    fitted_with: str
    card: dict[str, Any]

    def probability(self, p_cheap: np.ndarray, p_yes: np.ndarray, p_no: np.ndarray
                    ) -> np.ndarray:
        z = (self.intercept + self.weights[0] * logit(p_cheap)
             + self.weights[1] * logit(p_yes) + self.weights[2] * logit(p_no))
        return np.asarray(1.0 / (1.0 + np.exp(-z)))

    def to_json(self) -> dict[str, Any]:
        return {"features": ["logit_cheap", "logit_yes", "logit_no"],
                "weights": list(self.weights), "intercept": self.intercept,
                "band": list(self.band), "fitted_with": self.fitted_with, "card": self.card}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ModelCombination:
        w = [float(v) for v in data["weights"]]
        low, high = (float(v) for v in data["band"])
        return cls(weights=(w[0], w[1], w[2]), intercept=float(data["intercept"]),
                   band=(low, high), fitted_with=str(data["fitted_with"]),
                   card=data.get("card", {}))


@dataclass(frozen=True)
class Calibration:
    """A fitted logistic model: feature names, weights, intercept, and its card fields; with
    ``model``, how a text model's answer joins it (:class:`ModelCombination`)."""

    name: str
    features: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float
    cutoff: float
    fitted_on: str
    card: dict[str, Any]
    model: ModelCombination | None = None

    def probability(self, x: np.ndarray) -> np.ndarray:
        """``P(stated)`` for each row of ``x`` (n × features)."""
        z = np.asarray(x, dtype=float) @ np.asarray(self.weights) + self.intercept
        return np.asarray(1.0 / (1.0 + np.exp(-z)))

    def to_json(self) -> dict[str, Any]:
        out = {"name": self.name, "features": list(self.features),
               "weights": list(self.weights), "intercept": self.intercept,
               "cutoff": self.cutoff, "fitted_on": self.fitted_on, "card": self.card}
        if self.model is not None:
            out["model"] = self.model.to_json()
        return out


@cache
def load_calibration(name: str = DEFAULT_CALIBRATION) -> Calibration:
    """The calibration shipped as ``factgraph/_data/judges/<name>.json``."""
    try:
        text = (resources.files("factgraph") / "_data" / "judges" / f"{name}.json").read_text(
            encoding="utf-8")
    except FileNotFoundError:
        raise UserInputError(f"no calibration named {name!r} ships with factgraph") from None
    data = json.loads(text)
    model = data.get("model")
    return Calibration(name=data["name"], features=tuple(data["features"]),
                       weights=tuple(float(w) for w in data["weights"]),
                       intercept=float(data["intercept"]), cutoff=float(data["cutoff"]),
                       fitted_on=data["fitted_on"], card=data.get("card", {}),
                       model=None if model is None else ModelCombination.from_json(model))


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0,
                 sample_weight: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """Weights and intercept maximising the L2-penalised log-likelihood (the intercept is not
    penalised): ``Σ_i s_i [y_i log p_i + (1 − y_i) log(1 − p_i)] − l2/2 ‖w‖²`` (L-BFGS), each
    row weighed by ``sample_weight`` ``s_i`` (1 where not given)."""
    from scipy.optimize import minimize

    xb = np.hstack([np.asarray(x, dtype=float), np.ones((len(x), 1))])
    yv = np.asarray(y, dtype=float)
    sw = np.ones(len(yv)) if sample_weight is None else np.asarray(sample_weight, dtype=float)

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = xb @ w
        # log(1 + e^z) computed stably
        nll = float(np.sum(sw * (np.logaddexp(0.0, z) - yv * z))) + \
            0.5 * l2 * float(w[:-1] @ w[:-1])
        p = 1.0 / (1.0 + np.exp(-z))
        grad = xb.T @ (sw * (p - yv))
        grad[:-1] += l2 * w[:-1]
        return nll, grad

    w = minimize(loss, np.zeros(xb.shape[1]), jac=True, method="L-BFGS-B").x
    return w[:-1], float(w[-1])
