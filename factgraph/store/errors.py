"""Recognising a database server that cannot be reached, went away or refused the credentials.

Each client raises its own types (``redis.exceptions.ConnectionError`` / ``TimeoutError`` for
FalkorDB, ``neo4j.exceptions.ServiceUnavailable`` / ``SessionExpired`` / ``AuthError`` for
Bolt); every registered store lists its client's (``StoreSpec.connection_errors``), and they are
recognised by module and class name so that no client is imported here.
"""

from __future__ import annotations

from factgraph.store.registry import stores


def _connection_errors() -> dict[tuple[str, str], str]:
    """(top-level module of the client, class name) -> what happened, in words; every store's."""
    table: dict[tuple[str, str], str] = {}
    for spec in stores().values():
        table.update(spec.connection_errors)
    return table


def connection_problem(exc: BaseException) -> str | None:
    """What went wrong with the connection (``"is unreachable"``, ...), or None when ``exc`` is
    not a connection error. The most specific class of ``exc`` decides."""
    table = _connection_errors()
    for cls in type(exc).__mro__:
        words = table.get((cls.__module__.split(".")[0], cls.__name__))
        if words:
            return words
    if isinstance(exc, ConnectionError | TimeoutError):  # the builtin socket errors
        return "is unreachable"
    return None


def one_line(exc: BaseException) -> str:
    """The first line of an exception's message (its type name when it has none)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
