"""``factgraph analyze | basis | explain``: read coverage off a fact graph file."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from factgraph.cli.files import ID_OPTION, load_one_table
from factgraph.cli.json_text import dumps_indented
from factgraph.cli.output import (
    format_option,
    make_console,
    output_option,
    output_stream,
    read_output,
)
from factgraph.errors import UnknownNameError
from factgraph.graph import (
    Component,
    Contradiction,
    Coverage,
    GraphTable,
    analyze_table,
    contradictions,
)
from factgraph.graph.reasons import Reasons, reasons

FORMATS = ("table", "json")
FORMAT = format_option(FORMATS, "table", "Human table or machine-readable JSON.")
OUTPUT = output_option(FORMATS)
BASIS_FORMATS = ("jsonl", "csv", "txt")
MAX_ROWS = click.option(
    "--max-rows", type=click.IntRange(min=0), default=100, show_default=True,
    help="Most context components the terminal table shows (it says how many it left out); "
         "--format json always lists them all.",
)
MIN_P = click.option(
    "--min-probability", type=float, default=None,
    help="Ignore entailment edges whose probability is below this.",
)


def component_record(cov: Coverage, comp: Component,
                     why: Reasons | None = None) -> dict[str, Any]:
    """A component as a flat JSON-able record (the export users script against); with
    ``why``, its representative's reason (``factgraph.graph.reasons``) as ``why``."""
    rep = cov.graph.statements[cov._position(comp.representative)]
    sources = sorted(
        {cov.graph.statements[cov._position(m)].source_id or "" for m in comp.members} - {""}
    )
    record = {
        "component": comp.id,
        "statement_id": comp.representative,
        "text": comp.text,
        "status": comp.status,
        "basis": comp.basis,
        "members": list(comp.members),
        "source_ids": sources,
        "relevance": rep.relevance,
    }
    if why is not None:
        reason = why.of(comp.representative)
        record["why"] = None if reason is None else reason.record()
    return record


def contradiction_record(c: Contradiction, why: Reasons | None = None) -> dict[str, Any]:
    """A response statement that contradicts the background, with the context statements it
    contradicts, as a flat JSON-able record; with ``why``, each contradicted statement has the
    pair's reason (``factgraph.graph.reasons``: the relation's method and conflict) as ``why``."""
    facts = []
    for f in c.contradicts:
        fact: dict[str, Any] = {"statement_id": f.statement_id, "text": f.text,
                                "source_id": f.source_id, "probability": f.probability}
        if why is not None:
            reason = why.pair(c.statement_id, f.statement_id)
            fact["why"] = None if reason is None else reason.record()
        facts.append(fact)
    return {"statement_id": c.statement_id, "text": c.text, "contradicts": facts}


def coverage_summary(cov: Coverage) -> dict[str, Any]:
    g = cov.graph
    found = contradictions(g)
    covered, uncovered = cov.covered(), cov.uncovered()
    # reasons only for what is printed: the representatives (the basis is among the uncovered)
    why = reasons(cov, only={c.representative for c in covered + uncovered})
    n_resp = sum(1 for s in g.statements if s.origin.value == "response")
    n_relations = g.n_relations if isinstance(g, GraphTable) else len(g.relations)
    return {
        "query": g.query,
        "comprehensiveness": cov.score,
        "n_statements": len(g.statements),
        "n_response_statements": n_resp,
        "n_context_statements": len(g.statements) - n_resp,
        "n_relations": n_relations,
        "n_components": cov.arrays.n_components,
        "n_covered": cov.n_covered,
        "n_uncovered": cov.n_uncovered,
        "n_basis": cov.n_basis,
        "covered": [component_record(cov, c, why) for c in covered],
        "uncovered": [component_record(cov, c, why) for c in uncovered],
        "basis": [component_record(cov, c, why) for c in uncovered if c.basis],
        # the "wrong" half: response statements that contradict a background statement
        "n_contradicted": len(found),
        "contradicted": [contradiction_record(c, why) for c in found],
    }


def _fmt_score(x: float | None) -> str:
    return "undefined (no context statements)" if x is None else f"{x:.4f}"


@click.command("analyze")
@click.argument("graph_file", type=click.Path(dir_okay=False))
@FORMAT
@OUTPUT
@ID_OPTION
@MIN_P
@MAX_ROWS
def analyze_cmd(graph_file: str, fmt: str | None, outputs: tuple[str, ...],
                evaluation_id: str | None, min_probability: float | None,
                max_rows: int) -> None:
    """Comprehensiveness S, covered / uncovered context components and the uncovered basis of
    GRAPH_FILE (a graph or Evaluation JSON, or one evaluation of a results JSONL)."""
    choice = read_output(outputs, fmt, FORMATS, "table")
    cov = analyze_table(load_one_table(graph_file, evaluation_id),
                        min_probability=min_probability)
    summary = coverage_summary(cov)
    with output_stream(choice.file) as stream:
        if choice.format == "json":
            click.echo(dumps_indented(summary), file=stream)
        else:
            _print_table(summary, cov, max_rows, make_console(stream))


