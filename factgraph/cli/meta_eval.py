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
from factgraph.meta_eval import summarize_judgements


@click.group("meta-eval")
def meta_eval_group() -> None:
    """How far comprehensiveness scores can be trusted: agreement with WikiContradict's human
    labels (Dejl et al. 2025), chance-corrected; writes judge cards."""


SPLITS = click.Choice(["all", "dev", "test"])


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ci(ci: tuple[float, float] | None, digits: int = 3) -> str:
    return f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]" if ci else "-"


@meta_eval_group.command("judgements")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--output", "-o", type=click.Choice(["table", "json"]), default="table",
              show_default=True)
@click.option("--resamples", type=int, default=10_000, show_default=True,
              help="Bootstrap resamples for the BCa intervals.")
@click.option("--seed", type=int, default=42, show_default=True,
              help="Seed of the bootstrap resampling.")
@click.option("--empty-score", type=click.Choice(["zero", "undefined"]), default="zero",
              show_default=True,
              help="Score of a row where the judge listed no statement: 0.0 as in IBM's runs, "
                   "or undefined (counted as a mismatch).")
@click.option("--split", type=SPLITS, default="all", show_default=True,
              help="Score only the dev or test rows of the shipped WikiContradict split.")
@click.option("--judge-cards", "cards_dir", default=None, type=click.Path(file_okay=False),
              help="Write one judge card (JSON) per judge into this folder.")
def judgements_cmd(file: str, output: str, resamples: int, seed: int, empty_score: str,
                   split: str, cards_dir: str | None) -> None:
    """Agreement with the human labels of recorded end-to-end judgements (e.g. the five large
    judges' WikiContradict runs): label match rate (strict, moderate), Cohen's kappa and
    balanced accuracy with BCa 95% CIs, macro-F1, the majority-class baseline, per judge."""
    from factgraph.meta_eval import JudgeCard, load_judgement_rows, write_judge_card
    from factgraph.wikicontradict import load_split

    rows = load_judgement_rows(file)
    if split != "all":
        keep = set(getattr(load_split(), f"{split}_rows"))
        rows = [r for r in rows if r.row in keep]
    summaries = summarize_judgements(
        rows, empty_score=0.0 if empty_score == "zero" else None, n_resamples=resamples, seed=seed
    )
    if cards_dir:
        Path(cards_dir).mkdir(parents=True, exist_ok=True)
        for s in summaries:
            if s.agreement is None:
                continue
            card = JudgeCard.from_agreement(
                method="e2e (recorded)", model=s.judge, options={"empty_score": empty_score},
                split=split, a=s.agreement, lmr_strict_ci=s.lmr_strict_ci,
                lmr_moderate=s.lmr_moderate, note=f"replayed from {Path(file).name}")
            safe = "".join(c if c.isalnum() or c in "-._" else "_" for c in s.judge)
            write_judge_card(card, Path(cards_dir) / f"{safe}.json")
    if output == "json":
        click.echo(json.dumps([s.model_dump(mode="json") for s in summaries], indent=2))
        return
    table = Table(title=f"Agreement with human labels of {len(rows)} judgements "
                        f"(split {split}; strict mapping)")
    for col in ("judge", "n", "LMR strict [95% CI]", "LMR moderate", "kappa [95% CI]",
                "balanced acc. [95% CI]", "macro-F1", "majority baseline", "empty"):
        table.add_column(col, justify="left" if col == "judge" else "right")
    for s in summaries:
        a = s.agreement
        table.add_row(
            s.judge, str(s.n), f"{_num(s.lmr_strict)} {_ci(s.lmr_strict_ci)}",
            _num(s.lmr_moderate),
            f"{_num(a.kappa)} {_ci(a.kappa_ci)}" if a else "-",
            f"{_num(a.balanced_accuracy)} {_ci(a.balanced_accuracy_ci)}" if a else "-",
            _num(a.macro_f1) if a else "-", _num(a.majority_baseline) if a else "-",
            str(s.no_statements))
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
@click.option("--split", type=SPLITS, default="all", show_default=True,
              help="Items of the shipped dev / test split (by question); tune on dev, report "
                   "test.")
