"""The stores factgraph can write to and read from, by name: the one place a store is added.

A :class:`StoreSpec` says what a store is (its name, its title in messages, a line for help
texts), how to open it (an ``open`` function given ``--uri``, ``--graph`` and ``--database``),
where its address comes from when ``--uri`` is not given (an environment variable, and the port
an address without one means), the pip extra its client needs, how its client's connection
errors read, and its schema (the index statements ``factgraph db push`` runs first). The
built-in stores keep theirs beside their code (``SPEC`` of ``falkordb_store`` and
``neo4j_store``). ``open_store``, ``factgraph db`` (``--store``'s choices, ``db stores``, its
messages for a server that cannot be reached) and ``factgraph explore`` read everything from
here.

A package adds a store by registering a spec: :func:`register_store` from Python, or an entry
point in the group ``factgraph.stores`` naming a StoreSpec (or a function returning one),
loaded the first time the registry is read (never at import)::

    [project.entry-points."factgraph.stores"]
    memgraph = "my_package.store:SPEC"

Passwords are never part of a spec's address: each store's ``open`` reads its secrets from
the environment.
"""

from __future__ import annotations

from factgraph.plugins import PluginRegistry
from factgraph.store import falkordb_store, neo4j_store
from factgraph.store.base import StoreConfigError, StoreSpec

__all__ = ["DEFAULT_STORE", "ENTRY_POINT_GROUP", "STORE_ENV", "StoreConfigError", "StoreSpec",
           "find_store", "get_store", "register_store", "store_names", "stores",
           "unregister_store"]

ENTRY_POINT_GROUP = "factgraph.stores"
DEFAULT_STORE = "falkordb"
STORE_ENV = "FACTGRAPH_STORE"  # the default of --store


_STORES: PluginRegistry[str, StoreSpec] = PluginRegistry(
    ENTRY_POINT_GROUP, StoreSpec, key=lambda spec: spec.name,
    describe=lambda spec: f"a store named {spec.name!r}")


def register_store(spec: StoreSpec, replace: bool = False) -> StoreSpec:
    """Add a store under ``spec.name``; a second store of the same name is an error unless
    ``replace``. Returns the spec (usable as the value of an entry point's module)."""
    return _STORES.register(spec, replace)


def unregister_store(name: str) -> None:
    """Remove a store (tests register toy stores and take them away again)."""
    _STORES.unregister(name)


def stores() -> dict[str, StoreSpec]:
    """Every registered store by name, the built-in ones first."""
    return _STORES.specs()


def store_names() -> list[str]:
    return list(stores())


def get_store(name: str) -> StoreSpec:
    """The spec of store ``name``; StoreConfigError naming the known ones otherwise."""
    known = stores()
    if name not in known:
        raise StoreConfigError(f"unknown store {name!r}: use {' or '.join(known)}")
    return known[name]


def find_store(name: str) -> StoreSpec | None:
    """The spec of store ``name``, or None (messages about a store of unknown kind)."""
    return stores().get(name)


# -- the built-in stores (each module holds its store, how to open it and its SPEC) --------------
register_store(falkordb_store.SPEC)
register_store(neo4j_store.SPEC)