def _print_table(summary: dict[str, Any], cov: Coverage, max_rows: int,
                 console: Console) -> None:
    """The terminal table of ``analyze`` (S, components, contradictions, basis)."""
    console.print(f"[bold]Query:[/bold] {_escape(summary['query'])}")
    console.print(
        f"[bold]Comprehensiveness S[/bold] = {_fmt_score(cov.score)}  "
        f"({cov.n_covered} covered / {cov.n_covered + cov.n_uncovered} context components; "
        f"{summary['n_statements']} statements, {summary['n_relations']} relations)"
    )
    table = Table(title="Context components", show_lines=False)
    for col in ("component", "status", "basis", "statement", "text", "sources", "why"):
        table.add_column(col)
    rows = summary["covered"] + summary["uncovered"]
    for rec in rows[:max_rows]:
        table.add_row(
            rec["component"], rec["status"], "yes" if rec["basis"] else "",
            rec["statement_id"], _escape(rec["text"]), ", ".join(rec["source_ids"]),
            _escape(_why_line(rec)),
        )
    console.print(table)
    if len(rows) > max_rows:
        console.print(f"({len(rows) - max_rows} more context components not shown: "
                      "--max-rows N shows more, --format json lists all)")
    console.print(f"[bold]Contradicted response statements[/bold] ({summary['n_contradicted']}): "
                  "what the answer gets wrong")
    for rec in summary["contradicted"]:
        console.print(_escape(f"  - [{rec['statement_id']}] {rec['text']}"))
        for fact in rec["contradicts"]:
            source = f" ({fact['source_id']})" if fact["source_id"] else ""
            console.print(_escape(f"      contradicts [{fact['statement_id']}] {fact['text']}"
                                  f"{source}"))
            if line := _why_line(fact):
                console.print(_escape(f"        why: {line}"))
    console.print(f"[bold]Uncovered basis[/bold] ({cov.n_basis}): the fewest facts to add")
    for rec in summary["basis"]:
        console.print(_escape(f"  - [{rec['statement_id']}] {rec['text']}"))


def _why_line(record: dict[str, Any]) -> str:
    why = record.get("why")
    return "" if not why else str(why["line"])


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


@click.command("basis")
@click.argument("graph_file", type=click.Path(dir_okay=False))
@format_option(BASIS_FORMATS, "jsonl", "jsonl: one JSON record per basis fact (component, "
               "statement id, text, members, sources, relevance); csv: the same as columns; "
               "txt: one fact's text per line.")
@output_option()
@ID_OPTION
@MIN_P
def basis_cmd(graph_file: str, fmt: str | None, outputs: tuple[str, ...],
              evaluation_id: str | None, min_probability: float | None) -> None:
    """Export the uncovered basis: the fewest context facts that would complete the answer."""
    choice = read_output(outputs, fmt, (), "jsonl")
    cov = analyze_table(load_one_table(graph_file, evaluation_id),
                        min_probability=min_probability)
    records = [component_record(cov, c) for c in cov.basis()]
    with output_stream(choice.file) as stream:
        click.echo(basis_text(records, choice.format), file=stream, nl=False)


def basis_text(records: list[dict[str, Any]], fmt: str) -> str:
    """The basis records as ``jsonl``, ``csv`` or ``txt`` text (each line ends in a newline)."""
    if fmt == "jsonl":
        return "".join(json.dumps(rec, ensure_ascii=False) + "\n" for rec in records)
    if fmt == "txt":
        return "".join(rec["text"].replace("\n", " ") + "\n" for rec in records)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["component", "statement_id", "text", "members", "source_ids", "relevance"])
    for rec in records:
        w.writerow([
            rec["component"], rec["statement_id"], rec["text"], " ".join(rec["members"]),
            " ".join(rec["source_ids"]), "" if rec["relevance"] is None else rec["relevance"],
        ])
    return buf.getvalue()


@click.command("explain")
@click.argument("graph_file", type=click.Path(dir_okay=False))
@click.argument("statement_id")
@FORMAT
@OUTPUT
@ID_OPTION
@MIN_P
def explain_cmd(graph_file: str, statement_id: str, fmt: str | None, outputs: tuple[str, ...],
                evaluation_id: str | None, min_probability: float | None) -> None:
    """Why STATEMENT_ID counts as covered: the shortest entailment path from the response, and
    its reason (the response statement, the check and its value; or why it is contradicted or
    missing)."""
    choice = read_output(outputs, fmt, FORMATS, "table")
    graph = load_one_table(graph_file, evaluation_id)
    cov = analyze_table(graph, min_probability=min_probability)
    try:
        path = cov.explain(statement_id)
    except KeyError as e:  # an id the graph does not have
        raise UnknownNameError(str(e.args[0])) from None
    comp = cov.component_of(statement_id)
    steps = [
        {"statement_id": sid, "origin": graph.statements[cov._position(sid)].origin.value,
         "text": graph.statements[cov._position(sid)].text}
        for sid in (path or [])
    ]
    reason = reasons(cov, only=(statement_id,)).of(statement_id)  # None for a response statement
    if choice.format == "json":
        text = json.dumps({"statement_id": statement_id, "component": comp.id,
                           "status": comp.status, "covered": path is not None, "path": steps,
                           "why": None if reason is None else reason.record()},
                          indent=2, ensure_ascii=False)
    elif path is None:
        text = (f"{statement_id} is not covered: no response statement entails it "
                f"(component {comp.id}, {comp.status}"
                f"{', in the basis' if comp.basis else ''}).")
    else:
        lines = [f"{statement_id} is covered ({len(path) - 1} entailment step(s)):"]
        for k, st in enumerate(steps):
            arrow = "   " if k == 0 else "=> "
            lines.append(f"  {arrow}[{st['statement_id']}] ({st['origin']}) {st['text']}")
        text = "\n".join(lines)
    if reason is not None and choice.format != "json":
        text += f"\nwhy: {reason.line()}"
    with output_stream(choice.file) as stream:
        click.echo(text, file=stream)
