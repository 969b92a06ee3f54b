"""Idempotent, batched, parameterised writes of Evaluations into a graph store.

Every write is ``UNWIND $rows AS row MERGE ...`` on stable ids (see records.py), so re-pushing
the same results leaves node and relationship counts unchanged. Batches are bounded by row
count *and* by the JSON size of their parameters (FalkorDB's Bolt endpoint fails on requests
over ~4 KiB; big batches also hurt any server's memory).
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any, NamedTuple

from pydantic import BaseModel

from factgraph.models import Evaluation
from factgraph.store.base import GraphStore
from factgraph.store.cypher_files import cypher_path
from factgraph.store.records import evaluation_rows


class WriteStep(NamedTuple):
    """One write of an evaluation's rows: its name, the row fields its MERGE matches on (a row
    equal to the last one written for that key in this push changes nothing: see
    RepeatFilter), and its Cypher."""

    name: str
    key: tuple[str, ...]
    cypher: str


# One statement per step; the only inputs are $rows. Labels and types are fixed here. COVERS and
# MISSES are keyed by evaluation: two methods judging one response keep their own results.
STEPS: list[WriteStep] = [
    WriteStep(
        "queries", ("id",),
        "UNWIND $rows AS row MERGE (q:Query {id: row.id}) SET q.text = row.text"),
    WriteStep(
        "documents", ("id",),
        "UNWIND $rows AS row MATCH (q:Query {id: row.query_id}) "
        "MERGE (d:Document {id: row.id}) "
        "SET d.source_id = row.source_id, d.query_id = row.query_id "
        "MERGE (q)-[:HAS_DOCUMENT]->(d)"),
    WriteStep(
        "responses", ("id",),
        "UNWIND $rows AS row MATCH (q:Query {id: row.query_id}) "
        "MERGE (r:Response {id: row.id}) SET r.model = row.model, r.query_id = row.query_id, "
        "r.response_id = row.response_id MERGE (q)-[:HAS_RESPONSE]->(r)"),
    WriteStep(
        "evaluations", ("id",),
        "UNWIND $rows AS row MATCH (r:Response {id: row.response}) "
        "MERGE (e:Evaluation {id: row.id}) SET e += row.props MERGE (e)-[:EVALUATES]->(r)"),
    WriteStep(
        "context_statements", ("id",),
        "UNWIND $rows AS row MATCH (d:Document {id: row.document}) "
        "MERGE (s:Statement {id: row.id}) SET s += row.props, s.query_id = row.query_id "
        "MERGE (d)-[:STATES]->(s)"),
    WriteStep(
        "response_statements", ("id",),
        "UNWIND $rows AS row MATCH (r:Response {id: row.response}) "
        "MERGE (s:Statement {id: row.id}) SET s += row.props, s.query_id = row.query_id, "
        "s.local_id = row.local_id MERGE (r)-[:STATES]->(s)"),
    WriteStep(
        "entails", ("src", "dst"),
        "UNWIND $rows AS row MATCH (a:Statement {id: row.src}), (b:Statement {id: row.dst}) "
        "MERGE (a)-[x:ENTAILS]->(b) "
        "SET x.probability = row.probability, x.method = row.method"),
    WriteStep(
        "contradicts", ("src", "dst"),
        "UNWIND $rows AS row MATCH (a:Statement {id: row.src}), (b:Statement {id: row.dst}) "
        "MERGE (a)-[x:CONTRADICTS]->(b) "
        "SET x.probability = row.probability, x.method = row.method"),
    WriteStep(
        "covers", ("response", "statement", "evaluation"),
        "UNWIND $rows AS row "
        "MATCH (r:Response {id: row.response}), (s:Statement {id: row.statement}) "
        "MERGE (r)-[x:COVERS {evaluation: row.evaluation}]->(s) SET x.path = row.path"),
    WriteStep(
        "misses", ("response", "statement", "evaluation"),
        "UNWIND $rows AS row "
        "MATCH (r:Response {id: row.response}), (s:Statement {id: row.statement}) "
        "MERGE (r)-[x:MISSES {evaluation: row.evaluation}]->(s) SET x.basis = row.basis"),
]


class PushSummary(BaseModel):
    evaluations: int = 0  # fully written: every write of the evaluation has completed
    batches: int = 0
    rows: int = 0
    repeats_skipped: int = 0


def _frozen(value: Any) -> Any:
    """A hashable stand-in for a row value; maps and lists stay distinct ({} is not [])."""
    if isinstance(value, dict):
        return (dict, tuple((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list | tuple):
        return (list, tuple(_frozen(v) for v in value))
    return value


def _row_hash(row: dict[str, Any]) -> int:
    """Hash of a row; rows compare as Python values (the models fix each field's type)."""
    try:  # flat rows (most relationship rows) hash as they are
        return hash(tuple(row.items()))
    except TypeError:  # statement rows hold a property map, COVERS rows a list of ids
        return hash(_frozen(row))


class RepeatFilter:
    """Drops rows that would leave the database as it is: equal to the last row written for
    the same MERGE key earlier in this push.

    Every response to one query carries that query's context statements and their relations
    (stable ids, see records.py), so a push of k responses per query repeats those rows k
    times; a MERGE of an equal row is a no-op. Only the *last* row per key counts, so a value
    that changes and changes back is written each time (last writer wins, as without the
    filter). Keys and rows are remembered as 64-bit hashes (about 120 bytes a key, so memory
    stays bounded whatever the texts): a changed row is taken for a repeat with probability
    about 2^-64. At most ``max_keys`` keys are remembered; past that the memory is cleared and
    later repeats are simply written again. Assumes no other writer changes the same nodes
    during the push.
    """

    def __init__(self, max_keys: int = 1_000_000) -> None:
        self.max_keys = max_keys
        self._last: dict[int, int] = {}

    def __len__(self) -> int:
        """How many keys are remembered (never more than ``max_keys``)."""
        return len(self._last)

    def fresh(self, step: WriteStep, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The rows of ``step`` that change something, in order."""
        name, fields = step.name, step.key
        last = self._last
        out = []
        for row in rows:
            key = hash((name, *[row[f] for f in fields]))
            digest = _row_hash(row)
            if last.get(key) == digest:
                continue
            if len(last) >= self.max_keys:
                last.clear()
            last[key] = digest
            out.append(row)
        return out


def batches(
    rows: list[dict[str, Any]], max_rows: int, max_bytes: int
) -> Iterator[list[dict[str, Any]]]:
    """Split rows into batches of at most ``max_rows`` rows and about ``max_bytes`` of JSON.

    A single row larger than ``max_bytes`` goes alone in its batch.
    """
    if max_rows < 1:
        raise ValueError("max_rows must be at least 1")
    # Common case first: when the whole step fits the byte bound, cut by rows only (one C-level
    # serialisation instead of one per row).
    if len(json.dumps(rows, ensure_ascii=False).encode("utf-8")) <= max_bytes:
        for start in range(0, len(rows), max_rows):
            yield rows[start:start + max_rows]
        return
    batch: list[dict[str, Any]] = []
    size = 0
    for row in rows:
        n = len(json.dumps(row, ensure_ascii=False).encode("utf-8"))
        if batch and (len(batch) >= max_rows or size + n > max_bytes):
            yield batch
            batch, size = [], 0
        batch.append(row)
        size += n
    if batch:
        yield batch


class _WriteQueue:
    """Writes run in order on one background thread, at most ``depth`` waiting.

    The caller builds and encodes the next batch while the server works on this one (the
    thread waits on a socket, so it does not hold the GIL). The first failure stops all later
    writes and is raised to the caller at its next ``submit`` or at ``close``.
    """

    def __init__(self, depth: int = 4) -> None:
        self._queue: queue.Queue[Callable[[], object] | None] = queue.Queue(maxsize=depth)
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._work, name="factgraph-db-writer",
                                        daemon=True)
        self._thread.start()

    def _work(self) -> None:
        while (job := self._queue.get()) is not None:
            if self._error is None:  # after a failure, drain without writing
                try:
                    job()
                except BaseException as e:  # re-raised on the caller's thread
                    self._error = e

    def submit(self, job: Callable[[], object]) -> None:
        if self._error is not None:
            raise self._error
        self._queue.put(job)

    def close(self, raise_error: bool = True) -> None:
        """Wait for the queued writes; raise the first failure unless told not to (when the
        caller is already raising its own)."""
        self._queue.put(None)
        self._thread.join()
        if raise_error and self._error is not None:
            raise self._error


def _count_written(summary: PushSummary) -> None:
    """A queue job after an evaluation's last write: runs only when every write before it
    succeeded."""
    summary.evaluations += 1


def ensure_schema(store: GraphStore) -> None:
    """Create the store's indexes (its spec's schema: cypher/schema/<backend>.cypher for the
    built-in stores; none for a store without one); idempotent."""
    from factgraph.store.registry import find_store

    spec = find_store(store.backend)
    if spec is None:  # an unregistered store: the schema file of its dialect
        text = cypher_path("schema", f"{store.backend}.cypher").read_text()
    elif spec.schema is None:
        return
    else:
        text = spec.schema()
    for stmt in (s.strip() for s in text.split(";")):
        lines = [ln for ln in stmt.splitlines() if not ln.strip().startswith("//")]
        stmt = "\n".join(lines).strip()
        if not stmt:
            continue
        try:
            store.run(stmt, write=True)
        except Exception as e:  # an existing index is not an error (FalkorDB has no IF NOT EXISTS)
            if "already" not in str(e).lower():
                raise


def push_evaluations(
    store: GraphStore,
    evaluations: Iterable[Evaluation],
    max_rows: int = 500,
    max_bytes: int = 1_000_000,
    pipeline: bool = True,
    skip_repeats: bool = True,
    summary: PushSummary | None = None,
) -> PushSummary:
    """Write evaluations (all steps of one evaluation before the next); returns counts.

    With ``pipeline`` the writes run in order on one background thread while this one builds
    and encodes the next batches (bounded: a few batches wait at most). Without it every
    write completes before the next batch is built. With ``skip_repeats`` a row equal to the
    last one written for its key in this push is not sent again (``RepeatFilter``); the
    database ends up the same either way.

    Pass a ``summary`` to keep the counts when a write fails (the server went away): its
    ``evaluations`` then says how many evaluations were fully written, in input order, before
    the failure; the failure itself is raised unchanged. Every write is a MERGE, so pushing
    the same results again completes the rest.
    """
    summary = summary if summary is not None else PushSummary()
    writes = _WriteQueue() if pipeline else None
    repeats = RepeatFilter() if skip_repeats else None
    try:
        for ev in evaluations:
            rows = evaluation_rows(ev)
            for step in STEPS:
                step_rows = rows[step.name]
                if repeats is not None:
                    step_rows = repeats.fresh(step, step_rows)
                    summary.repeats_skipped += len(rows[step.name]) - len(step_rows)
                for batch in batches(step_rows, max_rows, max_bytes):
                    job = store.prepare_write(step.cypher, {"rows": batch})
                    if writes is None:
                        job()
                    else:
                        writes.submit(job)
                    summary.batches += 1
                    summary.rows += len(batch)
            if writes is None:
                summary.evaluations += 1
            else:  # counted once its writes are done: the queue runs jobs in order
                writes.submit(partial(_count_written, summary))
    except BaseException:
        if writes is not None:
            writes.close(raise_error=False)
        raise
    if writes is not None:
        writes.close()
    return summary
