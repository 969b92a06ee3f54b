"""``factgraph batch --executor ray`` on a real local Ray instance (2 CPUs) against a real HTTP
OpenAI-compatible endpoint whose replies are scripted (tests/ray_support.py).

Checked: the results equal the local executor's line for line (sorted by id, trace latencies
aside) with the same model calls (context built once per query); a worker actor killed mid-run,
and a driver SIGTERMed (clean stop, exit 130), then SIGKILLed mid-run and resumed, leave every
input exactly once; Ray stays optional (no import by the core or other commands; a missing
extra is one line and exit 2); bad setups (a worker that cannot start, more GPUs than the
cluster has) are one-line errors.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from factgraph.cli.main import cli
from factgraph.inputs import EvaluationInput
from factgraph.io import read_jsonl
from factgraph.runners.batch import BatchRunner
from tests.fake_openai import serve
from tests.ray_support import (
    NLI_ARGS,
    differences,
    nli_router,
    normalised_results,
    write_inputs,
)

ROOT = Path(__file__).resolve().parent.parent
RAY_ARGS = ["--executor", "ray", "--workers", "2", "--cpus-per-worker", "0.5"]


@pytest.fixture(scope="module")
def ray_address() -> Iterator[str]:
    ray = pytest.importorskip("ray", reason="the ray extra is not installed")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    try:
        yield str(ray.get_runtime_context().gcs_address)
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
def endpoint() -> Iterator[tuple[str, Any]]:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    with serve(nli_router(), latency_s=0.01) as served:
        yield served


@pytest.fixture(scope="module")
def inputs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("inputs") / "inputs.jsonl"
    write_inputs(path)  # 12 queries x 4 responses = 48 inputs
    return path


@pytest.fixture(scope="module")
def local_run(inputs: Path, endpoint: tuple[str, Any],
              tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The local executor's results, model calls and summary on the same inputs."""
    url, served = endpoint
    out = tmp_path_factory.mktemp("local") / "results.jsonl"
    before = served.requests
    res = batch(inputs, out, url)
    assert res.exit_code == 0, res.output
    return {"rows": normalised_results(out), "requests": served.requests - before,
            "rows_any_reuse": normalised_results(out, ignore_reuse=True),
            "summary": json.loads(res.output)}


def batch(inputs: Path, out: Path, url: str, *extra: str) -> Any:
    return CliRunner().invoke(cli, ["batch", str(inputs), "-o", str(out), "--model",
                                    f"openai:m@{url}", *NLI_ARGS, "--output", "json", *extra],
                              catch_exceptions=False)


def count_lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def result_ids(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines()]


def test_ray_results_equal_local_ones(ray_address: str, inputs: Path,
                                      endpoint: tuple[str, Any], local_run: dict[str, Any],
                                      tmp_path: Path) -> None:
    url, served = endpoint
    out = tmp_path / "ray.jsonl"
    before = served.requests
    res = batch(inputs, out, url, *RAY_ARGS)
    assert res.exit_code == 0, res.output
    summary = json.loads(res.output)
    assert (summary["ran"], summary["failed"]) == (48, 0)
    assert normalised_results(out) == local_run["rows"]
    # Inputs of one query went to one actor: the context was built once per query, as locally.
    assert served.requests - before == local_run["requests"]
    assert summary["context_reused"] == local_run["summary"]["context_reused"] == 36
    assert not out.with_name("ray.jsonl.failures.jsonl").exists()


