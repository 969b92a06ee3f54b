"""`factgraph meta-eval facts`: a judge's per-fact verdicts against people's presence labels."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from factgraph.cli.meta_eval_run import (
    FORMATS,
    card_fields,
    data_path,
    needs_results,
    recorded_judge,
    run_judge,
    run_options,
)
from factgraph.cli.meta_eval_run import (
    ci_text as _ci,
)
from factgraph.cli.meta_eval_run import (
    number_text as _num,
)
from factgraph.cli.method_flags import MethodFlagsCommand
from factgraph.cli.output import (
    UserError,
    make_console,
    output_stream,
    read_output,
)

DEFAULT_FACTS = "../shared/data/realsumm/scu_presence_dev.jsonl.gz"


def _facts_path(given: str | None) -> Path:
    """FILE, else ``$FACTGRAPH_DATA/realsumm/...``, else ``../shared/data/realsumm/...``."""
    return data_path(given, DEFAULT_FACTS, "fact-labels")


@click.command("facts", cls=MethodFlagsCommand)
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--results", "results_file", default=None, type=click.Path(dir_okay=False),
              help="Evaluations JSONL, appended summary by summary (reused with --resume). "
                   "Without --results, --judge and --method only the reference points print.")
@click.option("--score-only", is_flag=True,
              help="Run no model: score the summaries --results already holds.")
@click.option("--articles", "n_docs", type=int, default=None,
              help="Only the summaries of the first K articles (doc ids in sorted order).")
@click.option("--limit", type=int, default=None,
              help="Only the first N summaries (file order, after --articles).")
@click.option("--judge-card", "card_file", default=None, type=click.Path(dir_okay=False),
              help="Write the fact-level judge card (every row, cost, options) here.")
@click.option("--split", default="dev", show_default=True,
              help="Name of the file's part, recorded in the card.")
@run_options(resamples=2_000, unit="summaries")
def facts_cmd(file: str | None, results_file: str | None, score_only: bool,
              n_docs: int | None, limit: int | None, card_file: str | None, split: str,
              resume: bool, resamples: int, progress: bool | None, outputs: tuple[str, ...],
              fmt: str | None, **kw: Any) -> None:
    """Agreement of a judge's per-fact decisions with people's labels (the fact-labels format;
    `factgraph schema facts`; default: REALSumm's dev SCUs): each summary is evaluated with its
    facts as given facts, and each fact's verdict — covered, contradicted (counted as not
    present, and reported on its own) or missing — is set against the people's present label:
    accuracy, balanced accuracy, Cohen's kappa, precision / recall / F1 of "missing", with BCa
    95% intervals resampling articles; per summary, the share covered against the people's
    share (Pearson; Kendall per article across systems; system level). Beside the judge, on
    the same facts: the word share of the fact at 0.3 and at its best cut-off (optimistic),
    and the people's own agreement (the first annotator against the second)."""
    choice = read_output(outputs, fmt, FORMATS, "table")
    from factgraph.datasets.fact_labels import load_fact_labels, select_rows
    from factgraph.evaluation.facts_report import (
        FactsCard,
        JudgedFacts,
        fact_verdicts,
        facts_inputs,
        facts_report,
        write_facts_card,
    )
    from factgraph.graph.results import iter_evaluations

    for name, value in (("--articles", n_docs), ("--limit", limit)):
        if value is not None and value < 1:
            raise UserError(f"{name} must be at least 1")
    path = _facts_path(file)
    rows = select_rows(load_fact_labels(path), n_docs, limit)
    judged = needs_results(kw, results_file, resume, score_only, card_file, "summaries")
    if judged and not score_only:
        run_judge(kw, Path(results_file or ""), lambda: facts_inputs(rows), resume, progress,
                  "summaries")
    verdicts: dict[str, JudgedFacts] | None = None
    evaluations = []
    judge_name = kw.get("judge") or None
    if judged:
        wanted = {r.row_id for r in rows}
        verdicts = {}
        for ev in iter_evaluations(results_file or ""):
            if ev.id not in wanted:
                continue
            verdicts[ev.id] = fact_verdicts(ev)  # the graph is read here, then dropped
            evaluations.append(ev.model_copy(update={"graph": ev.graph.model_copy(
                update={"statements": [], "relations": []})}))
        judge_name = judge_name or recorded_judge(evaluations)
    report = facts_report(rows, verdicts, judge=judge_name or ("judge" if judged else None),
                          evaluations=evaluations, n_resamples=resamples)
    if card_file and evaluations:
        selected = ", ".join(x for x in (f"first {n_docs} articles" if n_docs else "",
                                         f"first {limit} summaries" if limit else "") if x)
        write_facts_card(FactsCard(judge=report.judge or "judge",
                                   **card_fields(evaluations[0]),
                                   dataset=f"{path.name} (fact presence labels)", split=split,
                                   report=report, note=selected or None), card_file)
    with output_stream(choice.file) as stream:
        if choice.format == "json":
            click.echo(file=stream, message=json.dumps(report.model_dump(mode="json"), indent=2))
            return
        _print_facts_report(report, make_console(stream))


