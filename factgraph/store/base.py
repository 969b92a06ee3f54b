"""The store protocol, what a store is (its StoreSpec, registered by name in
``factgraph.store.registry``) and the read-only guard shared by every store."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from factgraph.errors import UserInputError

# Clauses that change a graph. Checked outside string literals and comments, as whole words.
_WRITE_CLAUSES = re.compile(
    r"\b(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|DROP|LOAD\s+CSV|FOREACH)\b", re.IGNORECASE
)
_WRITE_PROCEDURES = re.compile(r"\bCALL\s+(db\.|dbms\.|apoc\.)", re.IGNORECASE)
_LITERALS = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/", re.S)


class StoreConfigError(UserInputError):
    """A store that cannot be opened as configured (unknown name, no address, missing extra);
    ``str()`` is one line."""


class ReadOnlyViolation(UserInputError):
    """A query meant to read the database would write to it."""


def assert_read_only(cypher: str) -> None:
    """Refuse Cypher with write clauses (a first line of defence; backends also run reads in
    read-only mode: FalkorDB's ``GRAPH.RO_QUERY``, Neo4j's READ access mode)."""
    stripped = _LITERALS.sub(" ", cypher)
    m = _WRITE_CLAUSES.search(stripped) or _WRITE_PROCEDURES.search(stripped)
    if m:
        raise ReadOnlyViolation(
            f"refusing to run a query with {m.group(0).split()[0].upper()} without --write"
        )


class GraphStore(Protocol):
    """What the writer, the reader and the CLI need from a graph database (a store is
    registered by name in ``factgraph.store.registry``)."""

    backend: str  # the registered store's name: "falkordb", "neo4j", ...
    address: str  # where it is, for messages: "127.0.0.1:6379" (never credentials)

    def run(
        self, cypher: str, params: Mapping[str, Any] | None = None, write: bool = False
    ) -> list[dict[str, Any]]:
        """Run parameterised Cypher; rows as dicts of plain values. ``write=False`` runs
        read-only (a write is refused by the database)."""
        ...

    def prepare_write(
        self, cypher: str, params: Mapping[str, Any] | None = None
    ) -> Callable[[], object]:
        """A write, encoded now and run when called: lets a writer prepare the next batch on
        one thread while another waits on the server for this one."""
        ...

    def close(self) -> None: ...


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


def cypher_schema(dialect: str) -> Callable[[], str]:
    """A spec's ``schema``: the shipped ``cypher/schema/<dialect>.cypher``."""
    def read() -> str:
        from factgraph.store.cypher_files import cypher_path

        return cypher_path("schema", f"{dialect}.cypher").read_text()

    return read
