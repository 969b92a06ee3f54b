"""``factgraph cache stats | clear``: the model-call cache."""

from __future__ import annotations

import json

import click

from factgraph.backends.cache import CallCache
from factgraph.cli.output import format_option, output_option, output_stream, read_output

FORMATS = ("table", "json")

PATH = click.option(
    "--path", default=None, type=click.Path(dir_okay=False),
    help="Cache file (default: $FACTGRAPH_CACHE or ~/.cache/factgraph/calls.sqlite)",
)


@click.group("cache")
def cache_group() -> None:
    """The SQLite cache of model calls."""


@cache_group.command("stats")
@PATH
@format_option(FORMATS, "table", "Human lines or machine-readable JSON.")
@output_option(FORMATS)
def stats_cmd(path: str | None, fmt: str | None, outputs: tuple[str, ...]) -> None:
    """Calls stored, cache hits served, size, calls per engine:model."""
    choice = read_output(outputs, fmt, FORMATS, "table")
    cache = CallCache(path)
    stats = cache.stats()
    cache.close()
    if choice.format == "json":
        text = stats.model_dump_json(indent=2)
    else:
        text = "\n".join([f"{stats.path}: {stats.calls} calls, {stats.hits} hits served, "
                          f"{stats.bytes / 1e6:.1f} MB",
                          *(f"  {model}: {n}" for model, n in stats.by_model.items())])
    with output_stream(choice.file) as stream:
        click.echo(text, file=stream)


@cache_group.command("clear")
@PATH
@click.option("--model", default=None, help="Only calls to this model.")
@click.confirmation_option(prompt="Delete the cached calls?")
def clear_cmd(path: str | None, model: str | None) -> None:
    """Delete cached calls (all, or one model's)."""
    cache = CallCache(path)
    n = cache.clear(model)
    cache.close()
    click.echo(json.dumps({"deleted": n}))
