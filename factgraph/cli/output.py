"""Shared output helpers for CLI commands: one grammar for where output goes and in what form.

Every command that writes something takes ``-o/--output FILE`` (a file; stdout without it)
and, where it can write more than one form, ``--format NAME``. Older spellings gave
``-o/--output`` a format (``analyze -o json``, ``evaluate --output json``); a value that is
one of the command's format names is still read as ``--format`` with a one-line deprecation
warning, anything else is a file.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

if TYPE_CHECKING:
    from rich.console import Console

log = logging.getLogger(__name__)

DEPRECATED_FORMAT = "-o/--output {value} is deprecated; use --format {value}"


class UserError(click.ClickException):
    """An error caused by input; printed as one line, exit code 2.

    It lives here, beside the other helpers every command shares, so that the command modules
    never import ``factgraph.cli.main`` (which loads them by name) back."""

    exit_code = 2


def make_console(file: IO[str] | None = None) -> Console:
    """A rich console for ``file`` (stdout when None); wide enough for tables when the output
    is piped or goes to a file, and without colour codes in a file."""
    from rich.console import Console  # not at import: `factgraph --help` loads this module

    if file is not None:
        return Console(file=file, highlight=False, soft_wrap=False, width=160,
                       color_system=None)
    width = None if sys.stdout.isatty() else 160
    return Console(highlight=False, soft_wrap=False, width=width)


def format_score(name: str, value: float | None) -> str:
    """A score as a table shows it: a count (``n_covered``, an int) as an integer, any other
    score with four decimals, None as ``undefined``."""
    if value is None:
        return "undefined"
    if isinstance(value, int) or (name.startswith("n_") and float(value).is_integer()):
        return str(int(value))
    return f"{value:.4f}"


@dataclass(frozen=True)
class OutputChoice:
    """Where a command writes (``file``: None for stdout) and in which ``format``;
    ``deprecated`` holds the format names that came through ``-o/--output``."""

    file: str | None
    format: str
    deprecated: tuple[str, ...] = field(default=())


def resolve_output(outputs: Sequence[str], fmt: str | None, formats: Sequence[str],
                   default: str) -> OutputChoice:
    """Read the values of ``-o/--output`` (a file, or — the old spelling — a format name)
    together with ``--format``.

    Raises click.UsageError when two files, or two different formats, are given.
    """
    files = [v for v in outputs if v not in formats]
    named = [v for v in outputs if v in formats]
    if len(set(files)) > 1:
        raise click.UsageError(f"-o/--output names two files: {files[0]!r} and {files[1]!r}")
    chosen = {*named, *([fmt] if fmt else [])}
    if len(chosen) > 1:
        raise click.UsageError("two formats given: " + " and ".join(sorted(chosen)))
    return OutputChoice(file=files[0] if files else None,
                        format=chosen.pop() if chosen else default,
                        deprecated=tuple(dict.fromkeys(named)))


def read_output(outputs: Sequence[str], fmt: str | None, formats: Sequence[str],
                default: str) -> OutputChoice:
    """:func:`resolve_output`, logging the deprecation warning once per old-style value."""
    choice = resolve_output(outputs, fmt, formats, default)
    for value in choice.deprecated:
        log.warning(DEPRECATED_FORMAT.format(value=value))
    return choice


def output_option(formats: Sequence[str] = (), aliases: Sequence[str] = ()
                  ) -> Callable[[Any], Any]:
    """The ``-o/--output FILE`` option (``outputs``: every value given). With ``formats``,
    a value among them is the old spelling of ``--format`` (see :func:`read_output`)."""
    old = (f" (-o {'|'.join(formats)} still works for a while; use --format)"
           if formats else "")
    return click.option("-o", "--output", *aliases, "outputs", multiple=True, metavar="FILE",
                        help=f"Write to FILE instead of stdout{old}.")


def format_option(formats: Sequence[str], default: str, help_: str) -> Callable[[Any], Any]:
    """The ``--format`` option: one of ``formats``, default ``default``."""
    return click.option("--format", "fmt", type=click.Choice(list(formats)), default=None,
                        help=f"{help_} [default: {default}]")


@contextmanager
def output_stream(path: str | None) -> Iterator[IO[str] | None]:
    """Yield None for stdout, or a text stream that becomes ``path`` only when the block
    ends without an error (a temporary file in the same folder, then renamed; parent folders
    are created)."""
    if path is None:
        yield None
        return
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            yield f
        os.replace(tmp, target)
    finally:
        if tmp.exists():
            tmp.unlink()
    log.info("wrote %s", path)
