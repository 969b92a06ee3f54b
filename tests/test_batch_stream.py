"""``BatchRunner.stream``: the batch runner one input at a time (what ``evaluate_many`` runs
with a results file): results appended as they finish, failures recorded, finished inputs
read back in input order, a torn last line redone, nothing evaluated ahead of the caller."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from factgraph.models import Evaluation
from factgraph.runners.batch import BatchRunner


class Flaky:
    """Evaluates an input named by a string; fails the names in ``fail``."""

    def __init__(self, fail: set[str]) -> None:
        self.fail = fail
        self.calls: list[str] = []

    def __call__(self, name: str) -> Evaluation:
        self.calls.append(name)
        if name in self.fail:
            raise RuntimeError(f"{name} fell over")
        return Evaluation(id="any", method="test", scores={"s": float(len(self.calls))})


def ids(path: Path) -> list[str]:
    return [json.loads(line)["id"] for line in path.read_text(encoding="utf-8").splitlines()]


def test_stream_records_reads_back_and_redoes_a_torn_line(tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    first = Flaky(fail={"b"})
    run = BatchRunner(first, results).stream([(n, n) for n in "abc"], total=3)
    assert next(run).id == "a"
    assert first.calls == ["a"]  # nothing evaluated ahead of the caller
    rest = list(run)
    assert [e.id for e in rest] == ["c"]  # b failed: recorded, not yielded
    assert ids(results) == ["a", "c"]
    failure = json.loads((tmp_path / "r.jsonl.failures.jsonl").read_text(encoding="utf-8"))
    assert failure["id"] == "b" and failure["error"] == "RuntimeError: b fell over"

    with pytest.raises(FileExistsError, match="pass resume=True"):
        BatchRunner(first, results).check_fresh(resume_hint="resume=True")
    with open(results, "ab") as f:
        f.write(b'{"id": "d", "meth')  # a run killed mid-line
    again = Flaky(fail=set())
    got = list(BatchRunner(again, results, resume=True).stream([(n, n) for n in "abcd"]))
    assert [e.id for e in got] == ["a", "b", "c", "d"]  # input order
    assert again.calls == ["b", "d"]  # a and c read back, the torn d redone
    assert ids(results) == ["a", "c", "b", "d"]
    assert got[0].scores == {"s": 1.0} and got[2].scores == {"s": 3.0}  # as first written


def test_stream_refuses_duplicate_ids(tmp_path: Path) -> None:
    run = BatchRunner(Flaky(set()), tmp_path / "r.jsonl").stream([("a", "a"), ("a", "a")])
    assert next(run).id == "a"
    with pytest.raises(ValueError, match="duplicate input id 'a'"):
        next(run)
