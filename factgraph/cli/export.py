"""``factgraph export RESULTS``: the rows of ``factgraph.to_frame`` as CSV, JSONL or Parquet.

One row per evaluation, per statement or per relation (``--level``), the same columns as
``to_frame(load_results(RESULTS), level=...)`` (``factgraph.export.frames``). CSV and JSONL are
written one evaluation at a time (the results file is never held in memory, and they need no
pandas); Parquet goes through pandas and pyarrow.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

import click

from factgraph.cli.output import UserError, format_option, output_option, output_stream, read_output
from factgraph.export.frames import (
    LEVELS,
    RELATION_COLUMNS,
    STATEMENT_COLUMNS,
    evaluation_row,
    relation_rows,
    statement_rows,
)
from factgraph.graph.results import iter_evaluations
from factgraph.models import Evaluation

FORMATS = ("csv", "jsonl", "parquet")
SUFFIXES = {".csv": "csv", ".jsonl": "jsonl", ".parquet": "parquet", ".pq": "parquet"}
MISSING_PARQUET = "--format parquet needs pandas and pyarrow: pip install 'factgraph[pandas]' " \
                  "pyarrow"


def format_for(path: str | None, given: str | None) -> str:
    """The export format: the one given, else the one the output file's suffix names, else
    csv."""
    if given:
        return given
    return SUFFIXES.get(Path(path).suffix.lower(), "csv") if path else "csv"


def export_rows(evaluations: Iterable[Evaluation], level: str) -> Iterator[dict[str, Any]]:
    """The rows of ``to_frame(evaluations, level)``, one evaluation at a time."""
    for ev in evaluations:
        if level == "statement":
            yield from statement_rows(ev)
        elif level == "relation":
            yield from relation_rows(ev)
        else:
            yield evaluation_row(ev)


def _cell(value: Any) -> Any:
    """A CSV cell: empty for None (as pandas writes a missing value)."""
    return "" if value is None else value


def write_csv(rows: Iterable[dict[str, Any]], level: str, stream: IO[str]) -> int:
    """Write rows as CSV with a header; returns how many. Statement and relation rows stream
    under their fixed columns; evaluation rows (their score columns vary by method) are
    collected first, columns in first-seen order."""
    writer = csv.writer(stream, lineterminator="\n")
    fixed = {"statement": STATEMENT_COLUMNS, "relation": RELATION_COLUMNS}.get(level)
    if fixed is None:
        collected = list(rows)
        columns = list(dict.fromkeys(k for row in collected for k in row))
        rows = collected
    else:
        columns = fixed
    writer.writerow(columns)
    n = 0
    for row in rows:
        writer.writerow([_cell(row.get(c)) for c in columns])
        n += 1
    return n


def write_jsonl(rows: Iterable[dict[str, Any]], stream: IO[str]) -> int:
    """Write one JSON object per row; returns how many."""
    n = 0
    for row in rows:
        stream.write(json.dumps(row, ensure_ascii=False) + "\n")
        n += 1
    return n


def write_parquet(evaluations: Iterable[Evaluation], level: str, path: str) -> int:
    """Write ``to_frame(evaluations, level)`` as Parquet; returns the row count."""
    from factgraph.export.frames import to_frame

    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise UserError(MISSING_PARQUET) from None
    try:
        frame = to_frame(evaluations, level=level)  # type: ignore[arg-type]
    except ImportError:
        raise UserError(MISSING_PARQUET) from None
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    frame.to_parquet(path, index=False)
    return len(frame)


@click.command("export")
@click.argument("results", type=click.Path(dir_okay=False))
@click.option("--level", type=click.Choice(list(LEVELS)), default="evaluation",
              show_default=True, help="One row per evaluation, per statement or per relation "
                                      "(the columns of factgraph.to_frame).")
@format_option(FORMATS, "from -o's suffix, else csv", "csv, jsonl or parquet (parquet needs "
               "-o FILE and pyarrow).")
@output_option()
def export_cmd(results: str, level: str, fmt: str | None, outputs: tuple[str, ...]) -> None:
    """Export RESULTS (an Evaluation JSONL or JSON, or bare fact graphs) as a table."""
    choice = read_output(outputs, fmt, (), "")
    fmt = format_for(choice.file, fmt)
    evaluations = iter_evaluations(results)
    if fmt == "parquet":
        if choice.file is None:
            raise UserError("--format parquet is binary: give -o FILE")
        n = write_parquet(evaluations, level, choice.file)
    else:
        with output_stream(choice.file) as stream:
            target = stream if stream is not None else sys.stdout
            rows = export_rows(evaluations, level)
            n = write_csv(rows, level, target) if fmt == "csv" else write_jsonl(rows, target)
    if choice.file is not None:
        click.echo(json.dumps({"export": choice.file, "level": level, "format": fmt,
                               "rows": n}))