def test_actors_spread_over_several_endpoints(ray_address: str, inputs: Path,
                                             local_run: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "ray.jsonl"
    with serve(nli_router()) as (url1, served1), \
            serve(nli_router()) as (url2, served2):
        res = batch(inputs, out, f"{url1},{url2}", *RAY_ARGS)
        assert res.exit_code == 0, res.output
        # each actor talks to its own server; together they answered what one server did
        assert served1.requests > 0 and served2.requests > 0
        assert served1.requests + served2.requests == local_run["requests"]
    assert normalised_results(out) == local_run["rows"]


def test_split_endpoints() -> None:
    from factgraph.runners.distributed import split_endpoints

    assert split_endpoints("openai:m@http://a/v1, http://b/v1") == [
        "openai:m@http://a/v1", "openai:m@http://b/v1"]
    assert split_endpoints("openai:m@http://a/v1") == ["openai:m@http://a/v1"]
    assert split_endpoints("vllm:/models/q") == ["vllm:/models/q"]
    assert split_endpoints(None) == [None]


def test_a_killed_worker_is_replaced_and_every_input_written_once(
        ray_address: str, inputs: Path, endpoint: tuple[str, Any], local_run: dict[str, Any],
        tmp_path: Path) -> None:
    import ray

    from factgraph.cli.evaluate import build_evaluator
    from factgraph.runners.distributed import EvaluatorRecipe, RayExecutor, query_group

    url, _ = endpoint
    kw = {"method": "nli", "model": f"openai:m@{url}", "revise": False, "no_cache": True}
    executor: RayExecutor[EvaluationInput] = RayExecutor(
        EvaluatorRecipe(build=build_evaluator, kwargs=kw), query_group, workers=2,
        cpus_per_worker=0.5, actor_name_prefix=f"fg-kill-test-{os.getpid()}")
    out = tmp_path / "results.jsonl"
    killed = threading.Event()

    def kill_worker_mid_run() -> None:
        deadline = time.monotonic() + 120
        while count_lines(out) < 12 and time.monotonic() < deadline:
            time.sleep(0.01)
        ray.kill(ray.get_actor(f"{executor.actor_name_prefix}-0"), no_restart=False)
        killed.set()

    killer = threading.Thread(target=kill_worker_mid_run, daemon=True)
    killer.start()
    items = [(inp.id, inp) for _, inp in read_jsonl(inputs, EvaluationInput)]
    summary = BatchRunner(None, out, executor=executor, handle_signals=False).run(items)
    killer.join(timeout=5)
    assert killed.is_set()
    assert executor.restarts_seen >= 1, "the kill hit no input in flight"
    assert (summary.ran, summary.failed) == (48, 0)
    ids = result_ids(out)
    assert len(ids) == len(set(ids)) == 48
    got = normalised_results(out, ignore_reuse=True)
    assert got == local_run["rows_any_reuse"], differences(got, local_run["rows_any_reuse"])[:5]


def test_a_sigkilled_driver_resumes_with_every_input_once(
        ray_address: str, inputs: Path, endpoint: tuple[str, Any], local_run: dict[str, Any],
        tmp_path: Path) -> None:
    url, _ = endpoint
    out = tmp_path / "results.jsonl"
    cmd = [sys.executable, "-m", "factgraph", "batch", str(inputs), "-o", str(out), "--resume",
           "--model", f"openai:m@{url}", *NLI_ARGS, *RAY_ARGS, "--ray-address", ray_address,
           "--no-progress"]

    def start_and_wait_for(lines: int) -> subprocess.Popen[str]:
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline and count_lines(out) < lines:
            time.sleep(0.005)
        assert proc.poll() is None, "the run finished before it could be stopped"
        return proc

    # SIGTERM: Ray's own handler must not win; the runner stops, writes what ran, exits 130.
    proc = start_and_wait_for(4)
    proc.send_signal(signal.SIGTERM)
    stdout, _ = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "stopped by SIGTERM" in stdout, stdout
    assert 4 <= count_lines(out) < 48
    # SIGKILL mid-run: inputs in flight on the actors, maybe mid-write.
    proc = start_and_wait_for(count_lines(out) + 12)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    done_before = count_lines(out)
    assert 16 <= done_before < 48
    final = subprocess.run([*cmd, "--output", "json"], cwd=ROOT, capture_output=True,
                           text=True, timeout=180)
    assert final.returncode == 0, final.stderr[-2000:]
    summary = json.loads(final.stdout)
    assert summary["already_done"] == done_before and summary["failed"] == 0
    assert summary["already_done"] + summary["ran"] == 48
    ids = result_ids(out)
    assert len(ids) == len(set(ids)) == 48
    got = normalised_results(out, ignore_reuse=True)
    assert got == local_run["rows_any_reuse"], differences(got, local_run["rows_any_reuse"])[:5]


@pytest.mark.slow
def test_without_an_address_a_local_instance_is_started(inputs: Path, local_run: dict[str, Any],
                                                        endpoint: tuple[str, Any],
                                                        tmp_path: Path) -> None:
    url, _ = endpoint
    out = tmp_path / "results.jsonl"
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    proc = subprocess.run(
        [sys.executable, "-m", "factgraph", "batch", str(inputs), "-o", str(out), "--model",
         f"openai:m@{url}", *NLI_ARGS, "--executor", "ray", "--cpus-per-worker", "0.5",
         "--output", "json"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert json.loads(proc.stdout)["ran"] == 48
    assert normalised_results(out) == local_run["rows"]


def test_a_worker_that_cannot_start_is_a_one_line_error(ray_address: str, inputs: Path,
                                                        tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["batch", str(inputs), "-o", str(tmp_path / "r.jsonl"),
                                   "--model", "nosuchengine:x", "--no-cache", *RAY_ARGS])
    assert res.exit_code == 2, res.output
    assert "nosuchengine" in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_workers_the_cluster_cannot_hold_are_refused(ray_address: str, inputs: Path,
                                                     tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["batch", str(inputs), "-o", str(tmp_path / "r.jsonl"),
                                   "--model", "openai:m@http://127.0.0.1:9/v1", "--executor",
                                   "ray", "--workers", "2", "--gpus-per-worker", "1"])
    assert res.exit_code == 2, res.output
    assert "need 2 GPUs; the Ray cluster has 0" in res.output and "Traceback" not in res.output


def test_ray_flags_need_the_ray_executor(inputs: Path, tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["batch", str(inputs), "-o", str(tmp_path / "r.jsonl"),
                                   "--model", "openai:m@http://127.0.0.1:9/v1", "--workers",
                                   "2"])
    assert res.exit_code == 2 and "--workers needs --executor ray" in res.output
    res = CliRunner().invoke(cli, ["batch", str(inputs), "-o", str(tmp_path / "r.jsonl"),
                                   "--model", "openai:m@http://127.0.0.1:9/v1,http://[::1]:9/v1"])
    assert res.exit_code == 2 and "several endpoints: that needs --executor ray" in res.output


def run_without_ray(code: str) -> subprocess.CompletedProcess[str]:
    """Python with ``import ray`` failing, as on a core install."""
    return subprocess.run([sys.executable, "-c", "import sys; sys.modules['ray'] = None\n" + code],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_missing_ray_extra_is_one_line_and_exit_2(inputs: Path, tmp_path: Path) -> None:
    args = ["batch", str(inputs), "-o", str(tmp_path / "r.jsonl"), "--model",
            "openai:m@http://127.0.0.1:9/v1", "--executor", "ray"]
    proc = run_without_ray(f"from factgraph.cli.main import cli; cli({args!r})")
    assert proc.returncode == 2, proc.stderr
    lines = (proc.stdout + proc.stderr).strip().splitlines()
    assert lines == ["Error: --executor ray needs Ray: pip install 'factgraph[ray]'"]
    assert not (tmp_path / "r.jsonl").exists()


def test_core_and_analyze_do_not_import_ray() -> None:
    code = (
        "import sys, factgraph, factgraph.runners.batch, factgraph.runners.distributed\n"
        "from factgraph.cli.main import cli\n"
        "cli(['analyze', 'examples/wikicontradict_heber.json', '-o', 'json'],"
        " standalone_mode=False)\n"
        "cli(['batch', '--help'], standalone_mode=False)\n"
        "print(sorted(m for m in sys.modules if m == 'ray' or m.startswith('ray.')))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert '"comprehensiveness"' in proc.stdout  # analyze really ran
    assert proc.stdout.strip().splitlines()[-1] == "[]"
