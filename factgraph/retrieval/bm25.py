"""BM25 over passages with ``bm25s`` (sparse-matrix BM25, Lucene variant, English stopwords).

Scores of 0 (no query term in the passage) are never returned: such a passage cannot ground a
claim and only costs NLI calls.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from factgraph.errors import UserInputError
from factgraph.retrieval.types import Hit, ranked


def _bm25s() -> Any:
    try:
        import bm25s
    except ImportError:  # pragma: no cover - depends on the environment
        raise UserInputError(
            "BM25 retrieval needs bm25s: pip install 'factgraph[retrieval]'") from None
    # bm25s sets its logger to DEBUG on import and logs every step; keep logs readable.
    logging.getLogger("bm25s").setLevel(logging.WARNING)
    return bm25s


def tokenize(texts: Sequence[str]) -> list[list[str]]:
    """Lower-cased word tokens without English stopwords (the same for passages and queries)."""
    out = _bm25s().tokenize(list(texts), stopwords="en", return_ids=False, show_progress=False)
    return [list(t) for t in out]


class BM25Searcher:
    """A bm25s index over passages ``0..n-1``."""

    def __init__(self, model: Any, n: int) -> None:
        self.model = model
        self.n = n

    @classmethod
    def build(cls, texts: Sequence[str]) -> BM25Searcher:
        tokens = tokenize(texts)
        if not any(tokens):  # bm25s cannot index an empty vocabulary; nothing can match
            return cls(None, 0)
        model = _bm25s().BM25()
        model.index(tokens, show_progress=False)
        return cls(model, len(texts))

    def search(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        if not queries or self.model is None:
            return [[] for _ in queries]
        kk = min(k, self.n)
        docs, scores = self.model.retrieve(tokenize(queries), k=kk, show_progress=False,
                                           n_threads=1)
        out = []
        for row_d, row_s in zip(docs, scores, strict=True):
            pairs = [(int(d), float(s)) for d, s in zip(row_d, row_s, strict=True) if s > 0]
            out.append(ranked(pairs, k))
        return out

    def save(self, folder: Path) -> None:
        if self.model is not None:
            self.model.save(str(folder), show_progress=False)

    @classmethod
    def load(cls, folder: Path, n: int) -> BM25Searcher:
        if not (folder / "params.index.json").exists():
            return cls(None, 0)  # saved from an index with an empty vocabulary
        return cls(_bm25s().BM25.load(str(folder), show_progress=False), n)
