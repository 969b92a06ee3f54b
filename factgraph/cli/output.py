"""Shared output helpers for CLI commands."""

from __future__ import annotations

import sys

from rich.console import Console


def make_console() -> Console:
    """A rich console for stdout; wide enough for tables when output is piped to a file."""
    width = None if sys.stdout.isatty() else 160
    return Console(highlight=False, soft_wrap=False, width=width)
