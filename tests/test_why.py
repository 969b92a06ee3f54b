"""Issue 33 §6, show why: every context fact's reason (the response statement quoted, the check
and its value; for a contradicted fact, the pair) in ``analyze`` (JSON and table), the report,
the view's data and explore's query page — the same reason everywhere, text always escaped."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from factgraph.cli.main import cli
from factgraph.graph import analyze, analyze_table
from factgraph.graph.reasons import LINE_QUOTE_CHARS, PATH_LIMIT, QUOTE_CHARS, reasons
from factgraph.graph.results import load_graph_table
from factgraph.models import Evaluation, FactGraph, Relation, Statement
from factgraph.viz.report import render_report
from factgraph.viz.view import render_view, view_data
from tests.why_support import EVIDENCE, HOSTILE, LINES, QUERY, chernobyl


def _write(tmp_path: Path, ev: Evaluation) -> Path:
    path = tmp_path / "ev.json"
    path.write_text(ev.model_dump_json(), encoding="utf-8")
    return path


def _analyze_json(path: Path) -> dict[str, Any]:
    res = CliRunner().invoke(cli, ["analyze", str(path), "--format", "json"])
    assert res.exit_code == 0, res.output
    return dict(json.loads(res.output))


def test_each_fact_has_its_reason() -> None:
    why = reasons(analyze(chernobyl().graph))
    assert {k: r.line() for k, r in why.by_statement.items()} == LINES
    covered = why.by_statement["g1"]
    assert (covered.status, covered.response_statement_id, covered.method) == \
        ("covered", "r1", "evidence")
    assert covered.probability == 0.775835 and dict(covered.evidence) == EVIDENCE
    assert covered.path == ("r1", "g1")
    wrong = why.pair("r2", "g2")
    assert wrong is why.by_statement["g2"]
    assert wrong.conflict == {"slot": "antonym", "fact": "positive", "response": "negative"}
    assert wrong.method == "evidence:antonym"
    assert wrong.description == "antonym: fact 'positive', response 'negative'"
    missing = why.by_statement["g3"]
    assert (missing.status, missing.response_statement_id, missing.probability) == \
        ("missing", "r3", 0.068556)
    assert "nearest_sentence" not in missing.evidence  # named apart, as the statement


def test_analyze_json_carries_the_why_of_every_record(tmp_path: Path) -> None:
    d = _analyze_json(_write(tmp_path, chernobyl()))
    records = {r["statement_id"]: r for r in d["covered"] + d["uncovered"]}
    assert {k: r["why"]["line"] for k, r in records.items()} == LINES
    assert records["g1"]["why"] == {
        "status": "covered", "response_statement_id": "r1",
        "quote": "The Chernobyl accident happened on 26 April 1986 in reactor No. 4.",
        "method": "evidence", "probability": 0.775835, "evidence": EVIDENCE,
        "conflict": None, "description": None, "trace_id": None, "path": ["r1", "g1"], "steps": 1,
        "contradicted_by": [], "line": LINES["g1"]}
    assert [b["why"]["line"] for b in d["basis"]] == [LINES["g2"], LINES["g3"], LINES["g4"]]
    pairs = {(c["statement_id"], f["statement_id"]): f["why"]
             for c in d["contradicted"] for f in c["contradicts"]}
    assert set(pairs) == {("r2", "g2"), ("r3", "g4")}
    assert pairs[("r3", "g4")]["conflict"] == {"slot": "name", "fact": "sweden",
                                               "response": "finland"}
    assert pairs[("r3", "g4")]["quote"] == \
        "Radiation was first detected abroad at a nuclear plant in Finland."


def test_analyze_table_shows_a_why_column_and_the_pairs(tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["analyze", str(_write(tmp_path, chernobyl()))])
    assert res.exit_code == 0, res.output
    assert "┃ why" in res.output
    rows: list[tuple[str, list[str]]] = []  # (statement, the why column's wrapped lines)
    for text in res.output.splitlines():
        if text.startswith("│"):
            cells = [c.strip() for c in text.split("│")[1:-1]]
            if cells[0]:
                rows.append((cells[3], []))
            rows[-1][1].append(cells[-1])
    assert {sid: " ".join(p for p in parts if p) for sid, parts in rows} == LINES
    assert f"why: {LINES['g2']}" in res.output  # under the contradicted pair


def test_the_fast_reader_keeps_what_reasons_need(tmp_path: Path) -> None:
    ev = chernobyl()
    path = _write(tmp_path, ev)
    table = load_graph_table(path)
    assert isinstance(table.details, dict)  # the fast reader, not the object path
    assert sorted(table.details) == [0, 1, 2]  # the three relations from the response
    fast = reasons(analyze_table(table))
    slow = reasons(analyze(ev.graph))
    assert {k: r.record() for k, r in fast.by_statement.items()} == \
        {k: r.record() for k, r in slow.by_statement.items()}


def test_without_relation_details_a_reason_carries_what_is_known(tmp_path: Path) -> None:
    ev = chernobyl()
    table = load_graph_table(_write(tmp_path, ev))
    bare = type(table)(query=table.query, statements=table.statements, src=table.src,
                       dst=table.dst, is_entails=table.is_entails,
                       probability=table.probability, is_contradicts=table.is_contradicts)
    why = reasons(analyze_table(bare))
    covered = why.by_statement["g1"]
    assert (covered.response_statement_id, covered.probability, covered.method) == \
        ("r1", 0.775835, None)
    assert covered.line().startswith('covered by [r1] "The Chernobyl accident happened')
    assert why.by_statement["g2"].response_statement_id == "r2"
    assert why.by_statement["g2"].line().endswith(
        "(antonym: fact 'positive', response 'negative')")  # the fact's own note


def test_other_judges_reasons() -> None:
    """The sentences judge: the whole response is one statement "r", the fact records its
    word share and similarity; an NLI judge: a path through another context statement, a
    probability and a model call."""
    long = "The dam was built in 1962 on the river. " * 20
    g = FactGraph(query="q", statements=[
        Statement(id="r", text=long, origin="response"),
        Statement(id="c1", text="The dam was built in 1962.", origin="context",
                  metadata={"word_share": 0.8, "similarity": 0.71}),
        Statement(id="c2", text="The dam exists.", origin="context"),
        Statement(id="c3", text="It floods.", origin="context",
                  metadata={"word_share": 0.1})],
        relations=[Relation(src="r", dst="c1", label="entails", method="words"),
                   Relation(src="c1", dst="c2", label="entails", probability=0.93,
                            method="nli", trace_id="t9")])
    why = reasons(analyze(g))
    c1 = why.by_statement["c1"]
    assert c1.line() == f'covered by [r] "{long[:LINE_QUOTE_CHARS - 1].strip()}…" ' \
                        "(words: words 0.80, similarity 0.71)"
    assert c1.quote is not None and len(c1.quote) == QUOTE_CHARS  # never the whole response
    c2 = why.by_statement["c2"]
    assert c2.path == ("r", "c1", "c2") and c2.method == "words"  # the first relation's
    assert "via [c1]" in c2.line()
    c3 = why.by_statement["c3"]
    assert c3.line() == "missing (words 0.10)"
    g.relations.append(Relation(src="r", dst="c1", label="contradicts", probability=0.6,
                                method="nli", trace_id="t1"))
    both = reasons(analyze(g))
    assert both.by_statement["c1"].status == "covered"
    assert both.by_statement["c1"].line().endswith("; also contradicted by [r]")
    assert both.pair("r", "c1").trace_id == "t1"  # type: ignore[union-attr]
    assert both.pair("r", "c1").line().endswith("(nli: P 0.60)")  # type: ignore[union-attr]


def test_report_shows_the_reasons_escaped() -> None:
    page = render_report([chernobyl(hostile=True)])
    assert HOSTILE not in page
    section = page.split("<h2>Why each context fact is covered, contradicted or missing</h2>",
                         1)[1]
    assert "1 covered, 2 contradicted, 1 missing" in section
    hostile_r3 = chernobyl(hostile=True).graph.statements[2].text
    for key, line in LINES.items():
        if key in ("g3", "g4"):  # quote r3, which now starts with the markup
            line = line.replace('"Radiation was first detected abroad at a nuclear plant in '
                                'Finland."', '"' + hostile_r3[:LINE_QUOTE_CHARS - 1] + '…"')
        assert f"<td class=why>{html.escape(line)}</td>" in section, key
    assert html.escape("&lt;script&gt;") not in page  # escaped once, not twice
    contradicted = page.split("<h2>Contradicted response statements per evaluation</h2>", 1)[1]
    assert f"<p class=why>{html.escape(LINES['g2'])}</p>" in contradicted


def test_view_data_and_page_carry_the_reasons() -> None:
    ev = chernobyl(hostile=True)
    data = view_data(ev)
    by_id = {s["id"]: s for s in data["statements"]}
    assert by_id["g1"]["why"]["line"] == LINES["g1"]
    assert by_id["g1"]["why"]["evidence"] == EVIDENCE
    assert by_id["r1"]["why"] is None
    assert data["contradictions"][0]["contradicts"][0]["why"]["conflict"]["slot"] == "antonym"
    page = render_view(ev)
    assert HOSTILE not in page  # the data block escapes "<"


def test_explore_query_page_shows_each_pair_with_its_reason() -> None:
    pytest.importorskip("starlette", reason="the explorer needs its extra: factgraph[explore]")
    pytest.importorskip("httpx", reason="httpx is not installed")
    from starlette.testclient import TestClient

    from factgraph.explore.app import create_app
    from factgraph.explore.sources import ResultsSource
    from factgraph.store.records import query_id

    app = create_app(ResultsSource([chernobyl(hostile=True)], label="x"))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        page = client.get(f"/query/{query_id(QUERY)}").text
    assert HOSTILE not in page
    assert f'<span class="fx-why">why: {html.escape(LINES["g2"])}</span>' in page
    assert "(name: sweden → finland)</span>" in page


def test_a_long_path_is_shortened_and_computed_once_per_statement() -> None:
    """A chain r -> c0 -> c1 -> … (every statement covered): each reason's path starts at the
    response statement; past PATH_LIMIT steps it keeps the start, the first hop and the end,
    and says how many steps there are."""
    n = PATH_LIMIT + 5
    g = FactGraph(query="q", statements=[Statement(id="r", text="r", origin="response")] + [
        Statement(id=f"c{i}", text=f"c{i}", origin="context") for i in range(n)],
        relations=[Relation(src="r", dst="c0", label="entails", method="m")] + [
            Relation(src=f"c{i}", dst=f"c{i + 1}", label="entails") for i in range(n - 1)])
    why = reasons(analyze(g))
    last = why.by_statement[f"c{n - 1}"]
    assert last.path == ("r", "c0", f"c{n - 1}") and last.steps == n
    assert last.method == "m" and "via [c0] → …" in last.line()
    near = why.by_statement[f"c{PATH_LIMIT - 1}"]
    assert near.path == ("r", *(f"c{i}" for i in range(PATH_LIMIT))) and near.steps == PATH_LIMIT


def test_the_evidence_judge_s_graph_gives_every_fact_its_reason() -> None:
    """End to end: the long-form default judge's own graph (no model), read by the reasons:
    a fact stated in other words is covered by its sentence with the judge's checks; a fact
    stated otherwise is contradicted by its sentence with the conflict; every context fact's
    reason agrees with the engine's status."""
    from factgraph import evaluate

    ev = evaluate(QUERY, "The Chernobyl accident happened on 26 April 1986 in reactor No. 4. "
                         "The RBMK reactor had a negative void coefficient.",
                  facts=["The Chernobyl accident occurred on 26 April 1986 in reactor No. 4.",
                         "The RBMK reactor had a positive void coefficient.",
                         "28 firefighters and staff died of acute radiation syndrome."],
                  method="e2e")
    cov = analyze(ev.graph)
    why = reasons(cov)
    covered = {m for c in cov.covered() for m in c.members}
    texts = {s.id: s.text for s in ev.graph.statements}
    for sid, reason in why.by_statement.items():
        assert (reason.status == "covered") == (sid in covered), reason
    stated = next(r for sid, r in why.by_statement.items() if "occurred" in texts[sid])
    assert stated.status == "covered" and stated.method == "evidence"
    assert stated.quote is not None and stated.quote.startswith("The Chernobyl accident happened")
    assert {"p_stated", "word_share"} <= set(stated.evidence)
    wrong = next(r for sid, r in why.by_statement.items() if "positive" in texts[sid])
    assert wrong.status == "contradicted" and wrong.conflict is not None
    assert wrong.quote == "The RBMK reactor had a negative void coefficient."
    assert "positive" in wrong.line() and "negative" in wrong.line()
    assert why.by_statement[next(s for s, t in texts.items()
                                 if t.startswith("28"))].status == "missing"


def test_explain_gives_the_reason_too(tmp_path: Path) -> None:
    path = str(_write(tmp_path, chernobyl()))
    res = CliRunner().invoke(cli, ["explain", path, "g4"])
    assert res.exit_code == 0 and res.output.endswith(f"why: {LINES['g4']}\n")
    res = CliRunner().invoke(cli, ["explain", path, "g1", "--format", "json"])
    assert json.loads(res.output)["why"]["line"] == LINES["g1"]
