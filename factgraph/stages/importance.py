"""Importance of reference facts: relevance and salience ratings, and the reference set F*(q)
(Jafari et al. 2026, §3.2.3).

Each fact gets two 1-5 ratings from the model (prompt ``importance``, one criterion per call):
relevance ``r`` (how directly it helps answer the query) and salience ``s`` (how central it is
to the query's subject). As in ``factgraph.stages.relevance``, a rating is the
probability-weighted mean over the score tokens "1".."5" when the engine returns
log-probabilities, else the parsed digit. ``imp = α·(r−1)/4 + β·(s−1)/4``
(``factgraph.metrics.factual.importance_weight``). A fact whose rating could not be read has
importance ``None`` (recorded as a parse failure) — it is ranked last and never dropped on a
guess.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from factgraph.backends.base import GenerationParams
from factgraph.metrics.factual import importance_weight
from factgraph.stages.relevance import read_ratings
from factgraph.stages.session import ModelSession

Criterion = Literal["relevance", "salience"]


def rate(session: ModelSession, query: str, statements: Sequence[str],
         criterion: Criterion) -> list[float | None]:
    """A 1-5 rating per statement under ``criterion`` (None where unreadable)."""
    if not statements:
        return []
    stage = f"importance.{criterion}"
    p = session.prompt("importance")
    params = GenerationParams(temperature=0.0, max_tokens=2, top_logprobs=10,
                              seed=session.params.seed)
    chats = [p.messages(criterion=criterion.upper(), query=query, statement=s)
             for s in statements]
    return read_ratings(session, stage, statements, session.generate(stage, chats, params))


@dataclass(frozen=True)
class Rated:
    relevance: float | None
    salience: float | None
    importance: float | None


def rate_importance(session: ModelSession, query: str, facts: Sequence[str],
                    alpha: float, beta: float) -> list[Rated]:
    """Relevance, salience and importance of each fact."""
    rel = rate(session, query, facts, "relevance")
    sal = rate(session, query, facts, "salience")
    out: list[Rated] = []
    for r, s in zip(rel, sal, strict=True):
        imp = importance_weight(r, s, alpha, beta) if r is not None and s is not None else None
        out.append(Rated(r, s, imp))
    return out


def select_reference(importances: Sequence[float | None], k: int | None = None,
                     threshold: float | None = None) -> list[int]:
    """Indices of F*(q): facts ranked by importance, descending (ties and unknown importance
    keep extraction order, unknown last), then cut to the budget ``k`` and/or to
    ``imp ≥ threshold`` (Jafari et al. 2026, §3.2.3). A fact of unknown importance passes the
    threshold (never dropped on a guess) but is ranked after every known one."""
    if k is not None and k <= 0:
        raise ValueError("k must be positive")
    order = sorted(range(len(importances)),
                   key=lambda i: (importances[i] is None, -(importances[i] or 0.0), i))
    if threshold is not None:
        order = [i for i in order if importances[i] is None or importances[i] >= threshold]  # type: ignore[operator]
    return order[:k] if k is not None else order
