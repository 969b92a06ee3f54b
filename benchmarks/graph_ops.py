"""Benchmark: factgraph's coverage + basis vs the reference approach vs one SCC pass.

Synthetic fact graphs shaped like real ones: statements come in documents of ~20, entailment
edges run mostly forward inside a document with a few backward edges (equivalences, i.e.
small SCCs) and a few edges across documents; 10% of statements are response statements.

    python benchmarks/graph_ops.py                 # 1k .. 200k statements / 2M relations
    python benchmarks/graph_ops.py --max-statements 10000 --repeat 3

All times come from the same run; the table reports ratios, not absolute claims.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import time
from collections.abc import Callable
from typing import Any

import networkx as nx
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from factgraph.graph import analyze, coverage_arrays
from factgraph.models import FactGraph, Relation, Statement

SIZES = [(1_000, 10_000), (10_000, 100_000), (50_000, 500_000), (200_000, 2_000_000)]


def synthetic(n: int, m: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Edge arrays (src, dst) and a response mask for a fact-graph-like random graph."""
    rng = np.random.default_rng(seed)
    doc = 20
    src = rng.integers(0, n, size=m)
    step = rng.integers(1, doc, size=m)
    back = rng.random(m) < 0.05  # backward edges close small cycles (equivalences)
    dst = np.where(back, src - step, src + step)
    cross = rng.random(m) < 0.02  # a few edges across documents, forward only
    dst = np.where(cross, src + rng.integers(doc, 10 * doc, size=m), dst)
    keep = (dst >= 0) & (dst < n)
    is_response = rng.random(n) < 0.10
    return src[keep].astype(np.int64), dst[keep].astype(np.int64), is_response


def best_of(fn: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def plain_scc(n: int, src: np.ndarray, dst: np.ndarray) -> None:
    adj = csr_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(n, n))
    connected_components(adj, directed=True, connection="strong")


def networkx_scc(n: int, src: np.ndarray, dst: np.ndarray) -> None:
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from(zip(src.tolist(), dst.tolist(), strict=True))
    for _ in nx.strongly_connected_components(g):
        pass


def _reference_worker(n: int, src: list[int], dst: list[int], resp: list[bool],
                      out: Any) -> None:
    from benchmarks.reference_port import reference_coverage_and_basis

    texts = [f"t{i % 7}" for i in range(n)]
    t = time.perf_counter()
    result = reference_coverage_and_basis(n, list(zip(src, dst, strict=True)), resp, texts)
    out.put((time.perf_counter() - t, result))


def reference_time(n: int, src: np.ndarray, dst: np.ndarray, resp: np.ndarray,
                   cap_s: float) -> tuple[float | None, tuple[int, int, int] | None]:
    """Run the reference port in a child process; None when it exceeds ``cap_s``."""
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=_reference_worker,
                    args=(n, src.tolist(), dst.tolist(), resp.tolist(), q))
    p.start()
    p.join(cap_s)
    if p.is_alive():
        p.kill()
        p.join()
        return None, None
    elapsed, result = q.get()
    return elapsed, result


def pydantic_graph(n: int, src: np.ndarray, dst: np.ndarray, resp: np.ndarray) -> FactGraph:
    return FactGraph(
        statements=[Statement(id=str(i), text=f"t{i % 7}",
                              origin="response" if resp[i] else "context") for i in range(n)],
        relations=[Relation(src=str(a), dst=str(b), label="entails")
                   for a, b in zip(src.tolist(), dst.tolist(), strict=True)],
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-statements", type=int, default=200_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--reference-cap", type=float, default=60.0,
                    help="seconds before the reference port is given up at a size")
    ap.add_argument("--analyze-max", type=int, default=50_000,
                    help="largest size at which to also time analyze() on a pydantic FactGraph")
    args = ap.parse_args()

    rows = []
    reference_done = True
    for n, m in SIZES:
        if n > args.max_statements:
            break
        src, dst, resp = synthetic(n, m)
        ctx = ~resp
        ours = best_of(lambda: coverage_arrays(n, src, dst, resp, ctx), args.repeat)  # noqa: B023
        scc = best_of(lambda: plain_scc(n, src, dst), args.repeat)  # noqa: B023
        nx_scc = best_of(lambda: networkx_scc(n, src, dst), 1)  # noqa: B023
        full = None
        if n <= args.analyze_max:
            g = pydantic_graph(n, src, dst, resp)
            full = best_of(lambda: analyze(g), 1)  # noqa: B023
        ref = None
        if reference_done:
            ref, ref_result = reference_time(n, src, dst, resp, args.reference_cap)
            if ref is None:
                reference_done = False  # larger sizes cannot finish either
            else:
                arr = coverage_arrays(n, src, dst, resp, ctx)
                mine = (int(arr.is_covered.sum()), int((arr.is_context_component
                        & ~arr.is_covered).sum()), int(arr.is_basis.sum()))
                assert ref_result == mine, f"reference {ref_result} != factgraph {mine}"
        rows.append((n, len(src), ours, scc, nx_scc, full, ref))

    header = ("statements", "relations", "factgraph s", "1 SCC pass s", "ratio to SCC",
              "networkx SCC s", "analyze() s", "reference s", "speed-up vs ref")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for n, e, ours, scc, nx_scc, full, ref in rows:
        print("| " + " | ".join([
            f"{n:,}", f"{e:,}", f"{ours:.4f}", f"{scc:.4f}", f"{ours / scc:.2f}x",
            f"{nx_scc:.3f}", "—" if full is None else f"{full:.3f}",
            "—" if ref is None else f"{ref:.2f}", "—" if ref is None else f"{ref / ours:,.0f}x",
        ]) + " |")
    print("\nfactgraph = coverage_arrays (SCC + BFS + basis) on edge arrays; 1 SCC pass = build "
          "the sparse matrix + scipy strong components; analyze() includes reading pydantic "
          "objects; reference = port of the per-node-reachability approach (child process, "
          f"capped at {args.reference_cap:.0f} s; results checked equal to factgraph's).")


if __name__ == "__main__":
    main()
