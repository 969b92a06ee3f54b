"""Benchmark: restarting `factgraph db serve` on a data directory against the data pushed.

    python -m benchmarks.db_restart                 # 1x, 2x, 4x the db_load graph (~6 min)
    python -m benchmarks.db_restart --push-rounds 3 # what the write log costs a push
    python -m benchmarks.db_restart --queries 5     # quick

For each size (1x, 2x, 4x ``--queries`` queries of the db_load benchmark's synthetic
evaluations: 3 models, 400 context statements each) it starts a local FalkorDB on a fresh data
directory, pushes, and then restarts it three ways:

- **clean stop** (the default server): the stop compacts the append-only log into a snapshot;
- **killed** (SIGKILL right after the push): the next start replays whatever the automatic
  compaction had not yet folded into the snapshot;
- **log never compacted** (the server's old settings, the baseline; up to ``--old-upto``x,
  because its replay grows with the square of the data): every logged write is replayed.

Each row gives the seconds until the server answers queries (as `db serve` waits for it), the
load time the server itself logs, the log's size on disk, and the ratio to the same way's 1x
restart. Every restart is checked to hold the pushed graph (node and relationship counts).
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from benchmarks.db_load import synthetic_evaluations
from factgraph.store.falkordb_store import FalkorDBStore
from factgraph.store.server import AOF_DIR, FalkorDBServer
from factgraph.store.writer import ensure_schema, push_evaluations


class UncompactedServer(FalkorDBServer):
    """The server as `db serve` ran it before: AOF on, never compacted by us, no snapshot."""

    def command(self) -> list[str]:
        cmd = super().command()
        for flag in ("--auto-aof-rewrite-percentage", "--auto-aof-rewrite-min-size"):
            i = cmd.index(flag)
            del cmd[i:i + 2]
        return [*cmd, "--auto-aof-rewrite-min-size", "64mb"]  # redis's default

    def start(self, *args: object, **kwargs: object) -> FalkorDBServer:
        self._log_bytes = lambda: 0  # type: ignore[method-assign]  # no compaction at start
        return super().start(*args, **kwargs)  # type: ignore[arg-type]

    def stop(self, compact: bool = True, timeout_s: float = 30.0) -> None:
        super().stop(compact=False, timeout_s=timeout_s)


def graph_counts(url: str) -> tuple[int, int]:
    store = FalkorDBStore(url)
    try:
        nodes = store.run("MATCH (n) RETURN count(n) AS c")[0]["c"]
        rels = store.run("MATCH ()-[r]->() RETURN count(r) AS c")[0]["c"]
        return int(nodes), int(rels)
    finally:
        store.close()


def logged_load_seconds(log: Path | None) -> float | None:
    """The last 'DB loaded from ...: X seconds' line of the server's log."""
    if log is None or not log.is_file():
        return None
    found = re.findall(r"DB loaded from [^:]*: ([0-9.]+) seconds", log.read_text(errors="replace"))
    return float(found[-1]) if found else None


def disk_mb(data_dir: Path) -> float:
    return sum(p.stat().st_size for p in (data_dir / AOF_DIR).glob("*")) / 1e6


def restart(cls: type[FalkorDBServer], data_dir: Path,
            expected: tuple[int, int]) -> tuple[float, float]:
    """Seconds until the restarted server answers, and its own logged load time."""
    server = cls(data_dir=data_dir)
    t = time.perf_counter()
    server.start(timeout_s=1800)
    seconds = time.perf_counter() - t
    try:
        got = graph_counts(server.url)
        if got != expected:
            raise AssertionError(f"restart lost data: {got} != {expected}")
        logged = logged_load_seconds(server.log_path)
        return seconds, logged if logged is not None else math.nan
    finally:
        server.stop()


def run_size(way: str, scale: int, queries: int, root: Path,
             restarts: int) -> dict[str, object]:
    cls = UncompactedServer if way == "log never compacted" else FalkorDBServer
    data_dir = root / f"{way.replace(' ', '_')}_{scale}"
    shutil.rmtree(data_dir, ignore_errors=True)
    evs = synthetic_evaluations(queries * scale, 3, 400)
    server = cls(data_dir=data_dir).start()
    store = FalkorDBStore(server.url)
    ensure_schema(store)
    t = time.perf_counter()
    push_evaluations(store, evs)
    push_s = time.perf_counter() - t
    store.close()
    expected = graph_counts(server.url)
    if way == "killed":
        assert server.process is not None
        server.process.kill()
        server.process.wait()
    else:
        server.stop()
    mb = disk_mb(data_dir)
    # The first restart is the one this way is about; after a kill, later restarts follow a
    # clean stop, so only the first counts there. Elsewhere: the median of ``restarts``.
    times = [restart(cls, data_dir, expected)
             for _ in range(1 if way != "clean stop" else restarts)]
    shutil.rmtree(data_dir, ignore_errors=True)
    return {"way": way, "scale": scale, "evaluations": len(evs), "nodes": expected[0],
            "relationships": expected[1], "push_s": push_s, "disk_mb": mb,
            "restart_s": statistics.median(t for t, _ in times),
            "logged_s": statistics.median(x for _, x in times), "runs": len(times)}


