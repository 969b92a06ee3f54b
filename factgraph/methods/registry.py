"""The method registry: the one place that says which evaluation methods exist.

A method is a :class:`Method`: a name, a typed options model (pydantic; its fields *are* the
method's options — the config's flat names, the CLI's flags and their help all come from
them), a ``run(inp, session, options)`` function returning an Evaluation, and what it needs
and offers (``needs_response``, ``meta_evaluable``, ``main_score``). :class:`MethodSpec` is the
plain dataclass that satisfies it.

Where methods come from, in this order (a later one never replaces an earlier name):

* the built-ins below (:data:`BUILTIN_METHODS`: name → ``module:attribute`` of the spec,
  imported when the method is first used; each spec module holds the options and the spec,
  whose ``run`` imports the run code on the first call);
* the ``factgraph.methods`` entry-point group of every installed distribution — a package
  outside factgraph adds a method with one line of its ``pyproject.toml``::

      [project.entry-points."factgraph.methods"]
      exact-match = "my_package.exact_match:METHOD"

* :func:`register_method` (a notebook, a test).

Discovery is lazy: importing this module imports no method and reads no entry point; the
first lookup does. ``METHODS`` is the registry as a read-only mapping (name → spec).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from factgraph.errors import UserInputError
from factgraph.plugins import PluginRegistry

if TYPE_CHECKING:
    from factgraph.inputs import EvaluationInput
    from factgraph.models import Evaluation
    from factgraph.stages.session import ModelSession

ENTRY_POINT_GROUP = "factgraph.methods"

Runner = Callable[..., "Evaluation"]


@runtime_checkable
class Method(Protocol):
    """What the registry holds for one method."""

    name: str
    options: type[BaseModel]
    description: str
    needs_response: bool
    meta_evaluable: bool
    main_score: str

    def run(self, inp: EvaluationInput, session: ModelSession, options: Any,
            **kwargs: Any) -> Evaluation: ...


@dataclass(frozen=True)
class MethodSpec:
    """One evaluation method.

    ``options``: the pydantic model of its options (``extra="forbid"``; every field has a
    default and a ``description``, which becomes the flag's help). ``run(inp, session,
    options)``: one input → one Evaluation whose ``method`` is ``name``; a ``run`` that also
    takes ``context_store=`` gets the run's shared :class:`ContextStore`. Give ``run`` as
    ``lazy_callable("module:function")`` (:mod:`factgraph.plugins`) to keep the spec's module
    free of the run code: the CLI reads every spec's options to make its flags, and so imports
    only what the specs' modules import.
    ``needs_response``: the input's response is what is judged (``evaluate`` asks for
    ``--response``); ``meta_evaluable``: its main score is a comprehensiveness that
    ``factgraph meta-eval`` can set against human labels; ``main_score``: the score
    ``--fail-under`` gates on by default.
    """

    name: str
    options: type[BaseModel]
    run: Runner
    description: str = ""
    needs_response: bool = True
    meta_evaluable: bool = False
    main_score: str = "comprehensiveness"


EmbeddingNeed = Literal["none", "now", "lazy"]
"""Whether a run needs an embedding model: ``"none"``; ``"now"`` (loaded with the other models);
``"lazy"`` (loaded the first time an input asks for it, e2e's ``auto`` judge)."""


def embeddings_needed(options: BaseModel) -> EmbeddingNeed:
    """What a method's parsed options say they need: their ``embeddings_needed()`` where the
    model defines it, else ``"none"``."""
    need = getattr(options, "embeddings_needed", None)
    return need() if callable(need) else "none"


BUILTIN_METHODS: dict[str, str] = {
    "nli": "factgraph.methods.nli_spec:NLI",
    "qa": "factgraph.methods.qa_spec:QA",
    "e2e": "factgraph.methods.e2e.method:E2E",
    "icat-m": "factgraph.methods.icat_spec:ICAT_M",
    "icat-s": "factgraph.methods.icat_spec:ICAT_S",
    "icat-a": "factgraph.methods.icat_spec:ICAT_A",
    "prf": "factgraph.methods.prf_spec:PRF",
    "argue": "factgraph.methods.argue_spec:ARGUE",
}


def _check(spec: Any, name: str, where: str) -> Method:
    if not isinstance(spec, Method):
        raise TypeError(f"method {name!r} from {where}: {spec!r} is not a Method (name, options, "
                        "run, description, needs_response, meta_evaluable, main_score)")
    if spec.name != name:
        raise TypeError(f"method {name!r} from {where} calls itself {spec.name!r}")
    if not (isinstance(spec.options, type) and issubclass(spec.options, BaseModel)):
        raise TypeError(f"method {name!r} from {where}: options must be a pydantic model")
    return spec


class MethodRegistry(Mapping[str, Method]):
    """Name → method: built-ins, then entry points, then :meth:`register`; loaded lazily (a
    :class:`~factgraph.plugins.PluginRegistry` keyed by the entry point's name)."""

    def __init__(self, builtins: Mapping[str, str], group: str = ENTRY_POINT_GROUP) -> None:
        self._specs: PluginRegistry[str, Method] = PluginRegistry(
            group, Method, key=lambda spec: spec.name,  # type: ignore[type-abstract]
            describe=lambda spec: f"method {spec.name!r}",
            entry_point_key=str, check=_check)
        for name, target in builtins.items():
            self._specs.declare(name, target)
        self._registered: set[str] = set()

    def register(self, spec: Method, *, replace: bool = False) -> Method:
        """Add a method (a :class:`MethodSpec` or anything satisfying :class:`Method`)."""
        _check(spec, spec.name, "register_method")
        if spec.name in self and not replace:
            raise ValueError(f"method {spec.name!r} already exists")
        self._registered.add(spec.name)
        return self._specs.register(spec, replace=True)

    def unregister(self, name: str) -> None:
        """Remove a method added with :meth:`register` (tests, notebooks)."""
        if name not in self._registered:
            raise ValueError(f"method {name!r} was not added with register_method")
        self._registered.discard(name)
        self._specs.unregister(name)

    def refresh(self) -> None:
        """Read the entry points again (a package installed or removed while running)."""
        self._specs.refresh()

    def __getitem__(self, name: str) -> Method:
        spec = self._specs.get(name)
        if spec is None:
            raise KeyError(name)
        return spec

    def __iter__(self) -> Iterator[str]:
        return iter(self._specs.keys_in_order())

    def __len__(self) -> int:
        return len(self._specs.keys_in_order())

    def __contains__(self, name: object) -> bool:
        return name in self._specs.keys_in_order()


METHODS = MethodRegistry(BUILTIN_METHODS)


def available_methods() -> list[str]:
    """Every method name: built-ins first, then entry points, then registered ones."""
    return list(METHODS)


def get_method_spec(name: str) -> Method:
    """The method; a UserInputError (a ValueError) naming the known ones."""
    if name not in METHODS:
        raise UserInputError(f"unknown method {name!r}; known: {', '.join(METHODS)}")
    return METHODS[name]


def register_method(spec: Method, *, replace: bool = False) -> Method:
    """Add a method from Python (a notebook, a test); an installed package uses the
    ``factgraph.methods`` entry-point group instead."""
    return METHODS.register(spec, replace=replace)


def option_fields(options: type[BaseModel]) -> dict[str, FieldInfo]:
    """A method's options as flat names → field: the model's fields, or what its
    ``flat_fields()`` says (e2e: its own and every judge's)."""
    flat = getattr(options, "flat_fields", None)
    return dict(flat()) if callable(flat) else dict(options.model_fields)


def option_flag(name: str, field: FieldInfo) -> str:
    """The CLI flag of an option (without ``--``): the field's ``json_schema_extra["flag"]``,
    else the name with ``-`` for ``_``."""
    extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
    flag = extra.get("flag")
    return str(flag) if flag else name.replace("_", "-")
