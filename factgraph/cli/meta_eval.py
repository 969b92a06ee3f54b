"""``factgraph meta-eval``: how well do comprehensiveness scores agree with human labels?"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from factgraph.cli.judge_choice import announce_auto
from factgraph.cli.meta_eval_facts import facts_cmd
from factgraph.cli.meta_eval_run import (
    FORMATS,
    card_fields,
    data_path,
    needs_results,
    recorded_judge,
    require_meta_evaluable,
    run_judge,
    run_missing,
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
    format_option,
    make_console,
    output_option,
    output_stream,
    read_output,
)
from factgraph.cli.progress import show_progress, step
from factgraph.config import DEFAULT_METHOD
from factgraph.evaluation.meta_eval import summarize_judgements


@click.group("meta-eval")
def meta_eval_group() -> None:
    """How far comprehensiveness scores can be trusted: agreement with WikiContradict's human
    labels (Dejl et al. 2025), chance-corrected; writes judge cards."""


SPLITS = click.Choice(["all", "dev", "test"])


@meta_eval_group.command("judgements")
@click.argument("file", type=click.Path(dir_okay=False))
@format_option(FORMATS, "table", "Table or JSON.")
@output_option(FORMATS)
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
def judgements_cmd(file: str, outputs: tuple[str, ...], fmt: str | None, resamples: int,
                   seed: int, empty_score: str,
                   split: str, cards_dir: str | None) -> None:
    """Agreement with the human labels of recorded end-to-end judgements (e.g. the five large
    judges' WikiContradict runs): label match rate (strict, moderate), Cohen's kappa and
    balanced accuracy with BCa 95% CIs, macro-F1, the majority-class baseline, per judge."""
    choice = read_output(outputs, fmt, FORMATS, "table")
    output = choice.format
    from factgraph.datasets.wikicontradict import load_split
    from factgraph.evaluation.meta_eval import JudgeCard, load_judgement_rows, write_judge_card

    rows = load_judgement_rows(file)
    if split != "all":
        keep = set(getattr(load_split(), f"{split}_rows"))
        rows = [r for r in rows if r.row in keep]
    with step(f"bootstrapping {resamples:,} resamples over {len(rows):,} judgements",
              show_progress(None)):
        summaries = summarize_judgements(
            rows, empty_score=0.0 if empty_score == "zero" else None, n_resamples=resamples,
            seed=seed)
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
    with output_stream(choice.file) as stream:
        if output == "json":
            click.echo(file=stream, message=json.dumps(
                [s.model_dump(mode="json") for s in summaries], indent=2))
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
        make_console(stream).print(table)


DEFAULT_WIKICONTRADICT = "../shared/data/wikicontradict/wiki_contradict_simple_humaneval.jsonl"


def _wikicontradict_path(given: str | None) -> Path:
    """``--data``, else ``$FACTGRAPH_DATA/wikicontradict/...``, else ``../shared/data/...``."""
    return data_path(given, DEFAULT_WIKICONTRADICT, "WikiContradict")


@meta_eval_group.command("wikicontradict", cls=MethodFlagsCommand)
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
@run_options(resamples=10_000, unit="items")
def wikicontradict_cmd(data: str | None, split: str, sample: int | None, sample_seed: int,
                       card_file: str | None, results_file: str, resume: bool, resamples: int,
                       progress: bool | None, outputs: tuple[str, ...], fmt: str | None,
                       **kw: Any) -> None:
    """Run a comprehensiveness method on WikiContradict's human-labelled answers and report
    its agreement with the labels: label match rate (strict, moderate), Cohen's kappa and
    balanced accuracy with BCa 95% CIs, macro-F1, the majority-class baseline and the
    confusion matrix, with and without the rows whose two contexts are the same text."""
    choice = read_output(outputs, fmt, FORMATS, "table")
    output = choice.format
    from factgraph.cli.evaluate import build_config, build_evaluator
    from factgraph.datasets.wikicontradict import (
        load_items,
        sample_items,
        score_results,
        split_items,
    )
    from factgraph.evaluation.meta_eval import JudgeCard, write_judge_card
    from factgraph.graph.results import iter_evaluations

    if kw.get("judge") and not kw.get("method"):
        kw["method"] = build_config(kw).method  # the judge's method, read the one way
    method = kw.get("method") or DEFAULT_METHOD
    require_meta_evaluable(method, "WikiContradict meta-evaluates")
    kw["method"] = method
    if sample is not None and sample < 1:
        raise UserError("--sample must be at least 1")
    try:
        pool = split_items(load_items(_wikicontradict_path(data)), split)  # type: ignore[arg-type]
    except ValueError as e:
        raise UserError(f"--split {split}: {e}") from None
    items = sample_items(pool, sample, sample_seed)
    announce_auto(build_config(kw), [it.input for it in items])
    results = Path(results_file)
    run_missing(lambda: build_evaluator(kw), results,
                [(it.input.id, it.input) for it in items], resume, progress, "items")
    # The results file is streamed: only the sampled items' evaluations are kept, without
    # their model-call traces (most of a line), so memory follows the sample, not the file.
    wanted = {it.input.id for it in items}
    evaluations = [ev.model_copy(update={"traces": []})
                   for ev in iter_evaluations(results) if ev.id in wanted]
    try:
        with step(f"bootstrapping {resamples:,} resamples over {len(evaluations):,} items",
                  show_progress(progress)):
            result = score_results(method, items, evaluations, n_resamples=resamples)
    except ValueError as e:
        raise UserError(str(e)) from None
    if card_file and result.agreement is not None:
        first = evaluations[0].parameters if evaluations else {}
        evaluator_options = {k: v for k, v in first.items()
                             if k not in ("models", "generation", "method", "prompts")}
        write_judge_card(JudgeCard.from_agreement(
            method=method, model=(kw.get("model") or "").split("@")[0] or None,
            options=evaluator_options, split=split, prompts=first.get("prompts"),
            a=result.agreement, undefined=result.undefined,
            lmr_strict_ci=result.lmr_strict_ci, lmr_moderate=result.lmr_moderate,
            note=None if sample is None else f"sample {sample} (sample seed {sample_seed})"),
            card_file)
    with output_stream(choice.file) as stream:
        if output == "json":
            click.echo(file=stream, message=json.dumps(result.model_dump(mode="json"), indent=2))
            return
        console = make_console(stream)
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
            console.print(f"{result.undefined} items had an undefined score (counted as "
                          "mismatches)")


DEFAULT_PAIRWISE = "../shared/data/ragchecker/meta_eval_dev.jsonl.gz"


def _pairwise_path(given: str | None) -> Path:
    """FILE, else ``$FACTGRAPH_DATA/ragchecker/...``, else ``../shared/data/ragchecker/...``."""
    return data_path(given, DEFAULT_PAIRWISE, "pairwise")


def _pct(value: float | None) -> str:
    return "undefined" if value is None else f"{100 * value:.2f}"


def _pct_ci(ci: tuple[float, float] | None) -> str:
    return f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else ""


@meta_eval_group.command("pairwise", cls=MethodFlagsCommand)
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--label", type=click.Choice(["completeness", "correctness", "overall"]),
              default="completeness", show_default=True,
              help="Which of the annotators' preference labels to agree with.")
@click.option("--background", type=click.Choice(["reference", "documents", "both"]),
              default="reference", show_default=True,
              help="Judge each answer against the reference answer, the instance's documents, "
                   "or both.")
@click.option("--results", "results_file", default=None, type=click.Path(dir_okay=False),
              help="Evaluations JSONL, appended answer by answer (reused with --resume). "
                   "Without --results, --judge and --method only the reference points print.")
@click.option("--score-only", is_flag=True,
              help="Run no model: score the answers --results already holds.")
@click.option("--sample", type=int, default=None,
              help="Only the first N instances of the file.")
@click.option("--judge-card", "card_file", default=None, type=click.Path(dir_okay=False),
              help="Write the pairwise judge card (every row, cost, options) here.")
@click.option("--split", default="dev", show_default=True,
              help="Name of the file's part, recorded in the card.")
@run_options(resamples=2_000, unit="answers")
def pairwise_cmd(file: str | None, label: str, background: str, results_file: str | None,
                 resume: bool, score_only: bool, sample: int | None, card_file: str | None,
                 split: str, resamples: int, progress: bool | None,
                 outputs: tuple[str, ...], fmt: str | None,
                 **kw: Any) -> None:
    """Agreement with pairwise human preferences between two long-form answers (RAGChecker's
    meta-evaluation format; `factgraph schema pairwise`): each answer is evaluated against the
    reference answer, and score(model2) − score(model1) is set against each annotator's label —
    Pearson and Spearman (the paper's protocol), Kendall's τ-b and pairwise accuracy on the
    pairs the annotators did not tie, with BCa 95% intervals over instances — beside the
    lexical and length baselines, RAGChecker's recorded scores and the annotators' agreement
    with each other, on the same instances."""
    choice = read_output(outputs, fmt, FORMATS, "table")
    output = choice.format
    from factgraph.datasets.pairwise import load_pairwise
    from factgraph.evaluation.pairwise_report import (
        SIDES,
        PairwiseCard,
        pairwise_inputs,
        pairwise_report,
        response_id,
        write_pairwise_card,
    )
    from factgraph.graph.results import iter_evaluations

    path = _pairwise_path(file)
    instances = load_pairwise(path)
    if sample is not None:
        if sample < 1:
            raise UserError("--sample must be at least 1")
        instances = instances[:sample]
    judged = needs_results(kw, results_file, resume, score_only, card_file, "answers")

    def inputs() -> list[tuple[str, Any]]:
        try:
            return pairwise_inputs(instances, background)  # type: ignore[arg-type]
        except ValueError as e:
            raise UserError(str(e)) from None

    if judged and not score_only:
        run_judge(kw, Path(results_file or ""), inputs, resume, progress, "answers",
                  lambda method: require_meta_evaluable(method, "pairwise meta-evaluates"))
    evaluations = None
    judge_name = kw.get("judge") or None
    if judged:
        wanted = {response_id(inst, side) for inst in instances for side in SIDES}
        evaluations = [ev.model_copy(update={"graph": ev.graph.model_copy(
                           update={"statements": [], "relations": []})})
                       for ev in iter_evaluations(results_file or "") if ev.id in wanted]
        judge_name = judge_name or recorded_judge(evaluations)
    with step(f"bootstrapping {resamples:,} resamples over {len(instances):,} instances",
              show_progress(progress)):
        report = pairwise_report(instances, label, evaluations,  # type: ignore[arg-type]
                                 judge=judge_name or ("judge" if judged else None),
                                 n_resamples=resamples)
    if card_file and evaluations:
        card = PairwiseCard(
            judge=report.judge or "judge", **card_fields(evaluations[0]),
            dataset=f"{path.name} (pairwise preferences)", split=split,
            label=label, report=report,
            note=None if sample is None else f"first {sample} instances")
        write_pairwise_card(card, card_file)
    with output_stream(choice.file) as stream:
        if output == "json":
            click.echo(file=stream, message=json.dumps(report.model_dump(mode="json"), indent=2))
            return
        console = make_console(stream)
        title = (f"Agreement with the annotators' {label} preferences: {report.instances} of "
                 f"{report.of_instances} instances (Pearson, Spearman, Kendall's τ-b x100; BCa "
                 f"95% CI over instances)")
        table = Table(title=title)
        for col in ("scorer", "Pearson", "Spearman", "Kendall τ-b", "pairwise acc.", "rows",
                    "undefined"):
            table.add_column(col, justify="left" if col == "scorer" else "right")
        for r in report.rows:
            table.add_row(r.scorer, _pct(r.pearson) + _pct_ci(r.pearson_ci),
                          _pct(r.spearman) + _pct_ci(r.spearman_ci),
                          _pct(r.kendall_tau_b) + _pct_ci(r.kendall_tau_b_ci),
                          _num(r.pairwise_accuracy) + (f" {_ci(r.pairwise_accuracy_ci, 2)}"
                                                       if r.pairwise_accuracy_ci else ""),
                          str(r.rows), str(r.undefined))
        console.print(table)
        if report.cost is not None:
            c = report.cost
            console.print(f"cost per instance (two answers): {c.calls:.1f} model calls, "
                          f"{c.generated_tokens:.1f} generated tokens, {c.model_seconds:.1f} model "
                          "seconds")


meta_eval_group.add_command(facts_cmd)
