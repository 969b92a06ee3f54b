"""``factgraph view`` and ``factgraph report``: offline HTML files of fact graphs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import click

from factgraph.cli.files import ID_OPTION, load_one
from factgraph.graph.results import iter_evaluations
from factgraph.models import Evaluation


def _write(path: str, text: str) -> None:
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")


@click.command("view")
@click.argument("run", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "--out", "out", required=True, type=click.Path(dir_okay=False),
              metavar="FILE", help="The HTML file to write.")
@ID_OPTION
@click.option("--cluster-threshold", type=int, default=500, show_default=True,
              help="Above this many statements, group equivalent statements and uncovered "
                   "statements per source.")
@click.option("--judge-card", "judge_card", default=None, type=click.Path(dir_okay=False),
              help="A judge card (from factgraph meta-eval) to show beside the scores "
                   "(default: the one the Evaluation carries, if any).")
def view_cmd(run: str, out: str, evaluation_id: str | None, cluster_threshold: int,
             judge_card: str | None) -> None:
    """Write an interactive, offline view of RUN (a graph, an Evaluation, or a results JSONL)."""
    from factgraph.cli.judge_choice import check_card_of_evaluation
    from factgraph.evaluation.meta_eval import card_of, read_judge_card
    from factgraph.viz.view import render_view

    obj = load_one(run, evaluation_id)
    card = read_judge_card(judge_card) if judge_card else card_of(obj)
    if judge_card and card is not None and isinstance(obj, Evaluation):
        check_card_of_evaluation(card, judge_card, obj.parameters.get("judge"))
    page = render_view(obj, cluster_threshold=cluster_threshold)
    _write(out, with_judge_card(page, card.one_line()) if card else page)
    click.echo(json.dumps({"view": out, "statements": len(
        (obj.graph if isinstance(obj, Evaluation) else obj).statements)}))


JUDGE_CARD_ANCHOR = "<h2>Scores</h2>"


def with_judge_card(page: str, line: str) -> str:
    """The view page with the judge card's line (escaped) under the Scores heading."""
    import html

    block = f'<p class="fg-judge-card">{html.escape(line)}</p>'
    if JUDGE_CARD_ANCHOR in page:
        return page.replace(JUDGE_CARD_ANCHOR, JUDGE_CARD_ANCHOR + block, 1)
    return page.replace("<body>", "<body>" + block, 1)


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text)[:80] or "evaluation"


@click.command("report")
@click.argument("results", type=click.Path(dir_okay=False))
@click.option("-o", "--output", "--out", "out", required=True, type=click.Path(dir_okay=False),
              metavar="FILE", help="The HTML report to write (views go in a folder beside it).")
@click.option("--views/--no-views", default=True, show_default=True,
              help="Also write one graph view per evaluation, linked from the report.")
@click.option("--title", default="factgraph report", show_default=True)
@click.option("--judge-card", "judge_card", default=None, type=click.Path(dir_okay=False),
              help="A judge card (from factgraph meta-eval) to show beside the scores "
                   "(default: the one the evaluations carry, if any).")
def report_cmd(results: str, out: str, views: bool, title: str, judge_card: str | None) -> None:
    """Write an HTML report (tables, plots, basis lists) over RESULTS: an Evaluation JSONL, an
    Evaluation JSON, or bare fact graphs (read with their computed S)."""
    from factgraph.evaluation.meta_eval import card_of, read_judge_card
    from factgraph.viz.report import ReportBuilder, write_report
    from factgraph.viz.view import render_view

    given = read_judge_card(judge_card) if judge_card else None
    cards: dict[str, str] = {}

    # One pass over the file: each evaluation's view is written as it is read, and the report
    # keeps a small row per evaluation and the matrices' cell states, never the Evaluations.
    report = ReportBuilder()
    links: dict[str, str] = {}
    folder = Path(out).with_suffix("").name + "_views"
    used: set[str] = set()
    for ev in iter_evaluations(results):
        if views:
            name = _slug(ev.id)
            while name in used:
                name += "_"
            used.add(name)
            card = given or card_of(ev)
            page = render_view(ev)
            _write(str(Path(out).parent / folder / f"{name}.html"),
                   with_judge_card(page, card.one_line()) if card else page)
            links[ev.id] = f"{folder}/{name}.html"
        own = given or card_of(ev)
        if own is not None:
            cards.setdefault(own.one_line(), own.one_line())
        report.add(ev)
        del ev  # the loop variable would keep the last Evaluation alive while writing
    write_report(out, report, view_links=links, title=title, judge_cards=list(cards))
    click.echo(json.dumps({"report": out, "evaluations": len(report), "views": len(links)}))
