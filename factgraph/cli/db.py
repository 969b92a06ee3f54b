"""``factgraph db``: push results into a graph database (FalkorDB, Neo4j or any store in
``factgraph.store.registry``) and query them in Cypher."""

from __future__ import annotations

import contextlib
import json
import logging
import os
from typing import TYPE_CHECKING, Any

import click
from rich import box
from rich.table import Table

from factgraph.cli.output import (
    UserError,
    format_option,
    make_console,
    output_option,
    output_stream,
    read_output,
)
from factgraph.graph.results import check_evaluations, iter_evaluations
from factgraph.store.registry import (
    DEFAULT_STORE,
    STORE_ENV,
    StoreSpec,
    find_store,
    store_names,
)

if TYPE_CHECKING:
    from factgraph.store.writer import PushSummary


class StoreChoice(click.Choice):
    """``--store``'s choices: the registered stores, read when the flag is parsed or shown (a
    store registered after this module was imported is a choice too)."""

    def __init__(self) -> None:
        super().__init__([])

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(store_names())

    @choices.setter
    def choices(self, value: Any) -> None:  # click's __init__ sets it; the registry decides
        pass


def _default_store() -> str:
    return os.environ.get(STORE_ENV, DEFAULT_STORE)


STORE = click.option("--store", "backend", type=StoreChoice(), default=_default_store,
                     show_default=False,
                     help=f"Which database. [default: {DEFAULT_STORE}, or ${STORE_ENV}]")
URI = click.option("--uri", default=None,
                   help="Server address without credentials (else NEO4J_URI / FALKORDB_URL).")
GRAPH = click.option("--graph", default="factgraph", show_default=True,
                     help="FalkorDB graph name.")
DATABASE = click.option("--database", default=None, help="Neo4j database name.")
FORMATS = ("table", "json")
PUSH_FORMATS = ("text", "json")


def OUTPUT(f: Any) -> Any:  # a decorator, named like the options above
    """``--format table|json`` and ``-o/--output FILE`` (``-o json`` still works)."""
    return format_option(FORMATS, "table", "Table or JSON.")(output_option(FORMATS)(f))


def _open(backend: str, uri: str | None, graph: str, database: str | None) -> Any:
    from factgraph.store.connect import StoreConfigError, open_store, server_address

    spec = find_store(backend)
    if spec is not None and not logging.getLogger().isEnabledFor(logging.INFO):
        # A driver may log a warning per retry of an unreachable server; the error says it all.
        for name in spec.quiet_loggers:
            logging.getLogger(name).setLevel(logging.ERROR)
    try:
        return open_store(backend, uri=uri, graph=graph, database=database)
    except (StoreConfigError, RuntimeError, ImportError) as e:
        raise UserError(str(e)) from None
    except Exception as e:  # the FalkorDB client connects at once
        unreachable = _server_error(backend, server_address(backend, uri), e)
        if unreachable is None:
            raise
        raise unreachable from None


def _close_quietly(store: Any) -> None:
    """Close a store whose server may already be gone (closing must not hide the cause)."""
    with contextlib.suppress(Exception):  # a broken connection has nothing left to release
        store.close()


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


def _emit(rows: list[dict[str, Any]], outputs: tuple[str, ...], fmt: str | None,
          columns: list[str] | None = None) -> None:
    from factgraph.store.queries import format_value

    choice = read_output(outputs, fmt, FORMATS, "table")
    with output_stream(choice.file) as stream:
        if choice.format == "json":
            click.echo(json.dumps(rows, indent=2, ensure_ascii=False, default=str), file=stream)
            return
        cols = columns or (list(rows[0]) if rows else [])
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
        for c in cols:
            table.add_column(c)
        for r in rows:
            table.add_row(*(format_value(r.get(c)) for c in cols))
        make_console(stream).print(table)
        click.echo(f"{len(rows)} row(s)", file=stream)


def push_line(summary: PushSummary, results: str, backend: str) -> str:
    """``db push``'s text summary: ``4 evaluation(s) of R written to falkordb (12 batches,
    3,210 rows; 410 unchanged rows skipped)``."""
    return (f"{summary.evaluations} evaluation(s) of {results} written to {backend} "
            f"({summary.batches} batches, {summary.rows:,} rows; {summary.repeats_skipped:,} "
            "unchanged rows skipped)")


def _server_error(backend: str, address: str, exc: BaseException,
                  after: str = "") -> click.ClickException | None:
    """One line for a server that cannot be reached, went away or refused the credentials
    (exit 1: the input was fine); None when ``exc`` is something else."""
    from factgraph.store.errors import connection_problem, one_line

    problem = connection_problem(exc)
    if problem is None or os.environ.get("FACTGRAPH_DEBUG"):
        return None
    spec = find_store(backend)
    title, what_to_do = (spec.title, spec.unreachable_help) if spec is not None \
        else (backend, "check the server")
    return click.ClickException(
        f"{title} at {address} {problem} ({one_line(exc)}){after}; {what_to_do}")


