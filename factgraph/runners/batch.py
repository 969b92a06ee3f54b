"""A resumable batch runner: one JSON line per finished input, nothing lost or duplicated.

Guarantees:

* A result is appended with a single ``write`` of one complete line followed by ``fsync``, so
  after a crash the file holds every finished result plus at most one torn last line.
* On resume the torn tail (bytes after the last newline, or a last line that is not a valid
  result) is cut off and its input redone; ids already in the file are skipped.
* SIGINT / SIGTERM stop the run cleanly after the item that is running.
* An input whose evaluation raises is logged to ``<results>.failures.jsonl`` with the error and
  retried on the next resume; it never produces a half-written result.
* Items are processed in input order, so two runs over the same cache write identical files.
* A model server that is not there ends the run, not each input in turn: an input that fails
  because no server accepted the connection (an error marked ``unreachable``, e.g. by the
  ``openai:`` backend) counts; the run stops at the first such failure when its server was
  never reached, or after ``max_unreachable`` of them in a row when it went away mid-run, and
  raises that error with what was kept. Everything finished stays in the file: ``--resume``
  continues once the server is back.

Who evaluates is pluggable: an :class:`Executor` turns the pending inputs into
:class:`Outcome` s (the default :class:`LocalExecutor` runs them one after another in this
process; ``factgraph.runners.distributed.RayExecutor`` spreads them over Ray actors). The
runner stays the one writer of the results and failure files whatever the executor.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ValidationError

from factgraph.errors import UserInputError
from factgraph.models import Evaluation

log = logging.getLogger(__name__)

T = TypeVar("T")
T_contra = TypeVar("T_contra", contravariant=True)


class BatchSummary(BaseModel):
    """What a batch run did."""

    total: int = 0
    already_done: int = 0
    ran: int = 0
    failed: int = 0
    torn_tail_repaired: bool = False
    stopped_by_signal: str | None = None


def repair_and_read_ids(path: Path) -> tuple[set[str], bool]:
    """Ids of the complete results in ``path``; cuts a torn tail off the file.

    Returns ``(ids, repaired)``; see :func:`repair_and_index`.
    """
    offsets, repaired = repair_and_index(path)
    return set(offsets), repaired


def repair_and_index(path: Path) -> tuple[dict[str, tuple[int, int]], bool]:
    """Where each complete result of ``path`` lies, in one pass that also cuts a torn tail off.

    Returns ``(offsets, repaired)``: id -> (start, length) of its line, so finished results are
    read back one at a time (:func:`read_result`), never all held in memory. A line counts as
    complete when it ends with a newline and parses as an Evaluation. Only the *last* line may
    be incomplete (appends are sequential); an invalid line elsewhere is corruption and raises
    UserInputError (a ValueError) with its line number.
    """
    if not path.exists():
        return {}, False
    data = path.read_bytes()
    offsets: dict[str, tuple[int, int]] = {}
    good_end = 0
    pos = 0
    lineno = 0
    while pos < len(data):
        nl = data.find(b"\n", pos)
        lineno += 1
        if nl == -1:
            break  # torn: no newline at the end
        raw = data[pos:nl]
        try:
            ev = Evaluation.model_validate_json(raw)
        except ValidationError as e:
            if data.find(b"\n", nl + 1) == -1 and not data[nl + 1 :].strip():
                break  # the last line is damaged: treat as torn
            msg = e.errors()[0]["msg"]
            raise UserInputError(f"{path}:{lineno}: not a valid result line: {msg}") from None
        if ev.id in offsets:
            raise UserInputError(f"{path}:{lineno}: duplicate result id {ev.id!r}")
        offsets[ev.id] = (pos, nl + 1 - pos)
        pos = nl + 1
        good_end = pos
    repaired = good_end != len(data)
    if repaired:
        torn = len(data) - good_end
        log.warning("%s: cutting a torn last line (%d bytes) to redo it", path, torn)
        with open(path, "r+b") as f:
            f.truncate(good_end)
            f.flush()
            os.fsync(f.fileno())
    return offsets, repaired


def append_line(path: Path, line: str) -> None:
    """Append one complete line durably (one write, then fsync)."""
    payload = (line.rstrip("\n") + "\n").encode("utf-8")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        view = memoryview(payload)
        while view:
            n = os.write(fd, view)
            view = view[n:]
        os.fsync(fd)
    finally:
        os.close(fd)


class _StopFlag:
    def __init__(self) -> None:
        self.signal_name: str | None = None

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.signal_name = signal.Signals(signum).name
        log.warning("received %s: stopping after the running item", self.signal_name)


@contextmanager
def _stop_on_signals(flag: _StopFlag, enabled: bool) -> Iterator[None]:
    if not enabled:
        yield
        return
    previous = {s: signal.signal(s, flag) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in previous.items():
            signal.signal(s, h)


@dataclass(frozen=True)
class Outcome:
    """What became of one input: its Evaluation, or the error that stopped it."""

    item_id: str
    evaluation: Evaluation | None = None
    error: str | None = None  # "ExceptionType: message", as the failure file records it
    message: str | None = None  # the exception's message alone, as the log prints it
    traceback: str | None = None
    unreachable: bool = False  # no model server accepted the connection
    never_reached: bool = False  # ... found before the backend's first request


def _flag(e: BaseException, name: str) -> bool:
    """Whether ``e`` or an exception it was raised from (its cause or context) carries a true
    attribute ``name`` (the ``unreachable`` marks of backend errors)."""
    seen: set[int] = set()
    cur: BaseException | None = e
    while cur is not None and id(cur) not in seen:
        if getattr(cur, name, False) is True:
            return True
        seen.add(id(cur))
        cur = cur.__cause__ or cur.__context__
    return False


def evaluate_one(evaluate: Callable[[T], Evaluation], item_id: str, item: T) -> Outcome:
    """Run ``evaluate`` on one input; an exception becomes a failed Outcome."""
    try:
        return Outcome(item_id, evaluation=evaluate(item))
    except Exception as e:  # one bad input must not end the batch
        return Outcome(item_id, error=f"{type(e).__name__}: {e}", message=str(e),
                       traceback=traceback.format_exc(limit=5),
                       unreachable=_flag(e, "unreachable"),
                       never_reached=_flag(e, "never_reached"))


class ServerUnreachableError(RuntimeError):
    """A batch stopped because its model server could not be reached (see the module
    docstring); the message names the address, what to start and what was kept."""


class UnreachableWatch:
    """Decides when a run stops for a model server that is not there (pure bookkeeping).

    ``observe`` each outcome in the order they finish; ``stop`` turns true at the first
    unreachable failure when nothing succeeded before it in this run and the server was never
    reached (nothing will work), or after ``max_in_a_row`` unreachable failures in a row
    (the server went away mid-run). Any other outcome resets the count.
    """

    def __init__(self, max_in_a_row: int = 3) -> None:
        if max_in_a_row < 1:
            raise ValueError("max_in_a_row must be at least 1")
        self.max_in_a_row = max_in_a_row
        self.in_a_row = 0
        self.succeeded = False
        self.last: Outcome | None = None  # the unreachable failure that stopped the run
        self.stop = False

    def observe(self, outcome: Outcome) -> None:
        if not outcome.unreachable:
            self.in_a_row = 0
            self.succeeded = self.succeeded or outcome.evaluation is not None
            return
        self.in_a_row += 1
        self.last = outcome
        if self.in_a_row >= self.max_in_a_row or (outcome.never_reached and not self.succeeded):
            self.stop = True


class Executor(Protocol[T_contra]):
    """Evaluates pending inputs and yields one Outcome per input it started, in any order.

    ``stop()`` turns true when the run must end: start no new input, finish (and yield) the
    ones already running. An input must never be yielded twice.
    """

    def execute(self, pending: Sequence[tuple[str, T_contra]],
                stop: Callable[[], bool]) -> Iterator[Outcome]: ...


class LocalExecutor(Generic[T]):
    """One input after another, in input order, in this process."""

    def __init__(self, evaluate: Callable[[T], Evaluation]) -> None:
        self.evaluate = evaluate

    def execute(self, pending: Sequence[tuple[str, T]],
                stop: Callable[[], bool]) -> Iterator[Outcome]:
        for item_id, item in pending:
            if stop():
                return
            yield evaluate_one(self.evaluate, item_id, item)


class BatchRunner(Generic[T]):
    """Runs ``evaluate`` (or an ``executor``) over ``(id, item)`` pairs and appends results to
    a JSONL file."""

    def __init__(
        self,
        evaluate: Callable[[T], Evaluation] | None,
        results_path: str | os.PathLike[str],
        resume: bool = False,
        handle_signals: bool = True,
        progress: bool = False,
        executor: Executor[T] | None = None,
        max_unreachable: int = 3,
    ) -> None:
        if executor is None:
            if evaluate is None:
                raise ValueError("BatchRunner needs evaluate or an executor")
            executor = LocalExecutor(evaluate)
        self.executor: Executor[T] = executor
        self.results_path = Path(results_path)
        self.failures_path = self.results_path.with_name(self.results_path.name + ".failures.jsonl")
        self.resume = resume
        self.handle_signals = handle_signals
        self.progress = progress
        self.max_unreachable = max_unreachable

    def check_fresh(self, resume_hint: str = "--resume") -> None:
        """FileExistsError when the results file already holds results and this run does not
        resume; ``resume_hint`` names how to resume (the CLI flag or the Python argument)."""
        path = self.results_path
        if path.exists() and path.stat().st_size > 0 and not self.resume:
            raise FileExistsError(f"{path} already has results: pass {resume_hint} to continue "
                                  "it, or choose a new file")

    def run(self, items: Iterable[tuple[str, T]]) -> BatchSummary:
        path = self.results_path
        self.check_fresh()
        done, repaired = repair_and_read_ids(path)
        summary = BatchSummary(already_done=len(done), torn_tail_repaired=repaired)
        todo = list(items)
        summary.total = len(todo)
        seen: set[str] = set()
        for item_id, _ in todo:
            if item_id in seen:
                raise UserInputError(f"duplicate input id {item_id!r}")
            seen.add(item_id)
        flag = _StopFlag()
        watch = UnreachableWatch(self.max_unreachable)
        pending = [(i, x) for i, x in todo if i not in done]
        with (
            _stop_on_signals(flag, self.handle_signals),
            _progress(self.progress, len(pending)) as tick,
        ):
            for outcome in self.executor.execute(
                    pending, lambda: flag.signal_name is not None or watch.stop):
                self._record(outcome, summary)
                watch.observe(outcome)
                tick()
            if flag.signal_name:
                summary.stopped_by_signal = flag.signal_name
        if watch.stop and watch.last is not None:
            raise ServerUnreachableError(self._unreachable_line(watch, summary, len(pending)))
        return summary

    def _unreachable_line(self, watch: UnreachableWatch, summary: BatchSummary,
                          n_pending: int) -> str:
        """The one line a run stopped for an unreachable server ends with."""
        assert watch.last is not None
        left = n_pending - summary.ran - summary.failed
        kept = (f"{summary.ran} evaluated in this run and {summary.already_done} before are "
                f"kept in {self.results_path}" if summary.ran or summary.already_done
                else "nothing was evaluated")
        why = ("" if watch.last.never_reached else
               f" ({watch.in_a_row} inputs in a row could not reach it)")
        return (f"stopped{why}: {watch.last.message}; {kept}, {left} not started; run again "
                "with --resume once the server answers")

    def stream(self, items: Iterable[tuple[str, T]],
               total: int | None = None) -> Iterator[Evaluation]:
        """The run one input at a time, as the caller asks: yields each input's Evaluation in
        input order, read back from the results file when a run before finished it, else
        evaluated and appended; an input that fails is recorded in the failures file and
        yields nothing. ``items`` are read one by one as the generator advances (nothing is
        evaluated ahead of the caller); ``total`` sizes the progress bar. The caller owns the
        loop, so no signal handling and no unreachable-server stop: closing the generator
        stops the run (``factgraph.evaluate_many(..., results=...)``)."""
        path = self.results_path
        self.check_fresh()
        offsets, repaired = repair_and_index(path)
        summary = BatchSummary(already_done=len(offsets), torn_tail_repaired=repaired)
        seen: set[str] = set()
        with progress_bar(self.progress, total) as tick:
            for item_id, item in items:
                if item_id in seen:
                    raise UserInputError(f"duplicate input id {item_id!r}")
                seen.add(item_id)
                summary.total += 1
                if item_id in offsets:
                    yield read_result(path, *offsets[item_id])
                else:
                    for outcome in self.executor.execute([(item_id, item)], lambda: False):
                        ev = self._record(outcome, summary)
                        if ev is not None:
                            yield ev
                tick()

    def _record(self, outcome: Outcome, summary: BatchSummary) -> Evaluation | None:
        """Append one outcome: a result line, or a failure line (the single writer). Returns
        the Evaluation written (its id the input's), None for a failure."""
        item_id, ev = outcome.item_id, outcome.evaluation
        if ev is None:
            summary.failed += 1
            # An unreachable server ends the run with one line of its own (see run).
            log.log(logging.INFO if outcome.unreachable else logging.ERROR,
                    "input %s failed: %s", item_id, outcome.message)
            append_line(self.failures_path, json.dumps({
                "id": item_id, "error": outcome.error, "traceback": outcome.traceback,
            }, ensure_ascii=False))
            return None
        if ev.id != item_id:
            ev = ev.model_copy(update={"id": item_id})
        append_line(self.results_path, ev.model_dump_json())
        summary.ran += 1
        return ev


def read_result(path: Path, start: int, length: int) -> Evaluation:
    """The Evaluation on the line at ``start`` (see :func:`repair_and_index`)."""
    with open(path, "rb") as f:
        f.seek(start)
        return Evaluation.model_validate_json(f.read(length))


@contextmanager
def progress_bar(enabled: bool, total: int | None) -> Iterator[Callable[[], Any]]:
    """A transient "evaluating" bar of ``total`` steps (unsized for None); yields the function
    that advances it one step (a no-op when not ``enabled``)."""
    if not enabled:
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(transient=True, console=Console(stderr=True)) as prog:  # stdout: results
        task = prog.add_task("evaluating", total=total)
        yield lambda: prog.advance(task)


@contextmanager
def _progress(enabled: bool, total: int | None) -> Iterator[Callable[[], Any]]:
    """The runner's bar: none for an empty run."""
    with progress_bar(enabled and total != 0, total) as tick:
        yield tick
