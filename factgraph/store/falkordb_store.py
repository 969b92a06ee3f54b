"""FalkorDB through its native client (``falkordb``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any
from urllib.parse import unquote, urlparse

from factgraph.store.base import assert_read_only


def _plain(value: Any) -> Any:
    """Client objects (nodes, edges, paths, ordered dicts) as plain JSON-able values."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    props = getattr(value, "properties", None)
    if isinstance(props, dict):
        return {k: _plain(v) for k, v in props.items()}
    nodes = getattr(value, "nodes", None)
    if callable(nodes):
        return [_plain(n) for n in nodes()]
    return value


NUL_STANDIN = "\u2400"  # SYMBOL FOR NULL


def _without_nul(value: Any) -> Any:
    """The falkordb client sends parameters as text and a NUL byte cuts that text short, so
    string parameters carry U+2400 in its place (Evaluations keep the exact text: their JSON
    form escapes NUL as \\u0000)."""
    if isinstance(value, str):
        return value.replace("\x00", NUL_STANDIN)
    if isinstance(value, dict):
        return {k: _without_nul(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_without_nul(v) for v in value]
    return value


class FalkorDBStore:
    """A FalkorDB graph; reads run as GRAPH.RO_QUERY, so the server refuses writes in them."""

    backend = "falkordb"

    def __init__(self, url: str, graph: str = "factgraph") -> None:
        from falkordb import FalkorDB

        u = urlparse(url)
        if u.scheme not in ("redis", "rediss", "falkor", "falkors"):
            raise ValueError("FALKORDB_URL must look like redis://[:PASSWORD@]HOST:PORT")
        self._db = FalkorDB(
            host=u.hostname or "127.0.0.1",
            port=u.port or 6379,
            username=unquote(u.username) if u.username else None,
            password=unquote(u.password) if u.password else None,
            ssl=u.scheme in ("rediss", "falkors"),
        )
        self.graph_name = graph
        self._graph = self._db.select_graph(graph)

    def run(
        self, cypher: str, params: Mapping[str, Any] | None = None, write: bool = False
    ) -> list[dict[str, Any]]:
        if not write:
            assert_read_only(cypher)
        fn = self._graph.query if write else self._graph.ro_query
        try:
            res = fn(cypher, _without_nul(dict(params or {})))
        except Exception as e:
            if "empty key" in str(e):  # the server's words for "this graph does not exist"
                raise LookupError(
                    f"graph {self.graph_name!r} does not exist yet: push results first"
                ) from None
            raise
        header = [h[1] if isinstance(h, list | tuple) else h for h in (res.header or [])]
        return [dict(zip(header, (_plain(v) for v in row), strict=True)) for row in res.result_set]

    def delete_graph(self) -> None:
        try:
            self._graph.delete()
        except Exception as e:  # deleting a graph that does not exist yet is fine
            if "empty key" not in str(e).lower() and "invalid graph" not in str(e).lower():
                raise

    def close(self) -> None:
        conn = getattr(self._db, "connection", None)
        if conn is not None:
            conn.close()
