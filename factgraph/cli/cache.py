"""``factgraph cache stats | clear``: the model-call cache."""

from __future__ import annotations

import json

import click

from factgraph.backends.cache import CallCache

PATH = click.option(
    "--path", default=None, type=click.Path(dir_okay=False),
    help="Cache file (default: $FACTGRAPH_CACHE or ~/.cache/factgraph/calls.sqlite)",
)


@click.group("cache")
def cache_group() -> None:
    """The SQLite cache of model calls."""


@cache_group.command("stats")
@PATH
@click.option("--output", "-o", type=click.Choice(["table", "json"]), default="table")
def stats_cmd(path: str | None, output: str) -> None:
    """Calls stored, cache hits served, size, calls per engine:model."""
    cache = CallCache(path)
    stats = cache.stats()
    cache.close()
    if output == "json":
        click.echo(stats.model_dump_json(indent=2))
        return
    click.echo(f"{stats.path}: {stats.calls} calls, {stats.hits} hits served, "
               f"{stats.bytes / 1e6:.1f} MB")
    for model, n in stats.by_model.items():
        click.echo(f"  {model}: {n}")


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
