"""Fault tests of the batch runner: SIGKILL at random points, torn lines, signals, resume."""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from factgraph.models import Evaluation
from factgraph.runners.batch import BatchRunner, append_line, repair_and_read_ids

WORKER = Path(__file__).with_name("batch_worker.py")
N_ROWS = 100


def write_inputs(path: Path, n: int = N_ROWS) -> None:
    rng = random.Random(7)
    facts = [f"Fact number {i} holds" for i in range(40)]
    with path.open("w") as f:
        for i in range(n):
            ctx = rng.sample(facts, 6)
            resp = rng.sample(ctx, rng.randint(0, 6))
            f.write(json.dumps({
                "id": f"row-{i:03d}", "query": f"question {i}", "response": ". ".join(resp),
                "documents": [{"id": "d1", "text": ". ".join(ctx[:3])},
                              {"id": "d2", "text": ". ".join(ctx[3:])}],
                "model": f"model-{i % 3}",
            }) + "\n")


def run_worker(inputs: Path, results: Path, latency: float = 0.0) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, str(WORKER), str(inputs), str(results), "--latency", str(latency)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )


def result_ids(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text().splitlines()]


def test_sigkill_at_random_points_then_resume_equals_uninterrupted(tmp_path: Path) -> None:
    inputs = tmp_path / "inputs.jsonl"
    write_inputs(inputs)
    reference = tmp_path / "reference.jsonl"
    assert run_worker(inputs, reference).wait(timeout=120) == 0

    results = tmp_path / "results.jsonl"
    rng = random.Random(1234)
    kills = 0
    while kills < 6:
        before = len(result_ids(results)) if results.exists() else 0
        target = before + rng.randint(1, 12)  # kill once this many results exist, plus jitter
        proc = run_worker(inputs, results, latency=0.01)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            if results.exists() and results.read_bytes().count(b"\n") >= target:
                break
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.05))  # land anywhere: mid-item, mid-write, between items
        if proc.poll() is not None:
            break  # finished before we could kill it
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        kills += 1
    assert kills >= 5, "the run finished too fast to be killed 5 times"
    assert run_worker(inputs, results).wait(timeout=120) == 0
    ids = result_ids(results)
    assert len(ids) == N_ROWS and len(set(ids)) == N_ROWS
    # Byte-identical to the uninterrupted run (latency fields aside, which are wall-clock).
    def normalise(path: Path) -> list[dict]:
        rows = [json.loads(line) for line in path.read_text().splitlines()]
        for r in rows:
            for t in r["traces"]:
                t["latency_s"] = None
        return sorted(rows, key=lambda r: r["id"])
    assert normalise(results) == normalise(reference)


def _ev(i: int) -> Evaluation:
    return Evaluation(id=f"e{i}", method="m", scores={"s": i / 10})


def test_torn_last_line_is_cut_and_redone(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    for i in range(3):
        append_line(path, _ev(i).model_dump_json())
    full = path.read_bytes()
    path.write_bytes(full + _ev(3).model_dump_json().encode()[:25])  # crash mid-line
    ids, repaired = repair_and_read_ids(path)
    assert ids == {"e0", "e1", "e2"} and repaired
    assert path.read_bytes() == full
    summary = BatchRunner(lambda i: _ev(i), path, resume=True).run(
        [(f"e{i}", i) for i in range(5)])
    assert summary.already_done == 3 and summary.ran == 2
    assert result_ids(path) == ["e0", "e1", "e2", "e3", "e4"]


def test_corruption_in_the_middle_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(_ev(0).model_dump_json() + "\n{not json\n" + _ev(1).model_dump_json() + "\n")
    with pytest.raises(ValueError, match=r"r.jsonl:2"):
        repair_and_read_ids(path)


def test_existing_results_need_resume(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    append_line(path, _ev(0).model_dump_json())
    with pytest.raises(FileExistsError, match="--resume"):
        BatchRunner(lambda i: _ev(i), path).run([("e0", 0)])


def test_failing_input_is_recorded_and_retried(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    attempts: dict[int, int] = {}

    def flaky(i: int) -> Evaluation:
        attempts[i] = attempts.get(i, 0) + 1
        if i == 1 and attempts[i] == 1:
            raise RuntimeError("model server went away")
        return _ev(i)

    s1 = BatchRunner(flaky, path, resume=True).run([(f"e{i}", i) for i in range(3)])
    assert (s1.ran, s1.failed) == (2, 1)
    failure = json.loads(path.with_name("r.jsonl.failures.jsonl").read_text().splitlines()[0])
    assert failure["id"] == "e1" and "went away" in failure["error"]
    s2 = BatchRunner(flaky, path, resume=True).run([(f"e{i}", i) for i in range(3)])
    assert (s2.already_done, s2.ran, s2.failed) == (2, 1, 0)
    assert sorted(result_ids(path)) == ["e0", "e1", "e2"]


def test_sigterm_stops_after_running_item(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    import os

    def slow(i: int) -> Evaluation:
        if i == 2:
            os.kill(os.getpid(), signal.SIGTERM)  # arrives while item 2 runs
        return _ev(i)

    s = BatchRunner(slow, path, resume=True).run([(f"e{i}", i) for i in range(6)])
    assert s.stopped_by_signal == "SIGTERM"
    assert result_ids(path) == ["e0", "e1", "e2"]  # item 2 finished, nothing after it


def test_duplicate_input_ids_rejected(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="duplicate input id 'a'"):
        BatchRunner(lambda i: _ev(i), tmp_path / "r.jsonl").run([("a", 0), ("a", 1)])
