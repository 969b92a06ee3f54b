"""The writer's orchestration: order, bounded look-ahead and failures of pipelined writes.

A recording store stands in for the database here (what is tested is the ordering and error
handling of ``push_evaluations``); the writes themselves run against a real FalkorDB in
test_store_falkordb.py.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from itertools import accumulate, pairwise
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from factgraph.models import Evaluation
from factgraph.store.records import context_statement_id, query_id
from factgraph.store.writer import STEPS, PushSummary, RepeatFilter, push_evaluations
from tests.store_support import sample_evaluations

STEP_OF = {step.cypher: step.name for step in STEPS}
KEY_OF = {step.name: step.key for step in STEPS}
ENTAILS = next(step for step in STEPS if step.name == "entails")


def final_state(sent: list[tuple[str, dict[str, Any]]]) -> dict[tuple[Any, ...], Any]:
    """What a MERGE-on-key, last-writer-wins database holds after these rows (brute force)."""
    state: dict[tuple[Any, ...], Any] = {}
    for step, row in sent:
        state[(step, *(row[f] for f in KEY_OF[step]))] = row
    return state


class RecordingStore:
    backend = "recording"

    def __init__(self, fail_at: int | None = None, gate: threading.Event | None = None) -> None:
        self.prepared = 0
        self.written: list[tuple[str, int]] = []
        self.sent_rows: list[tuple[str, dict[str, Any]]] = []  # (step, row) in write order
        self.fail_at = fail_at
        self.gate = gate

    def run(self, cypher: str, params: Mapping[str, Any] | None = None,
            write: bool = False) -> list[dict[str, Any]]:
        raise AssertionError("the writer goes through prepare_write")

    def prepare_write(self, cypher: str,
                      params: Mapping[str, Any] | None = None) -> Callable[[], object]:
        self.prepared += 1
        number = self.prepared
        batch = list((params or {})["rows"])
        rows = len(batch)

        def job() -> None:
            if self.gate is not None:
                self.gate.wait(timeout=10)
            if number == self.fail_at:
                raise ConnectionError(f"server went away at write {number}")
            self.written.append((cypher, rows))
            self.sent_rows.extend((STEP_OF[cypher], row) for row in batch)

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
    order = [step.cypher for step in STEPS]
    idx = [order.index(c) for c, _ in pipe.written]
    assert sum(b < a for a, b in pairwise(idx)) == len(evs) - 1


def test_a_failed_write_stops_later_writes_and_reaches_the_caller() -> None:
    store = RecordingStore(fail_at=5)
    with pytest.raises(ConnectionError, match="write 5"):
        push_evaluations(store, sample_evaluations(), max_rows=1)
    assert len(store.written) == 4  # nothing after the failure was written


@pytest.mark.parametrize("pipeline", [True, False])
def test_the_summary_counts_evaluations_fully_written_before_a_failure(pipeline: bool) -> None:
    """Whatever write fails, the caller's summary says how many evaluations, in input order,
    had every write done: what `db push` reports when the server goes away."""
    evs = sample_evaluations()
    writes_per_evaluation = []
    for ev in evs:
        probe = RecordingStore()
        push_evaluations(probe, [ev], max_rows=1, skip_repeats=False)
        writes_per_evaluation.append(len(probe.written))
    ends = list(accumulate(writes_per_evaluation))  # last write number of each
    for fail_at in range(1, ends[-1] + 1):
        summary = PushSummary()
        with pytest.raises(ConnectionError):
            push_evaluations(RecordingStore(fail_at=fail_at), evs, max_rows=1,
                             skip_repeats=False, pipeline=pipeline, summary=summary)
        assert summary.evaluations == sum(end < fail_at for end in ends), fail_at
    full = PushSummary()
    assert push_evaluations(RecordingStore(), evs, summary=full, pipeline=pipeline) is full
    assert full.evaluations == len(evs)


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


def test_rows_already_written_in_this_push_are_not_sent_again() -> None:
    evs = sample_evaluations()  # three answers to one query: they share its context rows
    plain, once, twice = RecordingStore(), RecordingStore(), RecordingStore()
    a = push_evaluations(plain, evs, skip_repeats=False)
    b = push_evaluations(once, evs)
    c = push_evaluations(twice, evs + evs)
    assert a.repeats_skipped == 0 and a.rows == len(plain.sent_rows)
    assert 0 < b.rows < a.rows and b.rows + b.repeats_skipped == a.rows
    # The second copy of every evaluation repeats the first exactly: nothing more is sent.
    assert c.rows == b.rows and c.repeats_skipped == b.repeats_skipped + a.rows
    assert final_state(once.sent_rows) == final_state(twice.sent_rows) == \
        final_state(plain.sent_rows)
    # What was skipped is the shared context: statement rows of the query's documents.
    sent_context = [r for step, r in once.sent_rows if step == "context_statements"]
    all_context = [r for step, r in plain.sent_rows if step == "context_statements"]
    assert len(sent_context) == len({r["id"] for r in all_context}) < len(all_context)


def test_a_value_that_changes_and_changes_back_is_written_each_time() -> None:
    ev = sample_evaluations()[0]
    rel = next(r for r in ev.graph.relations if r.label.value == "entails"
               and ev.graph.statement(r.src).origin.value == "context"
               and ev.graph.statement(r.dst).origin.value == "context")

    def judged(n: int, probability: float | None) -> Evaluation:
        g = ev.graph.model_copy(update={"relations": [
            x.model_copy(update={"probability": probability}) if x is rel else x
            for x in ev.graph.relations]})
        return ev.model_copy(update={"id": f"{ev.id}-{n}", "graph": g})

    evs = [judged(0, 0.9), judged(1, 0.5), judged(2, 0.9), judged(3, 0.9)]
    skipping, plain = RecordingStore(), RecordingStore()
    push_evaluations(skipping, evs)
    push_evaluations(plain, evs, skip_repeats=False)
    qid = query_id(ev.query or ev.graph.query)
    src, dst = ev.graph.statement(rel.src), ev.graph.statement(rel.dst)
    key = (context_statement_id(qid, src.source_id, src.text),
           context_statement_id(qid, dst.source_id, dst.text))
    pair = [row["probability"] for step, row in skipping.sent_rows
            if step == "entails" and (row["src"], row["dst"]) == key]
    assert pair == [0.9, 0.5, 0.9]  # the fourth (equal to the third) is skipped
    assert final_state(skipping.sent_rows) == final_state(plain.sent_rows)


ROW_VALUES = st.one_of(
    st.none(), st.integers(0, 2), st.sampled_from(["x", "y"]),
    st.lists(st.sampled_from(["p", "q"]), max_size=2),
    st.dictionaries(st.sampled_from(["k", "l"]), st.one_of(st.none(), st.integers(0, 1)),
                    max_size=2),
)


@given(
    st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.sampled_from(["a", "b"]),
                       ROW_VALUES), max_size=40),
    st.integers(1, 5),
    st.lists(st.integers(1, 6), min_size=1, max_size=8),
)
def test_repeat_filter_leaves_what_sending_every_row_leaves(
    rows: list[tuple[str, str, Any]], max_keys: int, cuts: list[int]
) -> None:
    """Brute force: the last value per key after the filtered rows equals the last value
    after all rows, however the rows are split into calls and however small the memory."""
    entails = [{"src": a, "dst": b, "probability": v} for a, b, v in rows]
    kept: list[tuple[str, dict[str, Any]]] = []
    for f in (RepeatFilter(max_keys=max_keys), RepeatFilter()):
        kept = []
        start, i = 0, 0
        while start < len(entails):  # the same rows, fed in chunks of varying size
            end = start + cuts[i % len(cuts)]
            kept += [("entails", r) for r in f.fresh(ENTAILS, entails[start:end])]
            start, i = end, i + 1
        assert final_state(kept) == final_state([("entails", r) for r in entails])
        assert len(f) <= f.max_keys
    # With room for every key, exactly the rows that differ from their key's previous row
    # are kept.
    previous: dict[tuple[str, str], dict[str, Any]] = {}
    changed = []
    for r in entails:
        if previous.get((r["src"], r["dst"])) != r:
            changed.append(("entails", r))
        previous[(r["src"], r["dst"])] = r
    assert kept == changed
