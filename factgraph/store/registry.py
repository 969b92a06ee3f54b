"""The stores factgraph can write to and read from, by name: the one place a store is added.

A :class:`StoreSpec` says what a store is (its name, its title in messages, a line for help
texts), how to open it (an ``open`` function given ``--uri``, ``--graph`` and ``--database``),
where its address comes from when ``--uri`` is not given (an environment variable, and the port
an address without one means), the pip extra its client needs, how its client's connection
errors read, and its schema (the index statements ``factgraph db push`` runs
first). ``open_store``, ``factgraph db`` (``--store``'s choices, its messages for a server
that cannot be reached) and ``factgraph explore`` read everything from here.

A package adds a store by registering a spec: :func:`register_store` from Python, or an entry
point in the group ``factgraph.stores`` naming a StoreSpec (or a function returning one),
loaded the first time the registry is read (never at import)::

    [project.entry-points."factgraph.stores"]
    memgraph = "my_package.store:SPEC"

Passwords are never part of a spec's address: each store's ``open`` reads its secrets from
the environment.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from factgraph.store.base import GraphStore, StoreConfigError

ENTRY_POINT_GROUP = "factgraph.stores"
DEFAULT_STORE = "falkordb"
STORE_ENV = "FACTGRAPH_STORE"  # the default of --store


# open(uri, graph, database): uri is --uri (None: the store reads its address, if it needs one,
# from its environment variable); graph and database are --graph and --database.
Opener = Callable[[str | None, str, str | None], GraphStore]


@dataclass(frozen=True)
class StoreSpec:
    """Everything factgraph needs to know about one store."""

    name: str  # --store NAME, and the store's ``backend`` attribute
    title: str  # how messages name it: "FalkorDB"
    description: str  # one line for help texts and the docs
    open: Opener
    address_env: str | None = None  # the variable --uri defaults to; None: needs no address
    default_port: int | None = None  # what an address without a port means
    extra: str | None = None  # pip install 'factgraph[EXTRA]' brings the client
    client_modules: tuple[str, ...] = ()  # importable once the extra is installed
    unreachable_help: str = "check the server"  # what to do when it cannot be reached
    # (top-level module of the client, exception class name) -> what happened, in words
    connection_errors: Mapping[tuple[str, str], str] = field(default_factory=dict)
    graph_option: bool = False  # --graph names a graph in it (FalkorDB): the explorer says which
    schema: Callable[[], str] | None = None  # index statements, ";"-separated Cypher
    quiet_loggers: tuple[str, ...] = ()  # client loggers that repeat what the error says

    def require_client(self) -> None:
        """Raise a one-line StoreConfigError naming the extra to install when the client
        cannot be imported."""
        for module in self.client_modules:
            try:
                importlib.import_module(module)
            except ImportError:
                install = f": pip install 'factgraph[{self.extra}]'" if self.extra else ""
                raise StoreConfigError(
                    f"the {self.name} store needs its extra{install}") from None

    def label(self, graph: str) -> str:
        """How the explorer names a store it reads: ``falkordb graph factgraph``."""
        return f"{self.name} graph {graph}" if self.graph_option else self.name


_STORES: dict[str, StoreSpec] = {}
_entry_points_loaded = False


def register_store(spec: StoreSpec, replace: bool = False) -> StoreSpec:
    """Add a store under ``spec.name``; a second store of the same name is an error unless
    ``replace``. Returns the spec (usable as the value of an entry point's module)."""
    if spec.name in _STORES and not replace and _STORES[spec.name] is not spec:
        raise ValueError(f"a store named {spec.name!r} is already registered")
    _STORES[spec.name] = spec
    return spec


def unregister_store(name: str) -> None:
    """Remove a store (tests register toy stores and take them away again)."""
    _STORES.pop(name, None)


def _load_entry_points() -> None:
    """Register the stores other packages declare (once, on the first read)."""
    global _entry_points_loaded
    if _entry_points_loaded:
        return
    _entry_points_loaded = True
    from factgraph.io import plugins

    for spec in plugins(ENTRY_POINT_GROUP, StoreSpec):
        _STORES.setdefault(spec.name, spec)


def stores() -> dict[str, StoreSpec]:
    """Every registered store by name, the built-in ones first."""
    _load_entry_points()
    return dict(_STORES)


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


# -- the built-in stores -------------------------------------------------------------------------
def _cypher_schema(name: str) -> Callable[[], str]:
    def read() -> str:
        from factgraph.io import resource_path

        return resource_path("cypher", "schema", f"{name}.cypher").read_text()

    return read


def _open_falkordb(uri: str | None, graph: str, database: str | None) -> GraphStore:
    from factgraph.store.falkordb_store import open_falkordb

    return open_falkordb(uri, graph)


def _open_neo4j(uri: str | None, graph: str, database: str | None) -> GraphStore:
    from factgraph.store.neo4j_store import open_neo4j

    return open_neo4j(uri, database)


register_store(StoreSpec(
    name="falkordb", title="FalkorDB",
    description="FalkorDB (a Redis module; `factgraph db serve` starts one locally)",
    open=_open_falkordb, address_env="FALKORDB_URL",
    default_port=6379, extra="falkordb", client_modules=("falkordb",),
    unreachable_help="start it (`factgraph db serve --detach`) or point FALKORDB_URL at a "
                     "running one",
    connection_errors={
        ("redis", "AuthenticationError"): "refused the password",
        ("redis", "AuthenticationWrongNumberOfArgsError"): "refused the password",
        ("redis", "ConnectionError"): "is unreachable",
        ("redis", "TimeoutError"): "did not answer in time",
        ("redis", "BusyLoadingError"): "is still loading its data",
    },
    graph_option=True, schema=_cypher_schema("falkordb")))

register_store(StoreSpec(
    name="neo4j", title="Neo4j", description="Neo4j 5 over Bolt",
    open=_open_neo4j, address_env="NEO4J_URI", default_port=7687, extra="neo4j",
    client_modules=("neo4j",),
    unreachable_help="start it or point NEO4J_URI (NEO4J_USERNAME, NEO4J_PASSWORD) at a "
                     "running one",
    connection_errors={
        ("neo4j", "AuthError"): "refused the credentials",
        ("neo4j", "ServiceUnavailable"): "is unreachable",
        ("neo4j", "SessionExpired"): "went away",
    },
    schema=_cypher_schema("neo4j"), quiet_loggers=("neo4j",)))
