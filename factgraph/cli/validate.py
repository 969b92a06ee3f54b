"""``factgraph validate FILE``: check an input, graph or results file without running anything."""

from __future__ import annotations

import difflib
import json
import zlib
from typing import Any

import click
from pydantic import BaseModel, ValidationError

from factgraph.cli.output import UserError, format_option, output_option, output_stream, read_output
from factgraph.errors import InputError
from factgraph.inputs import EvaluationInput
from factgraph.io import is_jsonl, iter_jsonl, read_bytes, read_json
from factgraph.models import Evaluation, FactGraph

KINDS: dict[str, type[BaseModel]] = {
    "inputs": EvaluationInput,
    "results": Evaluation,
    "graph": FactGraph,
}


FORMATS = ("table", "json")


def validation_messages(err: ValidationError) -> list[str]:
    """Every error of a pydantic ValidationError as ``field.path: message``, one per entry.

    A key the format does not know is named as such, with the missing key it most likely
    misspells (``statements.0.txt: unknown key (did you mean 'text'?)``)."""
    errors = err.errors()
    missing: dict[tuple[Any, ...], list[str]] = {}
    for e in errors:
        loc = tuple(e.get("loc", ()))
        if e.get("type") == "missing" and loc:
            missing.setdefault(loc[:-1], []).append(str(loc[-1]))
    out = []
    for e in errors:
        loc = tuple(e.get("loc", ()))
        where = ".".join(str(p) for p in loc)
        if e.get("type") == "extra_forbidden" and loc:
            close = difflib.get_close_matches(str(loc[-1]), missing.get(loc[:-1], []), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            out.append(f"{where}: unknown key{hint}")
            continue
        msg = str(e.get("msg", "invalid")).replace("\n", " ").removeprefix("Value error, ")
        out.append(f"{where}: {msg}" if where else msg)
    return out


def check_object(model: type[BaseModel], obj: Any, file: str,
                 line: int | None = None) -> tuple[BaseModel | None, list[str]]:
    """Validate one object: the model, or None and every error, each prefixed with the file
    (and line) as :class:`factgraph.errors.InputError` words it."""
    try:
        return model.model_validate(obj), []
    except ValidationError as e:
        return None, [str(InputError(file, m, line=line)) for m in validation_messages(e)]


# keys that more than one format has: they tell nothing about which one a file is
_SHARED_KEYS = frozenset({"id", "query", "metadata", "model", "response_id"})


def guess_kind(obj: Any) -> str:
    """Which file format an object belongs to, from its keys: the format whose fields its keys
    name, a misspelt key counting for the field it most likely means (``respones`` is
    ``response``: an inputs row, not a graph with three unknown keys)."""
    if not isinstance(obj, dict):
        return "graph"
    if "method" in obj and "graph" in obj:
        return "results"
    scores = {kind: _key_score(obj, model) for kind, model in KINDS.items()}
    best = max(scores.values())
    if best == 0:
        return "graph"
    # ties go to the more specific format (inputs before graph before results)
    return next(k for k in ("inputs", "graph", "results") if scores[k] == best)


def _key_score(obj: dict[str, Any], model: type[BaseModel]) -> float:
    """How well an object's keys name a format's fields: 1 a field, ½ a likely misspelling of
    one, 0 otherwise; keys every format has (id, query, metadata) do not count."""
    fields = [f for f in model.model_fields if f not in _SHARED_KEYS]
    score = 0.0
    for key in obj:
        if key in _SHARED_KEYS:
            continue
        if key in fields:
            score += 1
        elif difflib.get_close_matches(str(key), fields, n=1, cutoff=0.8):
            score += 0.5
    return score


def _fast_graph_kind(file: str) -> str | None:
    """"graph" / "results" when the fast reader accepts FILE as a FactGraph / an Evaluation
    (large graph files validate at the speed of the JSON parser); None: take the usual path."""
    from factgraph.graph.file import decode_graph_file

    try:
        data = read_bytes(file)
    except (OSError, EOFError, zlib.error):
        return None
    decoded = decode_graph_file(data)
    return None if decoded is None else decoded[0]


@click.command("validate")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--kind", type=click.Choice(["auto", *sorted(KINDS)]), default="auto",
              show_default=True, help="File format; auto guesses from the first object.")
@click.option("--max-errors", type=int, default=20, show_default=True,
              help="Stop after this many errors.")
@format_option(FORMATS, "table", "table: the errors, one a line; json: one report object.")
@output_option(FORMATS)
def validate_cmd(file: str, kind: str, max_errors: int, fmt: str | None,
                 outputs: tuple[str, ...]) -> None:
    """Check FILE (inputs JSONL, results JSONL, or a graph / evaluation JSON). Exit 2 if bad.

    Every error of an object is listed (a misspelt key as an unknown key beside the field it
    leaves missing)."""
    choice = read_output(outputs, fmt, FORMATS, "table")
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
                item, found = check_object(KINDS[k], obj, file, lineno)
                errors += found
                if item is not None:
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
        obj = read_json(file)
        kind = guess_kind(obj) if kind == "auto" else kind
        item, errors = check_object(KINDS[kind], obj, file)
        count = 0 if item is None else 1
    errors = errors[:max_errors]
    with output_stream(choice.file) as stream:
        if choice.format == "json":
            click.echo(json.dumps({"file": file, "kind": kind, "valid": count,
                                   "errors": errors}, indent=2, ensure_ascii=False),
                       file=stream)
        elif choice.file is not None:
            for message in errors:
                click.echo(message, file=stream)
            click.echo(_summary_line(file, kind, count, errors), file=stream)
        else:
            for message in errors:
                click.echo(message, err=True)
            if not errors:
                click.echo(_summary_line(file, kind, count, errors))
    if errors:
        raise UserError(f"{file}: {len(errors)} error(s)")


def _summary_line(file: str, kind: str, count: int, errors: list[str]) -> str:
    """The last line of the table report."""
    if errors:
        return f"{file}: {len(errors)} error(s)"
    return f"{file}: OK ({count} {kind} object{'s' if count != 1 else ''})"
