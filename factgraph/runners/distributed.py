"""Batch evaluation on a Ray cluster: actors evaluate, the driver writes.

:class:`RayExecutor` is a :class:`factgraph.runners.batch.Executor`. Each worker is a Ray actor that
builds its evaluator (and so its model backends: a ``vllm:`` model is loaded once per actor,
on the ``num_gpus`` Ray gives it) once and then evaluates many inputs. The driver keeps
``in_flight_per_worker`` inputs queued at each actor and hands the finished ones to
:class:`factgraph.runners.batch.BatchRunner`, which stays the only writer of the results file (one
complete line + fsync each), so ``--resume`` works after a killed driver exactly as it does
locally.

* All inputs of one group (the CLI groups by query and background texts) go to the same actor,
  so the response-independent context part is built once per group, as in a local run.
* An actor that dies is restarted by Ray (``max_restarts=-1``); the inputs it had in flight are
  redone on its replacement (at most ``max_attempts`` times each, then recorded as failures).
  An input's result is written only when the driver receives it, so none is lost or written
  twice.
* Without an address and without a running Ray, ``ray.init()`` starts a local instance sized
  to this machine.

Ray is an optional extra: nothing here imports it at module import time.
"""

from __future__ import annotations

import hashlib
import json
import logging
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from factgraph.errors import UserInputError
from factgraph.inputs import EvaluationInput
from factgraph.models import Evaluation
from factgraph.runners.batch import Outcome, evaluate_one
from factgraph.telemetry import opt_out

log = logging.getLogger(__name__)

T = TypeVar("T")

MISSING_RAY = "--executor ray needs Ray: pip install 'factgraph[ray]'"


class RayUnavailableError(RuntimeError):
    """Ray is not installed (the ``ray`` extra)."""


class WorkerStartError(RuntimeError):
    """A worker actor could not build its evaluator (bad model spec, missing weights, ...)."""


def import_ray() -> Any:
    """The ``ray`` module, or RayUnavailableError naming the extra to install; the usage
    reporting of the clusters this process starts is off (``factgraph.telemetry``)."""
    opt_out("ray")
    try:
        import ray
    except ImportError:
        raise RayUnavailableError(MISSING_RAY) from None
    return ray


def query_group(inp: EvaluationInput) -> str:
    """Inputs with the same query and background texts share one context part."""
    key = json.dumps([inp.query, [(d.id, d.text) for d in inp.documents]], ensure_ascii=False)
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def split_endpoints(spec: str | None) -> list[str | None]:
    """``openai:NAME@URL1,URL2`` → one spec per endpoint; any other spec stays one."""
    if not spec or not spec.startswith("openai:") or "@" not in spec:
        return [spec]
    name, _, urls = spec.partition("@")
    return [f"{name}@{u.strip()}" for u in urls.split(",") if u.strip()] or [spec]


@dataclass(frozen=True)
class EvaluatorRecipe:
    """How a worker builds its evaluator: ``build(kwargs with model = models[index % n])``.

    Picklable (``build`` must be an importable function), so Ray can ship it to every actor;
    actor ``i`` takes endpoint ``i mod n`` of a multi-endpoint ``openai:`` spec.
    """

    build: Callable[[dict[str, Any]], Callable[[Any], Evaluation]]
    kwargs: dict[str, Any]
    models: list[str | None] = field(default_factory=lambda: [None])

    def __call__(self, index: int) -> Callable[[Any], Evaluation]:
        model = self.models[index % len(self.models)]
        return self.build(self.kwargs if model is None else {**self.kwargs, "model": model})


class BatchWorker:
    """The actor class: one evaluator built once, then many inputs."""

    def __init__(self, make_evaluate: Callable[[int], Callable[[Any], Evaluation]],
                 index: int) -> None:
        self.index = index
        self.start_error: str | None = None
        self.evaluate: Callable[[Any], Evaluation] | None = None
        try:
            self.evaluate = make_evaluate(index)
        except BaseException as e:  # reported by ready(), not by a dead actor
            self.start_error = f"{type(e).__name__}: {e}"

    def ready(self) -> str | None:
        """None when the evaluator is built, else why not."""
        return self.start_error

    def evaluate_one(self, item_id: str, item: Any) -> Outcome:
        if self.evaluate is None:
            return Outcome(item_id, error=f"WorkerStartError: {self.start_error}",
                           message=self.start_error)
        return evaluate_one(self.evaluate, item_id, item)

    def context_reused(self) -> int:
        store = getattr(self.evaluate, "context_store", None)
        return int(getattr(store, "hits", 0))


@dataclass
class _Slot:
    """The driver's view of one actor: its groups and the inputs it has in flight."""

    actor: Any
    queue: deque[tuple[str, Any]] = field(default_factory=deque)
    in_flight: int = 0
    recovering_since: float | None = None  # lost an input; waiting for Ray's restart
    gone: bool = False  # not restarted in time: gets no more inputs


