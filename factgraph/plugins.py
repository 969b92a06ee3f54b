"""Plug-ins: what other installed packages declare in an entry-point group, and a registry of
specs by key that reads them once, on the first lookup (stores, engines, methods, judges).

It imports nothing of factgraph, so every layer can keep a registry.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import logging
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any, Generic, TypeVar

P = TypeVar("P")
K = TypeVar("K", bound=Hashable)

log = logging.getLogger(__name__)


def plugins(group: str, kind: type[P]) -> Iterator[P]:
    """What other installed packages declare in the entry-point ``group``: each entry point's
    object, or what it returns when it is a function, when that is a ``kind``. One that
    cannot be loaded is logged and skipped (a broken plug-in must not break what works)."""
    for ep in importlib.metadata.entry_points(group=group):
        try:
            value = ep.load()
            if not isinstance(value, kind) and callable(value):
                value = value()
            if not isinstance(value, kind):
                raise TypeError(f"{ep.value} is not a {kind.__name__}")
        except Exception as e:
            log.warning("entry point %s of %s could not be loaded: %s", ep.name, group, e)
            continue
        yield value


@dataclass(frozen=True)
class _Pending:
    """A spec known by its key and loaded on its first lookup: ``where`` it comes from (for
    errors), ``load`` what returns it."""

    where: str
    load: Callable[[], object]


def _import(target: str) -> object:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


class _Later:
    """A function known by its ``module:attribute`` and imported on its first call, so that
    what declares it (a method's spec, a judge kind) can be read without importing what runs
    it. ``inspect.signature`` sees the imported function (through ``__wrapped__``)."""

    def __init__(self, target: str) -> None:
        if ":" not in target:
            raise ValueError(f"{target!r}: expected 'module:function'")
        self.target = target
        self._function: Callable[..., object] | None = None

    def resolve(self) -> Callable[..., object]:
        if self._function is None:
            function = _import(self.target)
            if not callable(function):
                raise TypeError(f"{self.target} is not callable")
            self._function = function
        return self._function

    @property
    def __wrapped__(self) -> Callable[..., object]:
        return self.resolve()

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.resolve()(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<{self.target}, imported on first call>"


def lazy_callable(target: str) -> Callable[..., Any]:
    """The function ``"module:function"`` names, imported on its first call (a method's
    ``run``, a judge kind's ``run``): declaring it imports nothing."""
    return _Later(target)


def resolved(function: Callable[..., Any]) -> Callable[..., Any]:
    """The function itself: a :func:`lazy_callable` imported now, any other unchanged."""
    return function.resolve() if isinstance(function, _Later) else function


class PluginRegistry(Generic[K, P]):
    """Specs of one kind by key (stores by name, engines by kind and spec prefix, methods and
    named judges by name): the ones registered from Python, the built-ins first, then those
    other installed packages declare in the entry-point ``group`` (:func:`plugins`), read once
    on the first lookup, never at import. A declared spec never replaces a registered one of
    the same key.

    With ``entry_point_key``, the registry is lazy: a built-in can be *declared* by its
    ``module:attribute`` (:meth:`declare`) and an entry point is keyed by its name, so the keys
    are known without importing anything; a spec is imported on its first :meth:`get`, and
    ``check(value, key, where)`` validates it (an error names where it came from). A second
    entry point of a key already taken is logged and ignored."""

    def __init__(self, group: str, kind: type[P], key: Callable[[P], K],
                 describe: Callable[[P], str], *,
                 entry_point_key: Callable[[str], K] | None = None,
                 check: Callable[[object, K, str], P] | None = None) -> None:
        self.group = group
        self._kind = kind
        self._key = key
        self._describe = describe  # "a store named 'x'": for the already-registered error
        self._entry_point_key = entry_point_key
        self._check = check
        self._specs: dict[K, P | _Pending] = {}
        self._replaced: dict[K, P | _Pending] = {}  # what a replacing register() shadows
        self._from_entry_points: set[K] = set()
        self._entry_points_read = False

    def declare(self, key: K, target: str) -> None:
        """A built-in known by ``key`` now, imported from ``module:attribute`` on first use."""
        self._specs[key] = _Pending(target, partial(_import, target))

    def register(self, spec: P, replace: bool = False) -> P:
        """Add ``spec``; a second spec of the same key is an error unless ``replace`` (then
        :meth:`unregister` brings back the one it replaced)."""
        key = self._key(spec)
        old = self._specs.get(key)
        if old is not None and old is not spec:
            if not replace:
                raise ValueError(f"{self._describe(spec)} is already registered")
            if self._replaced.get(key) is spec:  # the shadowed one put back
                del self._replaced[key]
            else:
                self._replaced.setdefault(key, old)
        self._specs[key] = spec
        return spec

    def unregister(self, key: K) -> None:
        self._specs.pop(key, None)
        if key in self._replaced:
            self._specs[key] = self._replaced.pop(key)

    def refresh(self) -> None:
        """Read the entry points again (a package installed or removed while running)."""
        for key in self._from_entry_points:
            self._specs.pop(key, None)
        self._from_entry_points.clear()
        self._entry_points_read = False

    def _read_entry_points(self) -> None:
        if self._entry_points_read:
            return
        self._entry_points_read = True
        if self._entry_point_key is None:
            for spec in plugins(self.group, self._kind):
                key = self._key(spec)
                if key not in self._specs:
                    self._specs[key] = spec
                    self._from_entry_points.add(key)
            return
        for ep in importlib.metadata.entry_points(group=self.group):
            key = self._entry_point_key(ep.name)
            if key in self._specs:
                log.warning("entry point %s = %s: %r already exists; ignored",
                            self.group, ep.value, key)
                continue
            self._specs[key] = _Pending(f"entry point {ep.value}", ep.load)
            self._from_entry_points.add(key)

    def keys_in_order(self) -> list[K]:
        """Every key in registry order, without loading a declared spec."""
        self._read_entry_points()
        return list(self._specs)

    def get(self, key: K) -> P | None:
        """The spec of ``key`` (loaded and checked on first use), or None."""
        self._read_entry_points()
        entry = self._specs.get(key)
        if not isinstance(entry, _Pending):
            return entry
        value = entry.load()
        if not isinstance(value, self._kind) and callable(value):
            value = value()
        if self._check is not None:
            spec = self._check(value, key, entry.where)
        elif isinstance(value, self._kind):
            spec = value
        else:
            raise TypeError(f"{entry.where} is not a {self._kind.__name__}")
        if self._specs.get(key) is entry:
            self._specs[key] = spec
        return spec

    def specs(self) -> dict[K, P]:
        """Every spec by key, in registration order (entry points read on the first call;
        a declared spec is loaded)."""
        self._read_entry_points()
        return {key: spec for key in list(self._specs) if (spec := self.get(key)) is not None}