def push_seconds(cls: type[FalkorDBServer] | None, queries: int, root: Path) -> float:
    """Seconds to push the 1x graph into a fresh server: without a data directory (cls None),
    or with one under ``cls``'s settings."""
    data_dir = root / "push"
    shutil.rmtree(data_dir, ignore_errors=True)
    server = (cls or FalkorDBServer)(data_dir=data_dir if cls else None).start()
    try:
        store = FalkorDBStore(server.url)
        ensure_schema(store)
        evs = synthetic_evaluations(queries, 3, 400)
        t = time.perf_counter()
        push_evaluations(store, evs)
        seconds = time.perf_counter() - t
        store.close()
    finally:
        server.stop(compact=False)
        shutil.rmtree(data_dir, ignore_errors=True)
    return seconds


def push_table(queries: int, rounds: int) -> None:
    """What the write log and its automatic compaction cost a push (interleaved rounds)."""
    ways: list[tuple[str, type[FalkorDBServer] | None]] = [
        ("no data directory (baseline)", None),
        ("write log, never compacted", UncompactedServer),
        ("write log, compacted on growth (default)", FalkorDBServer),
    ]
    times: dict[str, list[float]] = {label: [] for label, _ in ways}
    with tempfile.TemporaryDirectory(prefix="db_push_") as tmp:
        for _ in range(rounds):
            for label, cls in ways:
                times[label].append(push_seconds(cls, queries, Path(tmp)))
    base = times[ways[0][0]]
    print(f"push of the 1x graph ({queries} queries), median of {rounds} interleaved rounds")
    print("| server | push s | vs baseline (median of per-round ratios) |")
    print("|---|---|---|")
    for label, _ in ways:
        ratios = [t / b for t, b in zip(times[label], base, strict=True)]
        print(f"| {label} | {statistics.median(times[label]):.2f} | "
              f"{statistics.median(ratios):.2f}x |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=int, default=20, help="Queries of the 1x graph.")
    ap.add_argument("--scales", default="1,2,4")
    ap.add_argument("--ways", default="clean stop,killed,log never compacted")
    ap.add_argument("--restarts", type=int, default=3,
                    help="Restarts after a clean stop (median reported).")
    ap.add_argument("--old-upto", type=int, default=0,
                    help="Largest scale for the never-compacted baseline (it grows ~ size^2).")
    ap.add_argument("--push-rounds", type=int, default=0,
                    help="Only compare push times with and without the write log, N rounds.")
    args = ap.parse_args()
    if args.push_rounds:
        push_table(args.queries, args.push_rounds)
        return
    scales = [int(s) for s in args.scales.split(",")]
    rows = []
    with tempfile.TemporaryDirectory(prefix="db_restart_") as tmp:
        for scale in scales:
            for way in args.ways.split(","):
                if way == "log never compacted" and scale > args.old_upto:
                    continue
                rows.append(run_size(way, scale, args.queries, Path(tmp), args.restarts))
    base = {r["way"]: r["restart_s"] for r in rows if r["scale"] == scales[0]}
    print(f"restart of a local FalkorDB on its data directory; 1x = {args.queries} queries x 3 "
          "models x 400 context statements (db_load's graph)")
    base_logged = {r["way"]: r["logged_s"] for r in rows if r["scale"] == scales[0]}
    print("| way | data | evaluations | nodes | relationships | push s | log on disk MB | "
          "restarts | restart s | vs 1x | server's load s | vs 1x |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        way = str(r["way"])
        ratio = float(r["restart_s"]) / float(base[way])  # type: ignore[arg-type]
        logged_ratio = float(r["logged_s"]) / float(base_logged[way])  # type: ignore[arg-type]
        print(f"| {way} | {r['scale']}x | {r['evaluations']} | {r['nodes']:,} | "
              f"{r['relationships']:,} | {r['push_s']:.2f} | {r['disk_mb']:.1f} | "
              f"{r['runs']} | {r['restart_s']:.2f} | {ratio:.2f}x | {r['logged_s']:.3f} | "
              f"{logged_ratio:.2f}x |")


if __name__ == "__main__":
    main()
