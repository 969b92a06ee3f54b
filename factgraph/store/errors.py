"""Recognising a database server that cannot be reached, went away or refused the credentials.

Both clients raise their own types (``redis.exceptions.ConnectionError`` / ``TimeoutError`` for
FalkorDB, ``neo4j.exceptions.ServiceUnavailable`` / ``SessionExpired`` / ``AuthError`` for
Bolt); they are recognised by name so that neither client is imported here.
"""

from __future__ import annotations

# (top-level module of the client, class name) -> what happened, in words.
_CONNECTION_ERRORS: dict[tuple[str, str], str] = {
    ("redis", "AuthenticationError"): "refused the password",
    ("redis", "AuthenticationWrongNumberOfArgsError"): "refused the password",
    ("redis", "ConnectionError"): "is unreachable",
    ("redis", "TimeoutError"): "did not answer in time",
    ("redis", "BusyLoadingError"): "is still loading its data",
    ("neo4j", "AuthError"): "refused the credentials",
    ("neo4j", "ServiceUnavailable"): "is unreachable",
    ("neo4j", "SessionExpired"): "went away",
}


def connection_problem(exc: BaseException) -> str | None:
    """What went wrong with the connection (``"is unreachable"``, ...), or None when ``exc`` is
    not a connection error. The most specific class of ``exc`` decides."""
    for cls in type(exc).__mro__:
        words = _CONNECTION_ERRORS.get((cls.__module__.split(".")[0], cls.__name__))
        if words:
            return words
    if isinstance(exc, ConnectionError | TimeoutError):  # the builtin socket errors
        return "is unreachable"
    return None


def one_line(exc: BaseException) -> str:
    """The first line of an exception's message (its type name when it has none)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