def _run(store: Any, cypher: str, params: dict[str, Any], write: bool) -> list[dict[str, Any]]:
    from factgraph.store.base import ReadOnlyViolation
    from factgraph.store.errors import one_line

    try:
        return list(store.run(cypher, params, write=write))
    except ReadOnlyViolation as e:
        raise UserError(str(e)) from None
    except Exception as e:  # the server's own message, one line
        unreachable = _server_error(store.backend, store.address, e)
        if unreachable is not None:
            raise unreachable from None
        raise UserError(f"{store.backend}: {one_line(e)}") from None


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
@format_option(PUSH_FORMATS, "text", "text: one summary line; json: the summary object.")
def push_cmd(results: str, backend: str, uri: str | None, graph: str, database: str | None,
             batch_rows: int, batch_bytes: int, every_row: bool, fmt: str | None) -> None:
    """Write RESULTS (an Evaluation JSONL or JSON) idempotently into the database."""
    from factgraph.store.writer import PushSummary, ensure_schema, push_evaluations

    check_evaluations(results)  # every line is valid before anything is written
    evaluations = iter_evaluations(results)  # then streamed: one line in memory at a time
    store = _open(backend, uri, graph, database)
    summary = PushSummary()  # filled in as the push goes: kept when the server goes away
    try:
        ensure_schema(store)
        push_evaluations(store, evaluations, max_rows=batch_rows, max_bytes=batch_bytes,
                         skip_repeats=not every_row, summary=summary)
    except Exception as e:
        lost = _server_error(
            store.backend, store.address, e,
            after=f": {summary.evaluations} evaluation(s) of {results} were fully written "
            "before it stopped; push the same file again once it is back, which completes "
            "the rest (writes are idempotent)")
        if lost is None:
            raise
        raise lost from None
    finally:
        _close_quietly(store)
    if fmt == "json":
        click.echo(json.dumps(summary.model_dump()))
    else:
        click.echo(push_line(summary, results, store.backend))


@db_group.command("queries")
@OUTPUT
def queries_cmd(outputs: tuple[str, ...], fmt: str | None) -> None:
    """List the named queries with their parameters and columns."""
    from factgraph.store.queries import named_queries

    rows = [{"name": q.name, "params": q.params, "optional": q.optional, "columns": q.columns,
             "description": q.description} for q in named_queries().values()]
    _emit(rows, outputs, fmt, ["name", "params", "optional", "columns", "description"])


@db_group.command("stores")
@OUTPUT
def stores_cmd(outputs: tuple[str, ...], fmt: str | None) -> None:
    """List the stores --store takes: what each is, where its address comes from, the extra
    its client needs and whether that client is installed."""
    from factgraph.store.base import StoreConfigError
    from factgraph.store.registry import stores

    def installed(spec: StoreSpec) -> bool:
        try:
            spec.require_client()
        except StoreConfigError:
            return False
        return True

    rows = [{"name": s.name, "description": s.description, "address": s.address_env,
             "extra": s.extra, "installed": installed(s)} for s in stores().values()]
    _emit(rows, outputs, fmt, ["name", "description", "address", "extra", "installed"])


@db_group.command("query")
@click.argument("name")
@click.option("-p", "--param", "params", multiple=True, help="key=value (JSON values allowed).")
@STORE
@URI
@GRAPH
@DATABASE
@OUTPUT
def query_cmd(name: str, params: tuple[str, ...], backend: str, uri: str | None, graph: str,
              database: str | None, outputs: tuple[str, ...], fmt: str | None) -> None:
    """Run a named query from cypher/queries (read-only). An optional parameter left out is
    null (`coverage_leaderboard` without -p method=...: every method)."""
    from factgraph.store.queries import get_query, missing_params, query_values

    q = get_query(name)
    values = _parse_params(params)
    missing = missing_params(q, values)
    if missing:
        raise UserError(f"{name} needs parameter(s): {', '.join(missing)} (-p key=value)")
    values = {**query_values(q, values), **values}  # optional ones left out: null
    store = _open(backend, uri, graph, database)
    try:
        rows = _run(store, q.cypher, values, write=False)
        if not rows:
            _check_known_values(store, q.known, values)
    finally:
        _close_quietly(store)
    _emit(rows, outputs, fmt, q.columns)


def _check_known_values(store: Any, known: dict[str, str], values: dict[str, Any]) -> None:
    """A named query found nothing: say so when a parameter's value matches nothing stored
    (a typo, or a name the database spells differently), listing what is stored."""
    from factgraph.store.queries import stored_values, unknown_value_message

    given = {p: c for p, c in known.items() if values.get(p) is not None}
    stored = stored_values(lambda cypher, params: _run(store, cypher, dict(params), write=False),
                           given)
    message = unknown_value_message(stored, values)
    if message is not None:
        raise UserError(message)


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
               uri: str | None, graph: str, database: str | None,
               outputs: tuple[str, ...], fmt: str | None) -> None:
    """Run one Cypher STATEMENT (read-only unless --write). Pass values with -p, not inline."""
    store = _open(backend, uri, graph, database)
    try:
        rows = _run(store, statement, _parse_params(params), write=write)
    finally:
        _close_quietly(store)
    _emit(rows, outputs, fmt)


# The local server's commands (serve, stop) live in their own module.
from factgraph.cli.db_server import serve_cmd, stop_cmd  # noqa: E402

db_group.add_command(serve_cmd)
db_group.add_command(stop_cmd)
