"""What a retriever returns, and the contract both retrievers implement."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from pydantic import BaseModel, ConfigDict


class Hit(BaseModel):
    """One retrieved passage: its position in the index, its score and its rank (1-based)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    passage: int
    score: float
    rank: int


class Searcher(Protocol):
    """A built index over passages numbered ``0..n-1``."""

    def search(self, queries: Sequence[str], k: int) -> list[list[Hit]]: ...

    def save(self, folder: Path) -> None: ...


def ranked(pairs: list[tuple[int, float]], k: int) -> list[Hit]:
    """Hits sorted by score (ties: lower passage index first), cut to ``k``. Deterministic."""
    pairs.sort(key=lambda p: (-p[1], p[0]))
    return [Hit(passage=i, score=s, rank=r) for r, (i, s) in enumerate(pairs[:k], 1)]
