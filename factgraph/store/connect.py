"""Open a store from flags and environment variables; secrets never come from flags.

Which stores there are, and how each is opened, is the registry's (``factgraph.store.registry``).
"""

from __future__ import annotations

import os

from factgraph.store.base import GraphStore, StoreConfigError
from factgraph.store.registry import get_store

__all__ = ["StoreConfigError", "open_store", "server_address"]


def open_store(backend: str, uri: str | None = None, graph: str = "factgraph",
               database: str | None = None) -> GraphStore:
    """A store for ``backend`` (a registered store's name: "falkordb", "neo4j", ...).

    FalkorDB: ``FALKORDB_URL`` (``redis://[:PASSWORD@]HOST:PORT``), or ``--uri`` without a
    password plus ``FALKORDB_PASSWORD``. Neo4j: ``NEO4J_URI`` (or ``--uri``), ``NEO4J_USERNAME``,
    ``NEO4J_PASSWORD``. Passwords are read from the environment only.
    """
    spec = get_store(backend)
    spec.require_client()  # before the address: install first, then serve
    return spec.open(uri, graph, database)


def server_address(backend: str, uri: str | None = None) -> str:
    """The address ``open_store`` would connect to, without credentials (for messages)."""
    from urllib.parse import urlparse

    spec = get_store(backend)
    target = uri or (os.environ.get(spec.address_env) if spec.address_env else None)
    if not target:
        return "?"
    u = urlparse(target)
    try:
        port = u.port or spec.default_port
    except ValueError:  # a port that is not a number: show what was given
        return u.netloc.rsplit("@", 1)[-1] or target
    host = u.hostname or "127.0.0.1"
    return f"{host}:{port}" if port else host
