"""FalkorDB through its native client (``falkordb``)."""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import unquote, urlparse

from factgraph.errors import UserInputError
from factgraph.store.base import (
    GraphStore,
    StoreConfigError,
    StoreSpec,
    assert_read_only,
    cypher_schema,
)


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


def cypher_literal(value: Any) -> str:
    """One parameter value as a literal of FalkorDB's ``CYPHER name=value ...`` header.

    The server parses the header into parameters (values never become query text). Strings
    are double-quoted with ``\\`` and ``\"`` escaped, the rules of the falkordb client; map
    keys are backticked identifiers. Faster than the client's encoder (one type dispatch per
    value), which matters for batches of thousands of rows. A NUL byte would cut the header
    short, so strings carry U+2400 in its place (Evaluations keep the exact text: their JSON
    form escapes NUL as \\u0000). Non-finite floats have no Cypher literal and are refused.
    """
    t = type(value)
    if t is str:
        if "\x00" in value:
            value = value.replace("\x00", NUL_STANDIN)
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if value is None:
        return "null"
    if t is bool:
        return "true" if value else "false"
    if t is int:
        return str(value)
    if t is float:
        if not math.isfinite(value):
            raise ValueError(f"{value!r} has no Cypher literal: store it as null or text")
        text = repr(value)
        return text.replace("e+", "e")  # Cypher exponents take no plus sign
    if t is dict or isinstance(value, Mapping):
        parts = []
        for k, v in value.items():
            if not isinstance(k, str) or not k or "`" in k:
                raise ValueError(f"map key {k!r} is not a storable property name")
            parts.append("`" + k + "`:" + cypher_literal(v))
        return "{" + ",".join(parts) + "}"
    if t is list or isinstance(value, list | tuple):
        return "[" + ",".join([cypher_literal(v) for v in value]) + "]"
    # Subclasses and look-alikes: str enums, numpy integers and floats.
    if isinstance(value, str):
        return cypher_literal(str.__str__(value))
    if isinstance(value, numbers.Integral):
        return cypher_literal(int(value))
    if isinstance(value, numbers.Real):
        return cypher_literal(float(value))
    raise TypeError(f"cannot store a {t.__name__} as a Cypher parameter")


def params_header(params: Mapping[str, Any] | None) -> str:
    """``CYPHER a=1 b="x" `` for FalkorDB: the parameters travel ahead of the query text."""
    if not params:
        return ""
    parts = []
    for name, value in params.items():
        if not name.isidentifier():
            raise ValueError(f"parameter name {name!r} is not an identifier")
        parts.append(f"{name}={cypher_literal(value)}")
    return "CYPHER " + " ".join(parts) + " "


class FalkorDBStore:
    """A FalkorDB graph; reads run as GRAPH.RO_QUERY, so the server refuses writes in them."""

    backend = "falkordb"

    def __init__(self, url: str, graph: str = "factgraph") -> None:
        from falkordb import FalkorDB

        u = urlparse(url)
        if u.scheme not in ("redis", "rediss", "falkor", "falkors"):
            raise UserInputError("FALKORDB_URL must look like redis://[:PASSWORD@]HOST:PORT")
        self._db = FalkorDB(
            host=u.hostname or "127.0.0.1",
            port=u.port or 6379,
            username=unquote(u.username) if u.username else None,
            password=unquote(u.password) if u.password else None,
            ssl=u.scheme in ("rediss", "falkors"),
        )
        self.graph_name = graph
        self.address = f"{u.hostname or '127.0.0.1'}:{u.port or 6379}"  # no credentials
        self._graph = self._db.select_graph(graph)

    def run(
        self, cypher: str, params: Mapping[str, Any] | None = None, write: bool = False
    ) -> list[dict[str, Any]]:
        if not write:
            assert_read_only(cypher)
        return self._execute(params_header(params) + cypher, write)

    def prepare_write(
        self, cypher: str, params: Mapping[str, Any] | None = None
    ) -> Callable[[], object]:
        """Encode now, send later: the writer encodes the next batch while this one runs."""
        text = params_header(params) + cypher
        return lambda: self._execute(text, write=True)

    def _execute(self, text: str, write: bool) -> list[dict[str, Any]]:
        fn = self._graph.query if write else self._graph.ro_query
        try:
            res = fn(text)
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


def open_falkordb(uri: str | None = None, graph: str = "factgraph") -> FalkorDBStore:
    """A FalkorDBStore at ``uri`` (``--uri``, without a password) or ``FALKORDB_URL``. A
    password comes from the environment only: inside ``FALKORDB_URL``, or ``FALKORDB_PASSWORD``
    beside a ``--uri``."""
    url = uri or os.environ.get("FALKORDB_URL")
    if not url:
        raise StoreConfigError(
            "no FalkorDB address: set FALKORDB_URL (see `factgraph db serve`) or pass --uri")
    if uri and "@" in uri:
        raise StoreConfigError("put the password in FALKORDB_URL or FALKORDB_PASSWORD, "
                               "not on the command line")
    pw = os.environ.get("FALKORDB_PASSWORD")
    if uri and pw:
        url = uri.replace("://", f"://:{pw}@", 1)
    return FalkorDBStore(url, graph=graph)


def _open(uri: str | None, graph: str, database: str | None) -> GraphStore:
    return open_falkordb(uri, graph)


# What the redis client's exceptions mean (recognised by name: the client is not imported).
CONNECTION_ERRORS = {
    ("redis", "AuthenticationError"): "refused the password",
    ("redis", "AuthenticationWrongNumberOfArgsError"): "refused the password",
    ("redis", "ConnectionError"): "is unreachable",
    ("redis", "TimeoutError"): "did not answer in time",
    ("redis", "BusyLoadingError"): "is still loading its data",
}

SPEC = StoreSpec(
    name="falkordb", title="FalkorDB", open=_open, schema=cypher_schema("falkordb"),
    description="FalkorDB (a Redis module; `factgraph db serve` starts one locally)",
    address_env="FALKORDB_URL", default_port=6379, graph_option=True,
    extra="falkordb", client_modules=("falkordb",), connection_errors=CONNECTION_ERRORS,
    unreachable_help="start it (`factgraph db serve --detach`) or point FALKORDB_URL at a "
                     "running one")
