"""``factgraph explore``: a local web app over a results file or the fact database."""

from __future__ import annotations

import gc
import os
import re
import secrets

import click

from factgraph.cli.db import DATABASE, GRAPH, STORE, URI, _open
from factgraph.cli.output import UserError
from factgraph.graph.results import load_evaluations

TOKEN_ENV = "FACTGRAPH_EXPLORE_TOKEN"
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,}$")


def explore_token(host: str) -> str | None:
    """None on a loopback bind; else ``$FACTGRAPH_EXPLORE_TOKEN`` or a fresh random token."""
    from factgraph.explore.security import is_loopback

    if is_loopback(host):
        return None
    token = os.environ.get(TOKEN_ENV) or secrets.token_urlsafe(24)
    if not TOKEN_SHAPE.match(token):
        raise UserError(f"{TOKEN_ENV} must be at least 16 characters of A-Z a-z 0-9 _ -")
    return token


@click.command("explore")
@click.argument("results", required=False, type=click.Path(dir_okay=False, exists=True))
@STORE
@URI
@GRAPH
@DATABASE
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind. Anything but loopback requires the printed token on "
                   "every request.")
@click.option("--port", type=int, default=8765, show_default=True)
def explore_cmd(results: str | None, backend: str, uri: str | None, graph: str,
                database: str | None, host: str, port: int) -> None:
    """Browse RESULTS (an Evaluation JSONL) or, without it, the fact database (--store):
    per query the coverage matrix, the leaderboard and each response's graph; the named
    read-only queries with a form each. Ctrl-C stops it."""
    try:
        import uvicorn

        from factgraph.explore.app import create_app
    except ImportError:
        raise UserError("factgraph explore needs its extra: pip install 'factgraph[explore]'") \
            from None
    from factgraph.explore.sources import ResultsSource, StoreSource

    token = explore_token(host)
    store = None
    if results is not None:
        source: ResultsSource | StoreSource = ResultsSource(load_evaluations(results),
                                                            label=results)
    else:
        from factgraph.store.registry import get_store

        store = _open(backend, uri, graph, database)
        source = StoreSource(store, label=get_store(backend).label(graph))
    app = create_app(source, token=token, loopback_only=token is None)
    # What is loaded now lives as long as the process: keep it out of the garbage collector's
    # full passes, which otherwise walk every loaded statement on some page requests.
    gc.freeze()
    shown = f"[{host}]" if ":" in host else host
    if token is None:
        click.echo(f"factgraph explore on http://{shown}:{port}/ (Ctrl-C stops it)")
    else:  # printed once; the browser keeps it in a cookie after the first visit
        click.echo(f"factgraph explore on http://{shown}:{port}/?token={token} "
                   "(every request needs this token; Ctrl-C stops it)")
    try:
        uvicorn.run(app, host=host, port=port, log_level="warning")
    finally:
        if store is not None:
            store.close()