class RayExecutor(Generic[T]):
    """Evaluates inputs on ``workers`` Ray actors (see the module docstring)."""

    def __init__(self, make_evaluate: Callable[[int], Callable[[T], Evaluation]],
                 group_of: Callable[[T], str], *, address: str | None = None,
                 workers: int | None = None, gpus_per_worker: float = 0.0,
                 cpus_per_worker: float = 1.0, in_flight_per_worker: int = 2,
                 max_attempts: int = 3, restart_timeout_s: float = 300.0,
                 actor_name_prefix: str | None = None) -> None:
        if workers is not None and workers < 1:
            raise UserInputError("--workers must be at least 1")
        if gpus_per_worker < 0 or cpus_per_worker < 0:
            raise UserInputError("--gpus-per-worker and --cpus-per-worker must not be negative")
        self.make_evaluate = make_evaluate
        self.group_of = group_of
        self.address = address
        self.workers = workers
        self.gpus_per_worker = gpus_per_worker
        self.cpus_per_worker = cpus_per_worker
        self.in_flight_per_worker = max(1, in_flight_per_worker)
        self.max_attempts = max(1, max_attempts)
        self.restart_timeout_s = restart_timeout_s
        self.actor_name_prefix = actor_name_prefix
        self.context_reused = 0  # context parts reused by the actors (after a run)
        self.restarts_seen = 0  # inputs lost with a dying actor (and redone)
        self.startup_s = 0.0  # seconds until every actor had built its evaluator

    # -- the cluster ---------------------------------------------------------------------------
    def _connect(self, ray: Any) -> bool:
        """Connect to (or start) Ray; True when this call started it (and must shut it down)."""
        if ray.is_initialized():
            return False
        # Ray's core installs its own SIGTERM handler (log and exit); keep the batch runner's
        # (stop after the running inputs, write them, exit 130).
        main = threading.current_thread() is threading.main_thread()
        kept = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)} if main else {}
        ray.init(address=self.address, include_dashboard=False, logging_level=logging.WARNING,
                 log_to_driver=False)
        for signum, handler in kept.items():
            if handler is not None:
                signal.signal(signum, handler)
        return True

    def _worker_count(self, ray: Any, groups: int) -> int:
        resources = ray.cluster_resources()
        if self.workers is not None:
            n = min(self.workers, max(1, groups))
            for name, each in (("GPU", self.gpus_per_worker), ("CPU", self.cpus_per_worker)):
                have = resources.get(name, 0)
                if n * each > have:  # the actors would wait for resources forever
                    raise WorkerStartError(
                        f"{n} workers x {each:g} {name} need {n * each:g} {name}s; the Ray "
                        f"cluster has {have:g} (lower --workers or --{name.lower()}s-per-worker)")
            return n
        if self.gpus_per_worker > 0:
            fit = resources.get("GPU", 0) // self.gpus_per_worker
        elif self.cpus_per_worker > 0:
            fit = resources.get("CPU", 1) // self.cpus_per_worker
        else:
            fit = resources.get("CPU", 1)
        return int(max(1, min(fit, groups)))

    def _start_actors(self, ray: Any, n: int) -> list[Any]:
        remote_cls = ray.remote(BatchWorker)
        actors = []
        for i in range(n):
            options: dict[str, Any] = {"num_cpus": self.cpus_per_worker,
                                       "num_gpus": self.gpus_per_worker,
                                       "max_restarts": -1, "max_task_retries": 0}
            if self.actor_name_prefix:
                options["name"] = f"{self.actor_name_prefix}-{i}"
            actors.append(remote_cls.options(**options).remote(self.make_evaluate, i))
        errors = ray.get([a.ready.remote() for a in actors])
        bad = next((e for e in errors if e), None)
        if bad:
            for a in actors:
                ray.kill(a, no_restart=True)
            raise WorkerStartError(f"a batch worker could not start: {bad}")
        return actors

    # -- the run ---------------------------------------------------------------------------------
    def execute(self, pending: Sequence[tuple[str, T]],
                stop: Callable[[], bool]) -> Iterator[Outcome]:
        if not pending:
            return
        ray = import_ray()
        started = self._connect(ray)
        slots: list[_Slot] = []
        try:
            groups: dict[str, list[tuple[str, T]]] = {}
            for item_id, item in pending:
                groups.setdefault(self.group_of(item), []).append((item_id, item))
            unassigned = deque(groups.values())
            n = self._worker_count(ray, len(groups))
            log.info("ray: %d workers for %d inputs in %d groups", n, len(pending), len(groups))
            started_at = time.perf_counter()
            slots = [_Slot(actor=a) for a in self._start_actors(ray, n)]
            self.startup_s = time.perf_counter() - started_at
            yield from self._drive(ray, slots, unassigned, stop)
            self.context_reused = sum(ray.get([s.actor.context_reused.remote() for s in slots]))
        finally:
            for s in slots:
                ray.kill(s.actor, no_restart=True)
            if started:
                ray.shutdown()

    def _drive(self, ray: Any, slots: list[_Slot], unassigned: deque[list[tuple[str, T]]],
               stop: Callable[[], bool]) -> Iterator[Outcome]:
        from ray.exceptions import RayActorError  # died or unavailable: redo on the restart

        in_flight: dict[Any, tuple[int, str, T]] = {}
        probes: dict[Any, int] = {}  # ready() calls to actors being restarted
        attempts: dict[str, int] = {}

        def fill(k: int) -> None:
            slot = slots[k]
            while (slot.in_flight < self.in_flight_per_worker and slot.recovering_since is None
                   and not slot.gone and not stop()):
                if not slot.queue:
                    if not unassigned:
                        return
                    slot.queue.extend(unassigned.popleft())  # a whole group to one actor
                item_id, item = slot.queue.popleft()
                ref = slot.actor.evaluate_one.remote(item_id, item)
                in_flight[ref] = (k, item_id, item)
                slot.in_flight += 1

        def give_up(k: int, why: str) -> Iterator[Outcome]:
            slot = slots[k]
            slot.gone, slot.recovering_since = True, None
            log.error("ray: worker %d is gone (%s)", k, why)
            while slot.queue:
                item_id, _ = slot.queue.popleft()
                yield Outcome(item_id, error=f"WorkerLostError: {why}", message=why)

        for k in range(len(slots)):
            fill(k)
        while in_flight or probes:
            done, _ = ray.wait([*in_flight, *probes], num_returns=1)
            for ref in done:
                if ref in probes:
                    k = probes.pop(ref)
                    try:
                        start_error = ray.get(ref)
                    except RayActorError:  # still restarting: ask again shortly
                        since = slots[k].recovering_since or time.monotonic()
                        if time.monotonic() - since > self.restart_timeout_s:
                            yield from give_up(k, "not restarted after "
                                                  f"{self.restart_timeout_s:.0f} s")
                            continue
                        time.sleep(0.05)
                        probes[slots[k].actor.ready.remote()] = k
                        continue
                    if start_error:
                        yield from give_up(k, f"restarted but could not start: {start_error}")
                        continue
                    log.info("ray: worker %d is back", k)
                    slots[k].recovering_since = None
                    fill(k)
                    continue
                k, item_id, item = in_flight.pop(ref)
                slot = slots[k]
                slot.in_flight -= 1
                try:
                    outcome: Outcome = ray.get(ref)
                except RayActorError as e:
                    attempts[item_id] = attempts.get(item_id, 0) + 1
                    self.restarts_seen += 1
                    if attempts[item_id] < self.max_attempts:
                        log.warning("ray: worker %d lost input %s (%s); redoing it", k, item_id,
                                    type(e).__name__)
                        slot.queue.appendleft((item_id, item))
                    else:
                        why = f"the worker died {attempts[item_id]} times on this input"
                        yield Outcome(item_id, error=f"WorkerLostError: {why}", message=why)
                    if slot.recovering_since is None and not slot.gone:
                        slot.recovering_since = time.monotonic()
                        probes[slot.actor.ready.remote()] = k
                    continue
                yield outcome
                fill(k)
        if not stop():  # every worker gone with inputs left: say so (redone on --resume)
            for item_id, _ in [*(x for g in unassigned for x in g),
                               *(x for s in slots for x in s.queue)]:
                why = "no batch worker was left to run it"
                yield Outcome(item_id, error=f"WorkerLostError: {why}", message=why)


def executor_for_cli(build: Callable[[dict[str, Any]], Callable[[Any], Evaluation]],
                     kwargs: dict[str, Any], *, address: str | None, workers: int | None,
                     gpus_per_worker: float | None, cpus_per_worker: float | None,
                     ) -> RayExecutor[EvaluationInput]:
    """The ``factgraph batch --executor ray`` executor: actors build ``build(kwargs)`` with the
    model spec's endpoints spread over them, inputs grouped by query and texts.

    Raises RayUnavailableError (naming the extra) before anything else when Ray is missing.
    """
    import_ray()
    recipe = EvaluatorRecipe(build=build, kwargs=dict(kwargs),
                             models=split_endpoints(kwargs.get("model")))
    return RayExecutor(recipe, query_group, address=address, workers=workers,
                       gpus_per_worker=gpus_per_worker or 0.0,
                       cpus_per_worker=1.0 if cpus_per_worker is None else cpus_per_worker)
