"""The registry of e2e judge kinds: the one place that says which values ``coverage_judge``
takes.

A judge kind is a :class:`JudgeKind`: its name (the value of ``coverage_judge``), its options
model (a :class:`JudgeOptions` whose ``coverage_judge`` field is ``Literal[name]`` with that
default; its other fields become e2e's flat options and CLI flags) and its ``run(inp, session,
options, context_store)`` returning an Evaluation (``options`` is the run's ``E2EOptions``:
e2e's own options and, read flat, the judge's). ``E2EOptions`` validates its ``judge`` by
looking the kind up here, its flat names and fields list every kind's, and ``run_e2e`` runs
the kind's ``run``: a new kind is one module plus one registration.

Where kinds come from, in this order (a later one never replaces an earlier name):

* the built-ins (:data:`BUILTIN_JUDGE_KINDS`: name → ``module:attribute`` of the kind, imported
  when first looked up);
* the ``factgraph.judge_kinds`` entry-point group of every installed distribution;
* :func:`register_judge_kind` (a notebook, a test).

Importing this module imports no judge kind and reads no entry point.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict

from factgraph.errors import UserInputError
from factgraph.methods.registry import EmbeddingNeed
from factgraph.plugins import plugins

if TYPE_CHECKING:
    from factgraph.inputs import EvaluationInput
    from factgraph.methods.context import ContextStore
    from factgraph.models import Evaluation
    from factgraph.stages.session import ModelSession

ENTRY_POINT_GROUP = "factgraph.judge_kinds"

# the built-in kinds, in the order of --coverage-judge's choices and help
BUILTIN_JUDGE_KINDS: dict[str, str] = {
    "auto": "factgraph.methods.e2e.kind_specs:AUTO",
    "list": "factgraph.methods.e2e.kind_specs:LIST",
    "per-fact": "factgraph.methods.e2e.kind_specs:PER_FACT",
    "answers": "factgraph.methods.e2e.kind_specs:ANSWERS",
    "sentences": "factgraph.methods.e2e.kind_specs:SENTENCES",
    "evidence": "factgraph.methods.e2e.kind_specs:EVIDENCE",
}


class JudgeOptions(BaseModel):
    """The options of one judge kind; a kind's model sets ``coverage_judge: Literal["NAME"] =
    "NAME"`` (its tag) and adds its own fields, each with a default and a description."""

    model_config = ConfigDict(extra="forbid")

    if TYPE_CHECKING:  # declared by each kind (its tag); not a field here, so the
        coverage_judge: str  # kinds' fields keep their own order


JudgeRun = Callable[["EvaluationInput", "ModelSession", Any, "ContextStore | None"],
                    "Evaluation"]


@dataclass(frozen=True)
class JudgeKind:
    """One e2e judge kind: ``name`` (``coverage_judge="NAME"``), ``options`` (its model),
    ``run(inp, session, options, context_store)`` → Evaluation (the function, or a
    :func:`~factgraph.plugins.lazy_callable` of it, as the built-ins' in
    :mod:`factgraph.methods.e2e.kind_specs`, so reading the kind imports no stage), and
    ``help``: one phrase for
    ``--coverage-judge``'s help, ending with the name in quotes, e.g. ``"one call listing
    covered / uncovered facts ('list')"``. ``embeddings``: whether the kind needs an embedding
    model (``"none"``, ``"now"``, or ``"lazy"``: only for the inputs that ask for one)."""

    name: str
    options: type[JudgeOptions]
    run: JudgeRun
    help: str = ""
    embeddings: EmbeddingNeed = "none"


def _check(kind: Any, name: str, where: str) -> JudgeKind:
    if not isinstance(kind, JudgeKind):
        raise TypeError(f"judge kind {name!r} from {where}: {kind!r} is not a JudgeKind")
    if kind.name != name:
        raise TypeError(f"judge kind {name!r} from {where} calls itself {kind.name!r}")
    tag = kind.options.model_fields.get("coverage_judge") if (
        isinstance(kind.options, type) and issubclass(kind.options, JudgeOptions)) else None
    if tag is None or tag.default != name:
        raise TypeError(f"judge kind {name!r} from {where}: options must be a JudgeOptions "
                        f"model with coverage_judge: Literal[{name!r}] = {name!r}")
    return kind


class _JudgeKinds:
    """Name → kind: built-ins (loaded on first lookup), entry points, registered ones."""

    def __init__(self, builtins: dict[str, str], group: str) -> None:
        self._builtins = dict(builtins)
        self._group = group
        self._loaded: dict[str, JudgeKind] = {}
        self._declared: dict[str, JudgeKind] | None = None  # entry points; None: not read yet
        self._registered: dict[str, JudgeKind] = {}

    def _entry_points(self) -> dict[str, JudgeKind]:
        if self._declared is None:
            self._declared = {}
            for kind in plugins(self._group, JudgeKind):
                if kind.name not in self._builtins:
                    self._declared.setdefault(kind.name, _check(kind, kind.name,
                                                                f"entry point {self._group}"))
        return self._declared

    def names(self) -> list[str]:
        out = list(self._builtins)
        out += [n for n in self._entry_points() if n not in out]
        return out + [n for n in self._registered if n not in out]

    def find(self, name: str) -> JudgeKind | None:
        if name in self._builtins:
            if name not in self._loaded:
                module, _, attr = self._builtins[name].partition(":")
                kind = getattr(importlib.import_module(module), attr)
                self._loaded[name] = _check(kind, name, self._builtins[name])
            return self._loaded[name]
        declared = self._entry_points()
        return declared[name] if name in declared else self._registered.get(name)

    def register(self, kind: JudgeKind, replace: bool) -> JudgeKind:
        _check(kind, kind.name, "register_judge_kind")
        if kind.name in self.names() and not (replace and kind.name in self._registered):
            raise ValueError(f"judge kind {kind.name!r} already exists")
        self._registered[kind.name] = kind
        return kind

    def unregister(self, name: str) -> None:
        if name not in self._registered:
            raise ValueError(f"judge kind {name!r} was not added with register_judge_kind")
        del self._registered[name]


_KINDS = _JudgeKinds(BUILTIN_JUDGE_KINDS, ENTRY_POINT_GROUP)


class _OptionsByKind(Mapping[str, type[JudgeOptions]]):
    """Kind name → its options model: a live view of the registry."""

    def __getitem__(self, name: str) -> type[JudgeOptions]:
        kind = _KINDS.find(name)
        if kind is None:
            raise KeyError(name)
        return kind.options

    def __iter__(self) -> Iterator[str]:
        return iter(_KINDS.names())

    def __len__(self) -> int:
        return len(_KINDS.names())


JUDGE_OPTIONS: Mapping[str, type[JudgeOptions]] = _OptionsByKind()


def register_judge_kind(kind: JudgeKind, *, replace: bool = False) -> JudgeKind:
    """Add a judge kind from Python (a notebook, a test; ``replace`` only replaces one added
    this way); an installed package uses the ``factgraph.judge_kinds`` entry-point group."""
    return _KINDS.register(kind, replace)


def unregister_judge_kind(name: str) -> None:
    """Remove a kind added with :func:`register_judge_kind`."""
    _KINDS.unregister(name)


def judge_kind_names() -> list[str]:
    """Every kind's name: built-ins first, then entry points, then registered ones."""
    return _KINDS.names()


def judge_kinds() -> dict[str, JudgeKind]:
    """Every kind by name (the built-ins are imported)."""
    return {n: kind for n in _KINDS.names() if (kind := _KINDS.find(n)) is not None}


def find_judge_kind(name: str) -> JudgeKind | None:
    """The kind named ``name``, or None."""
    return _KINDS.find(name)


def get_judge_kind(name: str) -> JudgeKind:
    """The kind named ``name``; a UserInputError (a ValueError) naming the known ones."""
    kind = _KINDS.find(name)
    if kind is None:
        raise UserInputError(f"unknown coverage_judge {name!r}; known: "
                             f"{', '.join(_KINDS.names())}")
    return kind
