"""Relevance: a 1-5 rating of how much a statement helps answer the query (Dejl et al. 2025, §3.1,
"relevance filtering"; also used for question refinement, §3.2).

When the engine returns top log-probabilities for the first generated token, the rating is the
probability-weighted mean over the valid score tokens "1".."5":

    r = Σ_k k · p(k) / Σ_k p(k),   k ∈ {1, ..., 5}

(the paper's token-likelihood weighting). Otherwise the first digit of the reply is the rating.
A reply with neither is ``None`` and recorded as a parse failure; callers keep such statements
(a filter must never drop a statement on a guess).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from factgraph.backends.base import Generation, GenerationParams
from factgraph.models import ParseFailure
from factgraph.stages.session import ModelSession

SCORE_TOKENS = ("1", "2", "3", "4", "5")
_DIGIT = re.compile(r"[1-5]")


def score_from_generation(gen: Generation) -> tuple[float | None, str]:
    """``(rating, source)``: source is "probabilities", "parsed" or "failed"."""
    if gen.logprobs:
        first = gen.logprobs[0]
        top = dict(first.top) or {first.token: first.logprob}
        mass = {k: 0.0 for k in SCORE_TOKENS}
        for token, lp in top.items():
            t = token.strip()
            if t in mass:
                mass[t] += math.exp(lp)
        total = sum(mass.values())
        if total > 0:
            return sum(int(k) * p for k, p in mass.items()) / total, "probabilities"
    m = _DIGIT.search(gen.text)
    if m:
        return float(m.group()), "parsed"
    return None, "failed"


def rate_relevance(
    session: ModelSession, query: str, statements: Sequence[str], stage: str = "relevance",
    prompt: str = "relevance", field: str = "statement",
) -> list[float | None]:
    """A relevance rating in [1, 5] per statement (None where the reply was unreadable)."""
    if not statements:
        return []
    p = session.prompt(prompt)
    params = GenerationParams(temperature=0.0, max_tokens=2, top_logprobs=10,
                              seed=session.params.seed)
    gens = session.generate(stage, [p.messages(query=query, **{field: s}) for s in statements],
                            params)
    return read_ratings(session, stage, statements, gens)


def read_ratings(session: ModelSession, stage: str, items: Sequence[str],
                 gens: Sequence[Generation]) -> list[float | None]:
    """One 1-5 rating per reply; an unreadable reply is counted and recorded as a parse
    failure (None), never guessed."""
    out: list[float | None] = []
    for item, gen in zip(items, gens, strict=True):
        score, source = score_from_generation(gen)
        session.count(f"{stage}.{source}")
        if score is None:
            session.failures.append(ParseFailure(stage=stage, item=item[:80],
                                                 error="no rating 1-5 in the reply",
                                                 trace_id=gen.trace.id))
        out.append(score)
    return out


def keep_relevant(scores: Sequence[float | None], threshold: float) -> list[bool]:
    """Which statements pass ``r ≥ T_rel``; an unreadable rating keeps its statement."""
    return [s is None or s >= threshold for s in scores]
