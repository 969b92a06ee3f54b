"""The user-error family: mistakes the user can fix in what they gave (a file, an argument, an
option, a name). The CLI prints one as a single line and exits 2; any other exception is a bug.

The floor of the package: it imports nothing of factgraph, so every layer can raise these.
"""

from __future__ import annotations

import os
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


class UserInputError(ValueError):
    """A mistake the user can fix in what they gave (a file, an argument, an option, a name):
    the CLI prints ``str()`` as one line and exits 2. Every error of that family derives from
    it; any other exception is a bug and surfaces with its traceback. A ValueError, so callers
    that catch ValueError keep catching it."""


class UnknownNameError(UserInputError, KeyError):
    """A name the user gave that is not there (a statement id, a named query): a KeyError for
    code that looks names up, a user error for the CLI; ``str()`` is the message unquoted."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class InputError(UserInputError):
    """A bad input file. ``str()`` is a one-line message naming file, line and field."""

    def __init__(self, path: str | os.PathLike[str], message: str, line: int | None = None):
        self.path = str(path)
        self.line = line
        self.detail = message
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {message}")


def describe_validation_error(err: ValidationError) -> str:
    """The first error of a pydantic ValidationError as ``field.path: message`` (one line)."""
    errors = err.errors()
    if not errors:
        return str(err).splitlines()[0]
    first = errors[0]
    loc = ".".join(str(p) for p in first.get("loc", ()))
    msg = str(first.get("msg", "invalid")).replace("\n", " ")
    msg = msg.removeprefix("Value error, ")  # our validators already name the field
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{loc}: {msg}{more}" if loc else f"{msg}{more}"



def parse_model(
    model: type[M], data: Any, path: str | os.PathLike[str], line: int | None = None
) -> M:
    """Validate ``data`` as ``model`` or raise a one-line InputError."""
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise InputError(path, describe_validation_error(e), line=line) from None
