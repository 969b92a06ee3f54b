"""``factgraph validate FILE``: check an input, graph or results file without running anything."""

from __future__ import annotations

import json
import zlib
from typing import Any

import click
from pydantic import BaseModel

from factgraph.cli.main import UserError
from factgraph.inputs import EvaluationInput
from factgraph.io import InputError, _read_bytes, _read_json, is_jsonl, iter_jsonl, parse_model
from factgraph.models import Evaluation, FactGraph

KINDS: dict[str, type[BaseModel]] = {
    "inputs": EvaluationInput,
    "results": Evaluation,
    "graph": FactGraph,
}


def guess_kind(obj: Any) -> str:
    """Which file format an object belongs to, from its keys."""
    if isinstance(obj, dict):
        if "method" in obj and "graph" in obj:
            return "results"
        if "response" in obj:
            return "inputs"
        if "statements" in obj:
            return "graph"
    return "graph"


def _fast_graph_kind(file: str) -> str | None:
    """"graph" / "results" when the fast reader accepts FILE as a FactGraph / an Evaluation
    (large graph files validate at the speed of the JSON parser); None: take the usual path."""
    from factgraph.graph_file import decode_graph_file

    try:
        data = _read_bytes(file)
    except (OSError, EOFError, zlib.error):
        return None
    decoded = decode_graph_file(data)
    return None if decoded is None else decoded[0]


@click.command("validate")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--kind", type=click.Choice(["auto", *sorted(KINDS)]), default="auto",
              show_default=True, help="File format; auto guesses from the first object.")
@click.option("--max-errors", type=int, default=20, show_default=True)
@click.option("--output", "-o", type=click.Choice(["table", "json"]), default="table")
def validate_cmd(file: str, kind: str, max_errors: int, output: str) -> None:
    """Check FILE (inputs JSONL, results JSONL, or a graph / evaluation JSON). Exit 2 if bad."""
    errors: list[str] = []
    count = 0
    ids: dict[str, int] = {}
    fast_kind = None if is_jsonl(file) else _fast_graph_kind(file)
    if fast_kind is not None and kind in ("auto", fast_kind):
        kind, count = fast_kind, 1  # the fast reader vouched for it (as load_graph would)
    elif is_jsonl(file):
        try:
            for lineno, obj in iter_jsonl(file):
                k = guess_kind(obj) if kind == "auto" else kind
                kind = k
                try:
                    item = parse_model(KINDS[k], obj, file, lineno)
                except InputError as e:
                    errors.append(str(e))
                else:
                    count += 1
                    item_id = getattr(item, "id", None)
                    if isinstance(item_id, str):
                        if item_id in ids:
                            errors.append(f"{file}:{lineno}: id {item_id!r} repeats line "
                                          f"{ids[item_id]}")
                        ids.setdefault(item_id, lineno)
                if len(errors) >= max_errors:
                    break
        except InputError as e:
            errors.append(str(e))  # unreadable line: later lines cannot be trusted
    else:
        obj = _read_json(file)
        kind = guess_kind(obj) if kind == "auto" else kind
        try:
            parse_model(KINDS[kind], obj, file)
            count = 1
        except InputError as e:
            errors.append(str(e))
    if output == "json":
        click.echo(json.dumps({"file": file, "kind": kind, "valid": count, "errors": errors},
                              indent=2, ensure_ascii=False))
    else:
        for message in errors:
            click.echo(message, err=True)
        if not errors:
            click.echo(f"{file}: OK ({count} {kind} object{'s' if count != 1 else ''})")
    if errors:
        raise UserError(f"{file}: {len(errors)} error(s)")
