"""Neo4j 5 through the official ``neo4j`` driver (Bolt). One long-lived driver per store."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any

from factgraph.store.base import (
    GraphStore,
    StoreConfigError,
    StoreSpec,
    assert_read_only,
    cypher_schema,
)


def _plain(value: Any) -> Any:
    from neo4j.graph import Node, Path, Relationship

    if isinstance(value, Node | Relationship):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, Path):
        return [_plain(n) for n in value.nodes]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


class Neo4jStore:
    """A Neo4j database. Reads run in READ access mode, so the server refuses writes in them."""

    backend = "neo4j"

    def __init__(
        self, uri: str, user: str | None, password: str | None, database: str | None = None
    ) -> None:
        import neo4j

        auth = (user or "neo4j", password) if password is not None else None
        self._driver = neo4j.GraphDatabase.driver(uri, auth=auth)
        self.database = database
        self.address = uri.split("@")[-1]  # no credentials, should a URI carry any
        # Fail now, once, when the server is unreachable or refuses the credentials: a
        # transaction would retry for 30 s before giving the same answer.
        try:
            self._driver.verify_connectivity()
        except BaseException:
            self._driver.close()
            raise

    def run(
        self, cypher: str, params: Mapping[str, Any] | None = None, write: bool = False
    ) -> list[dict[str, Any]]:
        import neo4j

        if not write:
            assert_read_only(cypher)
        mode = neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS
        with self._driver.session(database=self.database, default_access_mode=mode) as session:
            def work(tx: Any) -> list[dict[str, Any]]:
                result = tx.run(cypher, dict(params or {}))
                return [{k: _plain(v) for k, v in rec.items()} for rec in result]

            if write:
                return session.execute_write(work)
            return session.execute_read(work)

    def prepare_write(
        self, cypher: str, params: Mapping[str, Any] | None = None
    ) -> Callable[[], object]:
        """A write to run later (the driver encodes parameters when it sends them)."""
        frozen = dict(params or {})
        return lambda: self.run(cypher, frozen, write=True)

    def close(self) -> None:
        self._driver.close()


def open_neo4j(uri: str | None = None, database: str | None = None) -> Neo4jStore:
    """A Neo4jStore at ``uri`` (``--uri``) or ``NEO4J_URI``, signed in as ``NEO4J_USERNAME``
    (default neo4j) with ``NEO4J_PASSWORD``."""
    target = uri or os.environ.get("NEO4J_URI")
    if not target:
        raise StoreConfigError("no Neo4j address: set NEO4J_URI or pass --uri")
    return Neo4jStore(target, os.environ.get("NEO4J_USERNAME", "neo4j"),
                      os.environ.get("NEO4J_PASSWORD"), database=database)


def _open(uri: str | None, graph: str, database: str | None) -> GraphStore:
    return open_neo4j(uri, database)


SPEC = StoreSpec(
    name="neo4j", title="Neo4j", description="Neo4j 5 over Bolt", open=_open,
    address_env="NEO4J_URI", default_port=7687, extra="neo4j", client_modules=("neo4j",),
    schema=cypher_schema("neo4j"), quiet_loggers=("neo4j",),  # it logs every retry
    connection_errors={("neo4j", "AuthError"): "refused the credentials",
                       ("neo4j", "ServiceUnavailable"): "is unreachable",
                       ("neo4j", "SessionExpired"): "went away"},
    unreachable_help="start it or point NEO4J_URI (NEO4J_USERNAME, NEO4J_PASSWORD) at a "
                     "running one")
