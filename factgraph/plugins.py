"""Plug-ins: what other installed packages declare in an entry-point group, and a registry of
specs by key that reads them once, on the first lookup (stores, engines, methods, judges).

It imports nothing of factgraph, so every layer can keep a registry.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Generic, TypeVar

P = TypeVar("P")
K = TypeVar("K", bound=Hashable)


def plugins(group: str, kind: type[P]) -> Iterator[P]:
    """What other installed packages declare in the entry-point ``group``: each entry point's
    object, or what it returns when it is a function, when that is a ``kind``. One that
    cannot be loaded is logged and skipped (a broken plug-in must not break what works)."""
    import logging
    from importlib.metadata import entry_points

    for ep in entry_points(group=group):
        try:
            value = ep.load()
            if not isinstance(value, kind) and callable(value):
                value = value()
            if not isinstance(value, kind):
                raise TypeError(f"{ep.value} is not a {kind.__name__}")
        except Exception as e:
            logging.getLogger(__name__).warning("entry point %s of %s could not be loaded: %s",
                                                ep.name, group, e)
            continue
        yield value


class PluginRegistry(Generic[K, P]):
    """Specs of one kind by key (stores by name, engines by kind and spec prefix): the ones
    registered from Python, the built-ins first, then those other installed packages declare in
    the entry-point ``group`` (:func:`plugins`), read once on the first lookup, never at import.
    A declared spec never replaces a registered one of the same key."""

    def __init__(self, group: str, kind: type[P], key: Callable[[P], K],
                 describe: Callable[[P], str]) -> None:
        self.group = group
        self._kind = kind
        self._key = key
        self._describe = describe  # "a store named 'x'": for the already-registered error
        self._specs: dict[K, P] = {}
        self._entry_points_read = False

    def register(self, spec: P, replace: bool = False) -> P:
        """Add ``spec``; a second spec of the same key is an error unless ``replace``."""
        key = self._key(spec)
        if key in self._specs and not replace and self._specs[key] is not spec:
            raise ValueError(f"{self._describe(spec)} is already registered")
        self._specs[key] = spec
        return spec

    def unregister(self, key: K) -> None:
        self._specs.pop(key, None)

    def specs(self) -> dict[K, P]:
        """Every spec by key, in registration order (entry points read on the first call)."""
        if not self._entry_points_read:
            self._entry_points_read = True
            for spec in plugins(self.group, self._kind):
                self._specs.setdefault(self._key(spec), spec)
        return dict(self._specs)
