"""Benchmark: ``factgraph batch`` on Ray actors vs the local executor, latency-bound work.

    python -m benchmarks.distributed                      # 80 inputs, 200 ms per request
    python -m benchmarks.distributed --inputs 40 --latency 0.1 --method nli

e2e runs the one-call judge (``--judge e2e-list``), whatever judge ``auto`` picks.
A local OpenAI-compatible fake endpoint (tests/ray_support.py, in its own process) answers
every request after a fixed delay, any number at once, so the work is latency-bound as with a
large judge behind a server. The same inputs run (one Ray instance started here, no
dashboard; after an untimed warm-up, each row the best of ``--repeat`` interleaved runs):

* the local executor with ``--concurrency`` = W x C for W = 1, 2, 4 (the baseline: one
  process, the same total number of requests allowed in flight),
* the Ray executor with W = 1, 2 and 4 actors of ``--concurrency`` C each.

Every run writes a results file; the runs' results are checked equal (sorted by id, latencies
aside). Reported: inputs/s, the ratio to 1 worker and to the local executor, the actors' start
time (not counted in inputs/s), and Ray's overhead per input in ms: (1-worker run time -
local run time at the same concurrency C) / inputs, both one input at a time. Goals (issue
17): >= 1.8x from 1 to 2 workers and >= 3.2x from 1 to 4.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from factgraph.cli.evaluate import build_evaluator
from factgraph.inputs import EvaluationInput
from factgraph.io import read_jsonl
from factgraph.runners.batch import BatchRunner
from factgraph.runners.distributed import EvaluatorRecipe, RayExecutor, query_group
from tests.fake_openai import serve
from tests.pipeline_support import PromptRouter, field
from tests.ray_support import nli_router, normalised_results


def router() -> PromptRouter:
    """nli prompts as in the tests, plus e2e: the response's first sentence covered."""
    r = nli_router()

    def e2e(user: str) -> str:
        first = field(user, "RESPONSE").split(".")[0].strip() + "."
        return json.dumps({"covered": [{"statement": first, "sources": [1]}],
                           "uncovered": [{"statement": "Something else holds.",
                                          "sources": [2]}]})

    r.handlers["e2e"] = e2e
    return r


def serve_forever(latency: float) -> None:
    """The fake endpoint in this process (the child of ``endpoint_process``)."""
    with serve(router(), latency_s=latency) as (url, _):
        print(url, flush=True)
        sys.stdin.read()  # until the parent closes our stdin


