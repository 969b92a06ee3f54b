"""``factgraph meta-eval``: how well do comprehensiveness scores agree with human labels?"""

from __future__ import annotations

import json

import click
from rich.table import Table

from factgraph.cli.output import make_console
from factgraph.meta_eval import load_judgements, summarize_judgements


@click.group("meta-eval")
def meta_eval_group() -> None:
    """Meta-evaluate comprehensiveness metrics (seed 001 App. B)."""


@meta_eval_group.command("judgements")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--output", "-o", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@click.option("--resamples", type=int, default=10_000, show_default=True,
              help="Bootstrap resamples for the BCa interval.")
@click.option("--seed", type=int, default=42, show_default=True)
@click.option("--empty-score", type=click.Choice(["zero", "undefined"]), default="zero",
              show_default=True,
              help="Score of a row where the judge listed no statement: 0.0 as in IBM's runs, "
                   "or undefined (counted as a mismatch).")
def judgements_cmd(file: str, output: str, resamples: int, seed: int, empty_score: str) -> None:
    """Label match rate per judge of recorded end-to-end judgements (e.g. WikiContradict)."""
    rows = load_judgements(file)
    summaries = summarize_judgements(
        rows, empty_score=0.0 if empty_score == "zero" else None, n_resamples=resamples, seed=seed
    )
    if output == "json":
        click.echo(json.dumps([s.model_dump(mode="json") for s in summaries], indent=2))
        return
    table = Table(title=f"Label match rate (strict) of {len(rows)} judgements")
    for col in ("judge", "matches", "n", "LMR strict", "95% BCa CI", "LMR moderate", "empty"):
        table.add_column(col, justify="left" if col == "judge" else "right")
    for s in summaries:
        ci = s.lmr_strict_ci
        table.add_row(
            s.judge, str(s.matches), str(s.n), f"{s.lmr_strict:.6f}" if s.lmr_strict else "-",
            f"{ci[0]:.6f}-{ci[1]:.6f}" if ci else "-",
            f"{s.lmr_moderate:.6f}" if s.lmr_moderate is not None else "-", str(s.no_statements),
        )
    make_console().print(table)
