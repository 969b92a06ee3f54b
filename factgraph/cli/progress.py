"""Progress on stderr for the long commands (``batch``, ``meta-eval``, ``index build``): a bar
where the work has steps (``factgraph.runners.batch.progress_bar``), a spinner naming the step
where it has none (statistics, index building). Shown when stderr is a terminal unless
``--progress/--no-progress`` says otherwise; never on stdout, which holds the results."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager


def show_progress(flag: bool | None) -> bool:
    """``--progress/--no-progress``, else whether stderr is a terminal."""
    return sys.stderr.isatty() if flag is None else flag


@contextmanager
def step(message: str, enabled: bool) -> Iterator[None]:
    """A transient spinner with ``message`` on stderr while the block runs (nothing when not
    ``enabled``)."""
    if not enabled:
        yield
        return
    from rich.console import Console

    with Console(stderr=True).status(message):
        yield
