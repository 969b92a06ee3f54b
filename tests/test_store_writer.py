"""The writer's orchestration: order, bounded look-ahead and failures of pipelined writes.

A recording store stands in for the database here (what is tested is the ordering and error
handling of ``push_evaluations``); the writes themselves run against a real FalkorDB in
test_store_falkordb.py.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from itertools import pairwise
from typing import Any

import pytest

from factgraph.models import Evaluation
from factgraph.store.writer import STEPS, push_evaluations
from tests.store_support import sample_evaluations


class RecordingStore:
    backend = "recording"

    def __init__(self, fail_at: int | None = None, gate: threading.Event | None = None) -> None:
        self.prepared = 0
        self.written: list[tuple[str, int]] = []
        self.fail_at = fail_at
        self.gate = gate

    def run(self, cypher: str, params: Mapping[str, Any] | None = None,
            write: bool = False) -> list[dict[str, Any]]:
        raise AssertionError("the writer goes through prepare_write")

    def prepare_write(self, cypher: str,
                      params: Mapping[str, Any] | None = None) -> Callable[[], object]:
        self.prepared += 1
        number = self.prepared
        rows = len((params or {})["rows"])

        def job() -> None:
            if self.gate is not None:
                self.gate.wait(timeout=10)
            if number == self.fail_at:
                raise ConnectionError(f"server went away at write {number}")
            self.written.append((cypher, rows))

        return job

    def close(self) -> None:
        pass


def test_pipelined_writes_run_in_the_order_of_the_sequential_writer() -> None:
    evs = sample_evaluations()
    seq, pipe = RecordingStore(), RecordingStore()
    a = push_evaluations(seq, evs, max_rows=2, pipeline=False)
    b = push_evaluations(pipe, evs, max_rows=2, pipeline=True)
    assert a == b and a.batches == len(seq.written) > len(evs) * 4
    assert pipe.written == seq.written
    # Steps keep their order within each evaluation (nodes before the edges that match them):
    # the step index only goes back when the next evaluation starts.
    order = [cypher for _, cypher in STEPS]
    idx = [order.index(c) for c, _ in pipe.written]
    assert sum(b < a for a, b in pairwise(idx)) == len(evs) - 1


def test_a_failed_write_stops_later_writes_and_reaches_the_caller() -> None:
    store = RecordingStore(fail_at=5)
    with pytest.raises(ConnectionError, match="write 5"):
        push_evaluations(store, sample_evaluations(), max_rows=1)
    assert len(store.written) == 4  # nothing after the failure was written


def test_a_producer_error_is_not_masked_and_queued_writes_finish() -> None:
    evs = sample_evaluations()

    def stream() -> Iterator[Evaluation]:
        yield evs[0]
        raise RuntimeError("bad line 2 in results.jsonl")

    store = RecordingStore()
    with pytest.raises(RuntimeError, match="bad line 2"):
        push_evaluations(store, stream(), max_rows=1)
    only_first = RecordingStore()
    push_evaluations(only_first, evs[:1], max_rows=1, pipeline=False)
    assert store.written == only_first.written  # the first evaluation is fully written


def test_look_ahead_is_bounded_while_the_server_is_busy() -> None:
    gate = threading.Event()  # the "server" holds every write until released
    store = RecordingStore(gate=gate)
    done = threading.Event()

    def push() -> None:
        push_evaluations(store, sample_evaluations(), max_rows=1)
        done.set()

    t = threading.Thread(target=push)
    t.start()
    try:
        for _ in range(100):  # let the producer run as far ahead as it is allowed to
            if done.wait(0.01):
                break
        ahead = store.prepared
        assert not done.is_set() and not store.written
        assert ahead <= 6  # one write held + a queue of 4 + one waiting to be queued
    finally:
        gate.set()
        t.join(timeout=20)
    assert done.is_set() and len(store.written) == store.prepared > ahead
