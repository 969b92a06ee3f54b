"""What the meta-evaluation commands share: their run options, running a judge over
the items a results file lacks, the card fields read off an Evaluation, the data paths."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from factgraph.cli.evaluate import common_options
from factgraph.cli.judge_choice import announce_auto
from factgraph.cli.output import (
    UserError,
    format_option,
    output_option,
)
from factgraph.cli.progress import show_progress
from factgraph.config import DEFAULT_METHOD

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


def require_meta_evaluable(method: str, what: str) -> None:
    """UserError unless the registry marks ``method`` meta-evaluable (its main score is a
    comprehensiveness that human labels can be set against)."""
    from factgraph.methods import METHODS

    if not METHODS[method].meta_evaluable:
        # the default method first, then the others, the latest registered first
        names = sorted(reversed([m for m in METHODS if METHODS[m].meta_evaluable]),
                       key=lambda m: m != DEFAULT_METHOD)
        listed = ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else names[0]
        raise UserError(f"--method {method}: {what} {listed}")


def number_text(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def ci_text(ci: tuple[float, float] | None, digits: int = 3) -> str:
    return f"[{ci[0]:.{digits}f}, {ci[1]:.{digits}f}]" if ci else "-"


def data_path(given: str | None, default: str, what: str) -> Path:
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
