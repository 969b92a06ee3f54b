"""The store protocol and the read-only guard shared by both backends."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from factgraph.io import UserInputError

# Clauses that change a graph. Checked outside string literals and comments, as whole words.
_WRITE_CLAUSES = re.compile(
    r"\b(CREATE|MERGE|SET|DELETE|DETACH|REMOVE|DROP|LOAD\s+CSV|FOREACH)\b", re.IGNORECASE
)
_WRITE_PROCEDURES = re.compile(r"\bCALL\s+(db\.|dbms\.|apoc\.)", re.IGNORECASE)
_LITERALS = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|`[^`]*`|//[^\n]*|/\*.*?\*/", re.S)


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
    """What the writer, the reader and the CLI need from a graph database."""

    backend: str  # "falkordb" | "neo4j"

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
