"""``factgraph judges``: the named judges, what each needs, and what its cards measured."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from factgraph.cli.output import (
    format_option,
    make_console,
    output_option,
    output_stream,
    read_output,
)

# docs/judge_cards/ of a source checkout (cards are documentation, not package data)
CARDS = Path(__file__).resolve().parents[2] / "docs" / "judge_cards"


def _headline(path: Path) -> dict[str, Any] | None:
    """The agreement and cost a card records, or None when the card is not there."""
    from factgraph.evaluation.facts_report import FACTS_CARD_KIND
    from factgraph.evaluation.pairwise_report import graded_row, headline_scorer

    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("kind") == "factgraph pairwise judge card":
        report = data["report"]
        rows = {r["scorer"]: r for r in report["rows"]}
        name = headline_scorer(report["judge"], list(rows))
        row = None if name is None else rows[name]
        cost = report.get("cost") or {}
        return {"card": path.name, "dataset": data["dataset"], "split": data["split"],
                "n": report["instances"], "label": data["label"],
                "score": "expected coverage" if name == graded_row(report["judge"]) else "S",
                "pearson": row and row["pearson"], "spearman": row and row["spearman"],
                "calls_per_instance": cost.get("calls"),
                "model_seconds_per_instance": cost.get("model_seconds")}
    if data.get("kind") == FACTS_CARD_KIND:  # per fact: n counts facts
        report = data["report"]
        row = next((r for r in report["rows"] if r["scorer"] == report["judge"]), None)
        cost = report.get("cost") or {}
        return {"card": path.name, "dataset": data["dataset"], "split": data["split"],
                "n": report["facts"], "kappa": row and row["kappa"],
                "kappa_ci": row and row["kappa_ci"], "calls_per_fact": cost.get("calls"),
                "model_seconds_per_fact": cost.get("model_seconds"), "note": data.get("note")}
    return {"card": path.name, "dataset": data.get("dataset"), "split": data.get("split"),
            "n": data.get("n"), "kappa": data.get("kappa"), "kappa_ci": data.get("kappa_ci")}


def _agreement(card: dict[str, Any]) -> str:
    if "kappa" in card:
        k = card["kappa"]
        note = f"; {card['note']}" if card.get("note") else ""  # "in-sample for …" shows
        return "-" if k is None else f"κ {k:.3f} ({card['split']}, n={card['n']}{note})"
    p, s = card.get("pearson"), card.get("spearman")
    if p is None or s is None:
        return "undefined"
    by = " by expected coverage" if card.get("score") == "expected coverage" else ""
    return (f"Pearson / Spearman {100 * p:.1f} / {100 * s:.1f}{by} ({card['split']}, "
            f"n={card['n']} pairs)")


@click.command("judges")
@format_option(("table", "json"), "table", "Table or JSON.")
@output_option(("table", "json"))
@click.option("--cards", "cards_dir", default=None, type=click.Path(file_okay=False),
              help="Folder of judge cards (default: docs/judge_cards of this checkout).")
def judges_cmd(fmt: str | None, outputs: tuple[str, ...], cards_dir: str | None) -> None:
    """List the named judges (`--judge NAME` in evaluate, batch and meta-eval): method,
    options, whether they need a text model, the kind of input they are the default for, and
    their cards' agreement with people and cost."""
    from factgraph.methods.judges import DEFAULT_JUDGES, JUDGES

    folder = Path(cards_dir) if cards_dir else CARDS
    defaults = {name: kind for kind, name in DEFAULT_JUDGES.items()}
    rows = []
    for judge in JUDGES.values():
        cards = [c for c in (_headline(folder / name) for name in judge.cards) if c]
        rows.append({**judge.model_dump(mode="json"),
                     "default_for": defaults.get(judge.name), "measured": cards})
    choice = read_output(outputs, fmt, ("table", "json"), "table")
    if choice.format == "json":
        with output_stream(choice.file) as stream:
            click.echo(json.dumps(rows, indent=2, ensure_ascii=False), file=stream)
        return
    table = Table(title="Named judges (--judge NAME; the e2e default, coverage_judge=auto, "
                        "takes the one marked for the input's kind)")
    for col in ("judge", "default for", "method", "options", "text model", "built for",
                "agreement (first card)"):
        table.add_column(col)
    for r in rows:
        opts = ", ".join(f"{k}={v}" for k, v in r["options"].items()) or "-"
        if r["embed_model"]:
            opts += f"; embed {r['embed_model']}"
        table.add_row(r["name"], r["default_for"] or "-", r["method"], escape(opts),
                      "yes" if r["needs_model"] else "no",
                      r["inputs"], _agreement(r["measured"][0]) if r["measured"] else "-")
    with output_stream(choice.file) as stream:
        make_console(stream).print(table)
