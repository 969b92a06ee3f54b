"""What a judge cost: distinct model calls, generated tokens and model seconds."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from factgraph.models import Evaluation


class Cost(BaseModel):
    """Model work per item (an answer, or an instance of two answers)."""

    items: int
    calls: float
    generated_tokens: float
    model_seconds: float


def cost_per_item(evaluations: Iterable[Evaluation], items: int) -> Cost:
    """Sums over the distinct model-call traces of ``evaluations`` divided by ``items``: work
    shared by several evaluations (context facts read once per query) is counted once, and a
    call answered from the cache counts with the latency it had when it was first made."""
    seen: dict[str, Any] = {}
    for ev in evaluations:
        for t in ev.traces:
            seen.setdefault(t.id, t)
    n = max(items, 1)
    tokens = sum(t.usage.get("completion_tokens", 0) for t in seen.values())
    seconds = sum(t.latency_s or 0.0 for t in seen.values())
    return Cost(items=items, calls=len(seen) / n, generated_tokens=tokens / n,
                model_seconds=seconds / n)
