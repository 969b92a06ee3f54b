"""``factgraph meta-eval``: how well do comprehensiveness scores agree with human labels?"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from factgraph.cli.evaluate import common_options
from factgraph.cli.main import UserError
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


DEFAULT_WIKICONTRADICT = "../shared/data/wikicontradict/wiki_contradict_simple_humaneval.jsonl"


def _wikicontradict_path(given: str | None) -> Path:
    """``--data``, else ``$FACTGRAPH_DATA/wikicontradict/...``, else ``../shared/data/...``."""
    if given:
        return Path(given)
    root = os.environ.get("FACTGRAPH_DATA")
    path = (Path(root) / "wikicontradict" / Path(DEFAULT_WIKICONTRADICT).name if root
            else Path(DEFAULT_WIKICONTRADICT))
    if not path.exists():
        raise UserError(f"no WikiContradict file at {path}: pass --data PATH "
                        "(wiki_contradict_simple_humaneval.jsonl) or set FACTGRAPH_DATA")
    return path


@meta_eval_group.command("wikicontradict")
@click.option("--data", default=None, type=click.Path(dir_okay=False),
              help="wiki_contradict_simple_humaneval.jsonl (default: ../shared/data/...).")
@click.option("--sample", type=int, default=None,
              help="Evaluate a fixed random sample of this many (row, answer) items.")
@click.option("--sample-seed", type=int, default=0, show_default=True,
              help="Seed of the sample.")
@click.option("--results", "results_file", required=True, type=click.Path(dir_okay=False),
              help="Evaluations JSONL, appended item by item (reused with --resume).")
@click.option("--resume", is_flag=True, help="Keep finished items of --results; run the rest.")
@click.option("--resamples", type=int, default=10_000, show_default=True,
              help="Bootstrap resamples for the BCa intervals.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar (default: when stderr is a terminal).")
@click.option("--output", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@common_options
def wikicontradict_cmd(data: str | None, sample: int | None, sample_seed: int,
                       results_file: str, resume: bool, resamples: int, progress: bool | None,
                       output: str, **kw: Any) -> None:
    """Run a comprehensiveness method on WikiContradict answers and report the label match
    rate (strict and moderate, BCa 95% CI) against the human labels (seed 001 App. B)."""
    from factgraph.batch import BatchRunner, repair_and_read_ids
    from factgraph.cli.evaluate import build_evaluator
    from factgraph.io import read_jsonl
    from factgraph.models import Evaluation
    from factgraph.wikicontradict import load_items, sample_items, score_results

    method = kw.get("method") or "e2e"
    if method not in ("e2e", "qa", "nli"):
        raise UserError(f"--method {method}: WikiContradict meta-evaluates e2e, qa or nli")
    kw["method"] = method
    if sample is not None and sample < 1:
        raise UserError("--sample must be at least 1")
    items = sample_items(load_items(_wikicontradict_path(data)), sample, sample_seed)
    results = Path(results_file)
    done, _ = repair_and_read_ids(results) if resume else (set(), False)
    todo = [it for it in items if it.input.id not in done]
    summary = None
    if todo:
        evaluator = build_evaluator(kw)
        show = sys.stderr.isatty() if progress is None else progress
        try:
            summary = BatchRunner(evaluator, results, resume=resume, progress=show).run(
                [(it.input.id, it.input) for it in todo])
        except (FileExistsError, ValueError) as e:
            raise UserError(str(e)) from None
    evaluations = [ev for _, ev in read_jsonl(results, Evaluation)]
    if summary is not None and (summary.failed or summary.stopped_by_signal):
        raise UserError(f"{summary.failed} items failed"
                        + (f", stopped by {summary.stopped_by_signal}"
                           if summary.stopped_by_signal else "")
                        + f": see {results}.failures.jsonl, then rerun with --resume")
    try:
        result = score_results(method, items, evaluations, n_resamples=resamples)
    except ValueError as e:
        raise UserError(str(e)) from None
    if output == "json":
        click.echo(json.dumps(result.model_dump(mode="json"), indent=2))
        return
    console = make_console()
    table = Table(title=f"WikiContradict label match, method {method}, n={result.n}")
    for col in ("mapping", "LMR", "95% BCa CI"):
        table.add_column(col)
    for name, value, ci in (("strict", result.lmr_strict, result.lmr_strict_ci),
                            ("moderate", result.lmr_moderate, result.lmr_moderate_ci)):
        table.add_row(name, "-" if value is None else f"{value:.3f}",
                      f"{ci[0]:.3f}-{ci[1]:.3f}" if ci else "-")
    console.print(table)
    conf = Table(title="Confusion (rows: human label, columns: predicted, strict)")
    predicted = ["Correct", "Partially correct", "Incorrect", "undefined"]
    conf.add_column("human")
    for p in predicted:
        conf.add_column(p, justify="right")
    for human, row in result.confusion.items():
        conf.add_row(human, *(str(row.get(p, 0)) for p in predicted))
    console.print(conf)
    if result.undefined:
        console.print(f"{result.undefined} items had an undefined score (counted as mismatches)")
