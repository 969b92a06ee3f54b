"""``factgraph meta-eval``: how well do comprehensiveness scores agree with human labels?"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from rich.table import Table

from factgraph.cli.evaluate import common_options
from factgraph.cli.judge_choice import announce_auto
from factgraph.cli.main import UserError
from factgraph.cli.output import (
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
FORMATS = ("table", "json")


def run_options(resamples: int, unit: str) -> Callable[[Any], Any]:
    """The options a meta-evaluation run shares: --resume, --resamples, --progress, --format,
    -o/--output and the evaluation flags (common_options)."""
    decorators = [
        click.option("--resume", is_flag=True,
                     help=f"Keep finished {unit} of --results; run the rest."),
        click.option("--resamples", type=int, default=resamples, show_default=True,
                     help="Bootstrap resamples for the BCa intervals."),
        click.option("--progress/--no-progress", default=None,
                     help="Progress bar (default: when stderr is a terminal)."),
        format_option(FORMATS, "table", "Table or JSON."),
        output_option(FORMATS),
        common_options,
    ]

    def apply(f: Any) -> Any:
        for d in reversed(decorators):
            f = d(f)
        return f
    return apply


def run_missing(make_evaluator: Callable[[], Any], results: Path,
                items: Sequence[tuple[str, Any]], resume: bool, progress: bool | None,
                unit: str) -> None:
    """Evaluate the items ``results`` does not hold yet (with ``resume``; all of them
    without), appending each as it finishes; the evaluator is built only when there is work.
    Raises UserError naming the failures file when items failed or a signal stopped the run."""
    from factgraph.runners.batch import BatchRunner, repair_and_read_ids

    done, _ = repair_and_read_ids(results) if resume else (set(), False)
    todo = [(i, item) for i, item in items if i not in done]
    if not todo:
        return
    evaluator = make_evaluator()
    show = show_progress(progress)
    try:
        summary = BatchRunner(evaluator, results, resume=resume, progress=show).run(todo)
    except (FileExistsError, ValueError) as e:
        raise UserError(str(e)) from None
    if summary.failed or summary.stopped_by_signal:
        raise UserError(f"{summary.failed} {unit} failed"
                        + (f", stopped by {summary.stopped_by_signal}"
                           if summary.stopped_by_signal else "")
                        + f": see {results}.failures.jsonl, then rerun with --resume")


def needs_results(kw: dict[str, Any], results_file: str | None, resume: bool, score_only: bool,
                  card_file: str | None, unit: str) -> bool:
    """Whether a judge's results are read (``--results`` given); UserError for the flags that
    need ``--results`` without it."""
    if (kw.get("judge") or kw.get("method")) and not results_file:
        raise UserError(f"--results FILE is needed to evaluate the {unit} (and to resume)")
    if (resume or score_only or card_file) and not results_file:
        raise UserError("--resume, --score-only and --judge-card need --results FILE")
    return bool(results_file)


def run_judge(kw: dict[str, Any], results: Path,
              inputs: Callable[[], Sequence[tuple[str, Any]]], resume: bool,
              progress: bool | None, unit: str,
              check: Callable[[str], None] | None = None) -> None:
    """Evaluate the ``inputs`` that ``results`` lacks with the judge / method of ``kw``
    (``check(method)`` first, e.g. that it is meta-evaluable), appending to ``results``."""
    from factgraph.cli.evaluate import build_config, evaluator_of
    config = build_config(kw)
    if check is not None:
        check(config.method)
    rows = inputs()
    announce_auto(config, [inp for _, inp in rows])
    run_missing(lambda: evaluator_of(config), results, rows, resume, progress, unit)


def recorded_judge(evaluations: Sequence[Any]) -> str | None:
    """The judge's name the first Evaluation records (its method without one)."""
    if not evaluations:
        return None
    first = evaluations[0]
    return str(first.parameters.get("judge") or first.method)


def card_fields(evaluation: Any) -> dict[str, Any]:
    """A judge card's method, model, embedder, options and prompts, from one of its
    Evaluations."""
    from factgraph.evaluation.pairwise_report import embeddings_of

    first = evaluation.parameters
    return {"method": evaluation.method, "model": (first.get("models") or {}).get("text"),
            "options": {k: v for k, v in first.items()
                        if k not in ("models", "generation", "method", "prompts")},
            "prompts": first.get("prompts") or None,
            "embeddings": embeddings_of(evaluation)}


def _meta_evaluable(method: str, what: str) -> None:
    """UserError unless the registry marks ``method`` meta-evaluable (its main score is a
    comprehensiveness that human labels can be set against)."""
    from factgraph.methods import METHODS

    if not METHODS[method].meta_evaluable:
        # the default method first, then the others, the latest registered first
        names = sorted(reversed([m for m in METHODS if METHODS[m].meta_evaluable]),
                       key=lambda m: m != DEFAULT_METHOD)
        listed = ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]
        raise UserError(f"--method {method}: {what} {listed}")


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _ci(ci: tuple[float, float] | None, digits: int = 3) -> str:
    return f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]" if ci else "-"


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


def _data_path(given: str | None, default: str, what: str) -> Path:
    """``given``, else ``$FACTGRAPH_DATA/<folder>/<file>`` of ``default``, else ``default``
    (``../shared/data/...``); a one-line error naming ``what`` when none exists."""
    if given:
        return Path(given)
    root = os.environ.get("FACTGRAPH_DATA")
    path = Path(root) / Path(default).parent.name / Path(default).name if root else Path(default)
    if not path.exists():
        raise UserError(f"no {what} file at {path}: pass it ({Path(default).name}) or set "
                        "FACTGRAPH_DATA")
    return path


def _wikicontradict_path(given: str | None) -> Path:
    """``--data``, else ``$FACTGRAPH_DATA/wikicontradict/...``, else ``../shared/data/...``."""
    return _data_path(given, DEFAULT_WIKICONTRADICT, "WikiContradict")


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
    from factgraph.io import iter_evaluations

    if kw.get("judge") and not kw.get("method"):
        kw["method"] = build_config(kw).method  # the judge's method, read the one way
    method = kw.get("method") or DEFAULT_METHOD
    _meta_evaluable(method, "WikiContradict meta-evaluates")
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
    return _data_path(given, DEFAULT_PAIRWISE, "pairwise")


def _pct(value: float | None) -> str:
    return "undefined" if value is None else f"{100 * value:.2f}"


def _pct_ci(ci: tuple[float, float] | None) -> str:
    return f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else ""


@meta_eval_group.command("pairwise")
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
    from factgraph.io import iter_evaluations

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
                  lambda method: _meta_evaluable(method, "pairwise meta-evaluates"))
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


DEFAULT_FACTS = "../shared/data/realsumm/scu_presence_dev.jsonl.gz"


def _facts_path(given: str | None) -> Path:
    """FILE, else ``$FACTGRAPH_DATA/realsumm/...``, else ``../shared/data/realsumm/...``."""
    return _data_path(given, DEFAULT_FACTS, "fact-labels")


@meta_eval_group.command("facts")
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
    from factgraph.io import iter_evaluations

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