@click.option("--sample", type=int, default=None,
              help="Evaluate a fixed random sample of this many (row, answer) items.")
@click.option("--sample-seed", type=int, default=0, show_default=True,
              help="Seed of the sample.")
@click.option("--judge-card", "card_file", default=None, type=click.Path(dir_okay=False),
              help="Write the judge card (method, model, options, split, n, agreement) here.")
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
def wikicontradict_cmd(data: str | None, split: str, sample: int | None, sample_seed: int,
                       card_file: str | None, results_file: str, resume: bool, resamples: int,
                       progress: bool | None, output: str, **kw: Any) -> None:
    """Run a comprehensiveness method on WikiContradict's human-labelled answers and report
    its agreement with the labels: label match rate (strict, moderate), Cohen's kappa and
    balanced accuracy with BCa 95% CIs, macro-F1, the majority-class baseline and the
    confusion matrix, with and without the rows whose two contexts are the same text."""
    from factgraph.batch import BatchRunner, repair_and_read_ids
    from factgraph.cli.evaluate import build_evaluator
    from factgraph.io import iter_evaluations
    from factgraph.meta_eval import JudgeCard, write_judge_card
    from factgraph.wikicontradict import load_items, sample_items, score_results, split_items

    method = kw.get("method") or "e2e"
    if method not in ("e2e", "qa", "nli"):
        raise UserError(f"--method {method}: WikiContradict meta-evaluates e2e, qa or nli")
    kw["method"] = method
    if sample is not None and sample < 1:
        raise UserError("--sample must be at least 1")
    try:
        pool = split_items(load_items(_wikicontradict_path(data)), split)  # type: ignore[arg-type]
    except ValueError as e:
        raise UserError(f"--split {split}: {e}") from None
    items = sample_items(pool, sample, sample_seed)
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
    # The results file is streamed: only the sampled items' evaluations are kept, without
    # their model-call traces (most of a line), so memory follows the sample, not the file.
    wanted = {it.input.id for it in items}
    evaluations = [ev.model_copy(update={"traces": []})
                   for ev in iter_evaluations(results) if ev.id in wanted]
    if summary is not None and (summary.failed or summary.stopped_by_signal):
        raise UserError(f"{summary.failed} items failed"
                        + (f", stopped by {summary.stopped_by_signal}"
                           if summary.stopped_by_signal else "")
                        + f": see {results}.failures.jsonl, then rerun with --resume")
    try:
        result = score_results(method, items, evaluations, n_resamples=resamples)
    except ValueError as e:
        raise UserError(str(e)) from None
    if card_file and result.agreement is not None:
        evaluator_options = {k: v for k, v in (evaluations[0].parameters if evaluations
                                               else {}).items()
                             if k not in ("models", "generation", "method")}
        write_judge_card(JudgeCard.from_agreement(
            method=method, model=(kw.get("model") or "").split("@")[0] or None,
            options=evaluator_options, split=split,
            a=result.agreement, undefined=result.undefined,
            lmr_strict_ci=result.lmr_strict_ci, lmr_moderate=result.lmr_moderate,
            note=None if sample is None else f"sample {sample} (sample seed {sample_seed})"),
            card_file)
    if output == "json":
        click.echo(json.dumps(result.model_dump(mode="json"), indent=2))
        return
    console = make_console()
    table = Table(title=f"WikiContradict agreement, method {method}, split {split}, "
                        f"n={result.n}")
    for col in ("items", "n", "LMR strict [95% CI]", "LMR moderate", "kappa [95% CI]",
                "balanced acc. [95% CI]", "macro-F1", "majority baseline"):
        table.add_column(col, justify="left" if col == "items" else "right")
    for name, r in (("all", result), ("distinct contexts", result.without_same_contexts)):
        if r is None or r.agreement is None:
            continue
        a = r.agreement
        table.add_row(name, str(r.n), f"{_num(r.lmr_strict)} {_ci(r.lmr_strict_ci)}",
                      _num(r.lmr_moderate), f"{_num(a.kappa)} {_ci(a.kappa_ci)}",
                      f"{_num(a.balanced_accuracy)} {_ci(a.balanced_accuracy_ci)}",
                      _num(a.macro_f1), _num(a.majority_baseline))
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