def _with_ci(value: float | None, ci: tuple[float, float] | None) -> str:
    """``0.292 [0.229, 0.352]``, or the value alone without an interval."""
    return f"{_num(value)} {_ci(ci)}" if ci else _num(value)


def _print_facts_report(report: Any, console: Any) -> None:
    """The two tables of ``meta-eval facts`` and the judge's cost per fact."""
    title = (f"Per fact: agreement with people's present / not-present labels, {report.facts} "
             f"facts of {report.summaries} summaries, {report.articles} articles "
             f"({_num(report.present_share)} present); \"missing\" is the positive class; "
             "BCa 95% CI resampling articles")
    table = Table(title=title)
    for col in ("scorer", "facts", "accuracy", "balanced acc.", "kappa [95% CI]",
                "precision missing", "recall missing [95% CI]", "F1 missing", "contradicted"):
        table.add_column(col, justify="left" if col == "scorer" else "right")
    for r in report.rows:
        wrong = "-" if r.contradicted is None else (
            f"{r.contradicted}" + ("" if r.contradicted_not_present is None else
                                   f" ({_num(r.contradicted_not_present, 2)} not present)"))
        table.add_row(r.scorer, str(r.facts), _num(r.accuracy), _num(r.balanced_accuracy),
                      _with_ci(r.kappa, r.kappa_ci), _num(r.precision_missing),
                      _with_ci(r.recall_missing, r.recall_missing_ci),
                      _num(r.f1_missing), wrong)
    console.print(table)
    console.print("word share: the share of the fact's content words found in the summary; "
                  "optimistic: the cut-off of 0.1 … 0.9 with the best kappa on these rows; "
                  "people: the first annotator's vote against the second's")
    if report.undefined:
        console.print(f"{report.undefined} facts the judge left undecided are left out of "
                      "every row")
    if report.cost is not None:
        c = report.cost
        console.print(f"cost per fact: {c.calls:.2f} model calls, {c.generated_tokens:.1f} "
                      f"generated tokens, {c.model_seconds:.2f} model seconds")
    table = Table(title=f"Per summary: share of facts covered against the people's share, "
                        f"{report.summaries} summaries (Kendall per article: mean τ-b across "
                        "systems, BCa 95% CI over articles)")
    for col in ("scorer", "Pearson", "Kendall per article [95% CI]", "articles",
                "system Pearson", "system Kendall", "systems"):
        table.add_column(col, justify="left" if col == "scorer" else "right")
    for r in report.summary_rows:
        table.add_row(r.scorer, _num(r.pearson),
                      _with_ci(r.kendall_per_article, r.kendall_per_article_ci),
                      str(r.articles_ranked), _num(r.system_pearson), _num(r.system_kendall),
                      str(r.systems))
    console.print(table)
