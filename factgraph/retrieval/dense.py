"""Dense retrieval: passages embedded with the session's EmbeddingBackend (L2-normalised rows),
exact inner-product search with numpy (cosine similarity). Exact search is fast enough for
corpora of ~10^5-10^6 passages on one machine and has no recall loss to measure."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from factgraph.backends.base import EmbeddingBackend
from factgraph.retrieval.types import Hit, ranked

EMBED_BATCH = 256
FILE = "embeddings.npy"


def embed(backend: EmbeddingBackend, texts: Sequence[str]) -> np.ndarray:
    """float32 ``(n, d)`` embeddings, computed in batches and re-normalised (cheap, and it
    keeps inner products cosine even for a backend that does not normalise)."""
    parts = [np.asarray(backend.embed(list(texts[i:i + EMBED_BATCH])), dtype=np.float32)
             for i in range(0, len(texts), EMBED_BATCH)]
    if not parts:
        return np.zeros((0, 0), dtype=np.float32)
    m = np.vstack(parts)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    return m / np.where(norms == 0, 1.0, norms)


def model_name(backend: EmbeddingBackend) -> str:
    """The embedding model as it enters the index key."""
    return f"{backend.engine}:{backend.model}"


class DenseSearcher:
    """Exact inner-product search over a matrix of passage embeddings."""

    def __init__(self, matrix: np.ndarray, backend: EmbeddingBackend) -> None:
        self.matrix = matrix
        self.backend = backend

    @classmethod
    def build(cls, texts: Sequence[str], backend: EmbeddingBackend) -> DenseSearcher:
        return cls(embed(backend, texts), backend)

    def search(self, queries: Sequence[str], k: int) -> list[list[Hit]]:
        n = self.matrix.shape[0]
        if not queries or n == 0:
            return [[] for _ in queries]
        q = embed(self.backend, queries)
        scores = q @ self.matrix.T
        kk = min(k, n)
        # argpartition finds the top k in O(n); `ranked` orders them (ties by index).
        top = np.argpartition(-scores, kk - 1, axis=1)[:, :kk]
        return [ranked([(int(i), float(scores[r, i])) for i in top[r]], k)
                for r in range(len(queries))]

    def save(self, folder: Path) -> None:
        np.save(folder / FILE, self.matrix)

    @classmethod
    def load(cls, folder: Path, backend: EmbeddingBackend) -> DenseSearcher:
        return cls(np.load(folder / FILE), backend)
