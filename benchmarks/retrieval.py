"""Benchmark: corpus retrieval for ICAT grounding — BM25 (bm25s) and exact dense search
(numpy) against naive pure-Python scans over every passage, in the same run.

    python -m benchmarks.retrieval                      # 2,500 docs -> 12,500 passages
    python -m benchmarks.retrieval --docs 500 --queries 50 --minilm-sample 0   # quick

Corpus: synthetic documents of 512 words drawn from a Zipfian vocabulary (s = 1.1) of 30,000
pseudo-words, chunked like ICAT (128 words, 32 overlap: 5 passages per document). Queries are
claim-like: 8 words taken from a random passage. The dense search uses a deterministic hashed
bag-of-words embedding (384 dims) so that it measures search, not a model; MiniLM embedding
throughput on a sample of passages is reported on its own line (the real dense indexing cost).

Baselines: BM25 — Lucene BM25 (k1 = 1.5, b = 0.75, same idf as bm25s) computed by a Python loop
over every passage's term counts; dense — a Python loop of cosine similarities over every
passage. Agreement = mean overlap of the top-10 sets of fast and baseline search.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import time
from collections import Counter
from collections.abc import Sequence

import numpy as np

from factgraph.inputs import Document
from factgraph.retrieval.bm25 import BM25Searcher, tokenize
from factgraph.retrieval.chunking import chunk_documents
from factgraph.retrieval.dense import DenseSearcher, embed

K = 10


class HashedEmbeddings:
    """Hashed bag-of-words vectors: deterministic, model-free, 384 dims like MiniLM."""

    engine, model = "bench", "hashed-bow-384"

    def __init__(self, dim: int = 384) -> None:
        self.dim = dim
        self._slot: dict[str, int] = {}

    def _index(self, w: str) -> int:
        if w not in self._slot:
            self._slot[w] = int(hashlib.md5(w.encode()).hexdigest()[:8], 16) % self.dim
        return self._slot[w]

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        m = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.split():
                m[i, self._index(w)] += 1.0
        return m


def synthetic(n_docs: int, n_queries: int, seed: int = 0) -> tuple[list[Document], list[str]]:
    rng = np.random.default_rng(seed)
    vocab = np.array([f"v{i:05d}x" for i in range(30_000)])
    p = 1.0 / np.arange(1, len(vocab) + 1) ** 1.1
    p /= p.sum()
    docs = [Document(id=f"doc{i}", text=" ".join(rng.choice(vocab, 512, p=p)))
            for i in range(n_docs)]
    queries = []
    for _ in range(n_queries):
        words = docs[int(rng.integers(n_docs))].text.split()
        s = int(rng.integers(0, len(words) - 8))
        queries.append(" ".join(words[s:s + 8]))
    return docs, queries


def timed(fn, *args):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = fn(*args)
    return out, time.perf_counter() - t


# -- baselines ---------------------------------------------------------------------------------

def naive_bm25_index(texts: Sequence[str]) -> tuple[list[Counter[str]], dict[str, float], float]:
    tf = [Counter(t) for t in tokenize(texts)]
    df: Counter[str] = Counter()
    for c in tf:
        df.update(c.keys())
    n = len(tf)
    idf = {w: math.log(1 + (n - d + 0.5) / (d + 0.5)) for w, d in df.items()}
    avgdl = sum(sum(c.values()) for c in tf) / n
    return tf, idf, avgdl


def naive_bm25_search(index: tuple[list[Counter[str]], dict[str, float], float],
                      queries: Sequence[str], k1: float = 1.5, b: float = 0.75) -> list[list[int]]:
    tf, idf, avgdl = index
    out = []
    for q in tokenize(queries):
        scores = []
        for i, c in enumerate(tf):
            dl = sum(c.values())
            s = 0.0
            for w in q:
                f = c.get(w, 0)
                if f:
                    s += idf[w] * f / (f + k1 * (1 - b + b * dl / avgdl))
            if s > 0:
                scores.append((s, i))
        scores.sort(key=lambda x: (-x[0], x[1]))
        out.append([i for _, i in scores[:K]])
    return out


def naive_dense_search(rows: list[list[float]], qrows: list[list[float]]) -> list[list[int]]:
    out = []
    for q in qrows:
        scores = [(sum(a * b for a, b in zip(q, r, strict=True)), i) for i, r in enumerate(rows)]
        scores.sort(key=lambda x: (-x[0], x[1]))
        out.append([i for _, i in scores[:K]])
    return out


def agreement(fast: list[list[int]], slow: list[list[int]]) -> float:
    return float(np.mean([len(set(a) & set(b)) / max(len(b), 1)
                          for a, b in zip(fast, slow, strict=True)]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=int, default=2500)
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--baseline-queries", type=int, default=20,
                    help="Queries the naive scans run (they are slow).")
    ap.add_argument("--minilm-sample", type=int, default=256,
                    help="Passages to embed with MiniLM for its throughput (0: skip).")
    args = ap.parse_args()

    docs, queries = synthetic(args.docs, args.queries)
    passages, t_chunk = timed(chunk_documents, docs)
    texts = [p.premise for p in passages]
    nb = args.baseline_queries
    print(f"{len(docs):,} documents -> {len(passages):,} passages "
          f"(chunked in {t_chunk:.2f} s); {len(queries)} queries, {nb} for the baselines")

    rows = []
    # BM25
    bm25, t_idx = timed(BM25Searcher.build, texts)
    hits, t_q = timed(bm25.search, queries, K)
    naive, t_nidx = timed(naive_bm25_index, texts)
    slow, t_nq = timed(naive_bm25_search, naive, queries[:nb])
    agree = agreement([[h.passage for h in hs] for hs in hits[:nb]], slow)
    rows.append(("BM25 (bm25s)", len(texts) / t_idx, len(queries) / t_q,
                 len(texts) / t_nidx, nb / t_nq, agree))
    # Dense (hashed embeddings: search cost only)
    emb = HashedEmbeddings()
    dense, t_didx = timed(DenseSearcher.build, texts, emb)
    dhits, t_dq = timed(dense.search, queries, K)
    t0 = time.perf_counter()
    matrix = embed(emb, texts)  # the baseline embeds the same way, then scans Python lists
    py_rows = matrix.tolist()
    t_dnidx = time.perf_counter() - t0
    qrows = embed(emb, queries[:nb]).tolist()
    dslow, t_dnq = timed(naive_dense_search, py_rows, qrows)
    dagree = agreement([[h.passage for h in hs] for hs in dhits[:nb]], dslow)
    rows.append(("dense exact (numpy)", len(texts) / t_didx, len(queries) / t_dq,
                 len(texts) / t_dnidx, nb / t_dnq, dagree))

    print()
    print("| retriever | index passages/s | queries/s | baseline index passages/s | "
          "baseline queries/s | query speed-up | top-10 agreement |")
    print("|---|---|---|---|---|---|---|")
    for name, ip, qp, bip, bqp, ag in rows:
        print(f"| {name} | {ip:,.0f} | {qp:,.0f} | {bip:,.0f} | {bqp:,.2f} | "
              f"{qp / bqp:,.0f}x | {ag:.3f} |")

    if args.minilm_sample:
        from factgraph.backends.factory import load_embedding_backend

        model = load_embedding_backend("minilm")
        sample = texts[:args.minilm_sample]
        embed(model, sample[:8])  # warm-up
        _, t_m = timed(embed, model, sample)
        _, t_mq = timed(embed, model, queries[:args.minilm_sample])
        print(f"\nMiniLM-L6 (CPU) embedding: {len(sample) / t_m:,.0f} passages/s, "
              f"{min(len(queries), args.minilm_sample) / t_mq:,.0f} queries/s "
              f"-> indexing {len(texts):,} passages ≈ {len(texts) / (len(sample) / t_m):,.0f} s")


if __name__ == "__main__":
    main()
