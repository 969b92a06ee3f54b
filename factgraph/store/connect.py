"""Open a store from flags and environment variables; secrets never come from flags."""

from __future__ import annotations

import os

from factgraph.io import UserInputError
from factgraph.store.base import GraphStore


class StoreConfigError(UserInputError):
    pass


def _require(module: str, extra: str) -> None:
    """Raise a one-line StoreConfigError naming the extra to install when ``module`` (a
    store's client) cannot be imported."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        raise StoreConfigError(f"the {extra} store needs its extra: "
                               f"pip install 'factgraph[{extra}]'") from None


def open_store(backend: str, uri: str | None = None, graph: str = "factgraph",
               database: str | None = None) -> GraphStore:
    """A store for ``backend`` ("falkordb" | "neo4j").

    FalkorDB: ``FALKORDB_URL`` (``redis://[:PASSWORD@]HOST:PORT``), or ``--uri`` without a
    password plus ``FALKORDB_PASSWORD``. Neo4j: ``NEO4J_URI`` (or ``--uri``), ``NEO4J_USERNAME``,
    ``NEO4J_PASSWORD``. Passwords are read from the environment only.
    """
    if backend == "falkordb":
        from factgraph.store.falkordb_store import FalkorDBStore

        _require("falkordb", "falkordb")  # before the address: install first, then serve

        url = uri or os.environ.get("FALKORDB_URL")
        if not url:
            raise StoreConfigError(
                "no FalkorDB address: set FALKORDB_URL (see `factgraph db serve`) or pass --uri"
            )
        if uri and "@" in uri:
            raise StoreConfigError("put the password in FALKORDB_URL or FALKORDB_PASSWORD, "
                                   "not on the command line")
        pw = os.environ.get("FALKORDB_PASSWORD")
        if uri and pw:
            url = uri.replace("://", f"://:{pw}@", 1)
        return FalkorDBStore(url, graph=graph)
    if backend == "neo4j":
        from factgraph.store.neo4j_store import Neo4jStore

        _require("neo4j", "neo4j")

        target = uri or os.environ.get("NEO4J_URI")
        if not target:
            raise StoreConfigError("no Neo4j address: set NEO4J_URI or pass --uri")
        return Neo4jStore(target, os.environ.get("NEO4J_USERNAME", "neo4j"),
                          os.environ.get("NEO4J_PASSWORD"), database=database)
    raise StoreConfigError(f"unknown store {backend!r}: use neo4j or falkordb")


def server_address(backend: str, uri: str | None = None) -> str:
    """The address ``open_store`` would connect to, without credentials (for messages)."""
    from urllib.parse import urlparse

    target = uri or os.environ.get("FALKORDB_URL" if backend == "falkordb" else "NEO4J_URI")
    if not target:
        return "?"
    u = urlparse(target)
    default_port = 6379 if backend == "falkordb" else 7687
    try:
        port = u.port or default_port
    except ValueError:  # a port that is not a number: show what was given
        return u.netloc.rsplit("@", 1)[-1] or target
    return f"{u.hostname or '127.0.0.1'}:{port}"