@contextmanager
def endpoint_process(latency: float) -> Iterator[str]:
    """The fake endpoint in its own process, as a real server would be: the local executor's
    process then holds the evaluation alone, as a Ray actor does."""
    proc = subprocess.Popen([sys.executable, "-m", "benchmarks.distributed", "--serve",
                             "--latency", str(latency)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        yield proc.stdout.readline().strip()
    finally:
        if proc.stdin:
            proc.stdin.close()
        proc.wait(timeout=30)


def write_inputs(path: Path, n: int, per_query: int) -> None:
    with path.open("w", encoding="utf-8") as f:
        for i in range(n):
            q = i // per_query
            facts = [f"Fact {k} of topic {q} holds" for k in range(3)]
            f.write(json.dumps({
                "id": f"in-{i:04d}", "query": f"What holds for topic {q}?",
                "response": f"{facts[i % 3]}. {facts[(i + 1) % 3]}.",
                "documents": [{"id": "d1", "text": f"{facts[0]}. {facts[1]}."},
                              {"id": "d2", "text": f"{facts[2]}."}]}) + "\n")


def run_once(items: list[tuple[str, EvaluationInput]], out: Path, kw: dict[str, Any],
             workers: int | None) -> dict[str, Any]:
    """One batch run; workers=None is the local executor."""
    executor: RayExecutor[EvaluationInput] | None = None
    if workers is None:
        runner: BatchRunner[EvaluationInput] = BatchRunner(build_evaluator(kw), out,
                                                           handle_signals=False)
    else:
        executor = RayExecutor(EvaluatorRecipe(build=build_evaluator, kwargs=kw), query_group,
                               workers=workers, cpus_per_worker=0.25)
        runner = BatchRunner(None, out, executor=executor, handle_signals=False)
    start = time.perf_counter()
    summary = runner.run(items)
    wall = time.perf_counter() - start
    startup = executor.startup_s if executor is not None else 0.0
    assert summary.ran == len(items) and summary.failed == 0, summary
    return {"wall": wall, "startup": startup, "work": wall - startup}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inputs", type=int, default=80)
    ap.add_argument("--latency", type=float, default=0.2, help="seconds per request")
    ap.add_argument("--method", choices=["e2e", "nli"], default="e2e")
    ap.add_argument("--concurrency", type=int, default=4, help="per worker (C)")
    ap.add_argument("--per-query", type=int, default=1, help="inputs sharing one query")
    ap.add_argument("--repeat", type=int, default=2, help="runs per row; the best is shown")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve_forever(args.latency)
        return
    logging.basicConfig(level=logging.WARNING)
    import ray

    ray.init(num_cpus=max(2, os.cpu_count() or 2), include_dashboard=False,
             logging_level=logging.ERROR, log_to_driver=False)
    with tempfile.TemporaryDirectory() as tmp, \
            endpoint_process(args.latency) as url:
        inputs = Path(tmp) / "inputs.jsonl"
        write_inputs(inputs, args.inputs, args.per_query)
        items = [(x.id, x) for _, x in read_jsonl(inputs, EvaluationInput)]
        # e2e names its judge (the one-call list the fake endpoint answers): the default
        # judge may change, the work measured here must not
        base = {"method": args.method, "model": f"openai:m@{url}", "no_cache": True,
                "judge": "e2e-list" if args.method == "e2e" else None,
                "revise": False if args.method == "nli" else None}
        kw = {k: v for k, v in base.items() if v is not None}
        reference = None
        c = args.concurrency
        configs = [("local", None, c), ("local", None, 2 * c), ("local", None, 4 * c),
                   ("ray", 1, c), ("ray", 2, c), ("ray", 4, c)]
        run_once(items[:8], Path(tmp) / "warm-up.jsonl", {**kw, "concurrency": c}, 2)
        best: dict[tuple[str, int | None, int], dict[str, Any]] = {}
        for rep in range(args.repeat):  # interleaved, so a load spike hits one run, not a row
            for label, workers, conc in configs:
                out = Path(tmp) / f"{label}-{workers}-{conc}-{rep}.jsonl"
                result = run_once(items, out, {**kw, "concurrency": conc}, workers)
                key = (label, workers, conc)
                if key not in best or result["work"] < best[key]["work"]:
                    best[key] = result
                got = normalised_results(out)
                reference = reference or got
                assert got == reference, f"{label} {workers}: results differ from the first run"
        rows = [(label, workers or 0, {**best[(label, workers, conc)], "concurrency": conc})
                for label, workers, conc in configs]
    ray.shutdown()

    local = {r["concurrency"]: r["work"] for label, _, r in rows if label == "local"}
    ray_rows = [(w, r) for label, w, r in rows if label == "ray"]
    one = ray_rows[0][1]["work"]
    overhead_ms = (one - local[c]) / args.inputs * 1000
    print(f"\n{args.inputs} inputs, method {args.method}, {args.latency * 1000:.0f} ms per "
          f"request, best of {args.repeat}; {os.cpu_count()} CPUs "
          f"({platform.processor() or platform.machine()}), load {os.getloadavg()[0]:.1f}\n")
    print("| workers | total concurrency | local s | ray s (+ actors start s) | local inputs/s "
          "| ray inputs/s | ray vs 1 worker | ray vs local |")
    print("|---|---|---|---|---|---|---|---|")
    for workers, r in ray_rows:
        total = workers * c
        print(f"| {workers} | {total} | {local[total]:.2f} | {r['work']:.2f} "
              f"(+{r['startup']:.1f}) | {args.inputs / local[total]:.1f} | "
              f"{args.inputs / r['work']:.1f} | {one / r['work']:.2f}x | "
              f"{local[total] / r['work']:.2f}x |")
    print(f"\nRay overhead per input (1 worker vs local, both at concurrency {c}): "
          f"{overhead_ms:.1f} ms")


if __name__ == "__main__":
    main()
