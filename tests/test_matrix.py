"""The coverage matrix: rows merged by the database's rule, cell states, order, HTML."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from examples.heber_results import heber_evaluations
from factgraph.graph import analyze
from factgraph.models import Evaluation, FactGraph, Relation, Statement
from factgraph.store.records import context_statement_id, query_id
from factgraph.viz import render_report
from factgraph.viz.matrix import (
    CellState,
    coverage_matrix,
    leaderboard,
    matrices_by_query,
    render_matrix,
)
from tests.explore_support import HEBER_COLUMNS, HEBER_MATRIX, HEBER_QUERY


def _ev(eid: str, model: str, stmts: list[Statement], rels: list[Relation],
        query: str = "q") -> Evaluation:
    return Evaluation(id=eid, method="comprehensiveness-nli", model=model, query=query,
                      graph=FactGraph(query=query, statements=stmts, relations=rels))


def ctx(sid: str, text: str, source: str = "doc") -> Statement:
    return Statement(id=sid, text=text, origin="context", source_id=source)


def resp(sid: str, text: str = "an answer") -> Statement:
    return Statement(id=sid, text=text, origin="response")


def ent(a: str, b: str) -> Relation:
    return Relation(src=a, dst=b, label="entails")


def test_hand_checked_heber_matrix() -> None:
    """Worked by hand from examples/heber_results.py. Context entailments: c1a <-> c1d,
    c1b -> c1c, c2d -> c2c. ans-a (model-a): r1 -> c2c, r2 -> c1a; ans-c (model-a): r1 -> c2d;
    ans-b (model-b): r1 -> c1c. A component is basis when uncovered and no uncovered
    component entails it (c1c has c1b above it, c2c has c2d above it)."""
    m = matrices_by_query(heber_evaluations())[0]
    assert m.query == HEBER_QUERY
    assert [c.evaluation_id for c in m.columns] == HEBER_COLUMNS  # grouped by model
    got = {r.text: [c.state.value for c in r.cells] for r in m.rows}
    assert got == HEBER_MATRIX
    # 7 context components x 3 responses; the three facts missed by all come first
    assert len(m.rows) == 7 and all(len(r.cells) == 3 for r in m.rows)
    assert [r.missed_by_all for r in m.rows] == [True] * 3 + [False] * 4
    assert [r.n_covered for r in m.rows] == sorted(r.n_covered for r in m.rows)
    # the merged row holds both statements' database ids
    qid = query_id(HEBER_QUERY)
    merged = next(r for r in m.rows if r.text.startswith("Bishop Heber visited"))
    assert sorted(merged.statement_ids) == sorted(
        context_statement_id(qid, "context1", t) for t in
        ("Bishop Heber visited Patna in the 1840s.", "Heber was in Patna during the 1840s."))
    # cells open the statement the response covers
    left = next(r for r in m.rows if r.text == "Charles D'Oyly left India in 1838.")
    assert [c.statement_id for c in left.cells] == ["c2c", "c2c", "c2c"]


def test_cells_agree_with_the_engine_for_every_statement() -> None:
    evs = [e for e in heber_evaluations() if e.query == HEBER_QUERY]
    m = coverage_matrix(evs)
    qid = query_id(HEBER_QUERY)
    assert m.columns
    for j, col in enumerate(m.columns):
        ev = next(e for e in evs if e.id == col.evaluation_id)
        cov = analyze(ev.graph)
        for s in ev.graph.statements:
            if s.origin.value != "context":
                continue
            row = next(r for r in m.rows
                       if context_statement_id(qid, s.source_id, s.text) in r.statement_ids)
            comp = cov.component_of(s.id)
            expected = ("covered" if comp.status == "covered" else
                        "basis" if comp.basis else "uncovered")
            assert row.cells[j].state.value == expected, (col.evaluation_id, s.id)


def test_rows_merge_by_the_database_key_not_by_local_ids() -> None:
    # Same text and source under different local ids: one row. Same text, other source: two.
    a = _ev("a", "m1", [resp("r"), ctx("x1", "Water boils at 100 C."),
                        ctx("x2", "Water boils at 100 C.", source="other")], [ent("r", "x1")])
    b = _ev("b", "m2", [resp("r"), ctx("zz", "Water boils at 100 C.")], [])
    m = coverage_matrix([a, b])
    assert len(m.rows) == 2
    by_source = {tuple(r.source_ids): r for r in m.rows}
    assert [c.state for c in by_source[("doc",)].cells] == [CellState.covered, CellState.basis]
    assert [c.statement_id for c in by_source[("doc",)].cells] == ["x1", "zz"]
    # the statement only response a's graph holds is absent from b's column
    assert [c.state for c in by_source[("other",)].cells] == [CellState.basis, CellState.absent]
    assert by_source[("other",)].missed_by_all
    assert by_source[("doc",)].key == context_statement_id(query_id("q"), "doc",
                                                           "Water boils at 100 C.")


def test_equivalence_in_one_response_merges_the_row_for_all() -> None:
    # In a, p and q are equivalent (one SCC); in b they are not and only p is covered.
    a = _ev("a", "m1", [resp("r"), ctx("p", "P holds."), ctx("q", "Q holds.")],
            [ent("p", "q"), ent("q", "p")])
    b = _ev("b", "m2", [resp("r"), ctx("p", "P holds."), ctx("q", "Q holds.")], [ent("r", "p")])
    m = coverage_matrix([a, b])
    assert len(m.rows) == 1
    row = m.rows[0]
    assert [c.state for c in row.cells] == [CellState.basis, CellState.covered]
    assert row.cells[1].statement_id == "p"
    assert row.text == "P holds."  # tie: the smaller text, as the engine picks


def test_one_query_per_matrix_and_leaderboard() -> None:
    evs = heber_evaluations()
    with pytest.raises(ValueError, match="per query"):
        coverage_matrix(evs)
    m = coverage_matrix([e for e in evs if e.query == HEBER_QUERY])
    board = {b.model: b for b in leaderboard(m)}
    assert board["model-a"].responses == 2 and board["model-b"].responses == 1
    # model-a covers c1a/c1d, c2d and c2c (ans-b leaves all three uncovered); model-b c1c
    assert board["model-a"].only_this_model == 3 and board["model-b"].only_this_model == 1
    assert board["model-b"].mean_covered == 1.0
    s_a = [evs[i].scores["comprehensiveness"] for i in (0, 2)]  # ans-a, ans-c
    assert board["model-a"].mean_comprehensiveness == pytest.approx(
        sum(s for s in s_a if s is not None) / 2)


@st.composite
def query_results(draw: st.DrawFn) -> list[Evaluation]:
    n_ctx = draw(st.integers(1, 6))
    texts = [f"fact {i}" for i in range(n_ctx)]
    evs = []
    for k in range(draw(st.integers(1, 4))):
        keep = draw(st.lists(st.sampled_from(range(n_ctx)), min_size=1, unique=True))
        stmts = [resp("r")] + [ctx(f"c{i}", texts[i]) for i in keep]
        ids = ["r"] + [f"c{i}" for i in keep]
        pairs = draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids[1:])),
                              max_size=8))
        rels = [ent(a, b) for a, b in pairs if a != b]
        evs.append(_ev(f"e{k}", f"m{k % 2}", stmts, rels))
    return evs


@settings(max_examples=60, deadline=None)
@given(query_results())
def test_matrix_properties(evs: list[Evaluation]) -> None:
    m = coverage_matrix(evs)
    # every context statement of every response is in exactly one row
    qid = query_id("q")
    all_ids = [sid for r in m.rows for sid in r.statement_ids]
    assert len(all_ids) == len(set(all_ids))
    assert set(all_ids) == {context_statement_id(qid, s.source_id, s.text) for e in evs
                            for s in e.graph.statements if s.origin.value == "context"}
    # missed-by-all rows first, then by how many responses cover the row
    assert [r.n_covered for r in m.rows] == sorted(r.n_covered for r in m.rows)
    # a covered cell iff a member statement is covered in that response's graph
    for j, col in enumerate(m.columns):
        ev = next(e for e in evs if e.id == col.evaluation_id)
        cov = analyze(ev.graph)
        covered = {context_statement_id(qid, s.source_id, s.text) for s in ev.graph.statements
                   if s.origin.value == "context" and cov.component_of(s.id).status == "covered"}
        for r in m.rows:
            assert (r.cells[j].state is CellState.covered) == bool(covered & set(r.statement_ids))
            present = any(s.origin.value == "context" and
                          context_statement_id(qid, s.source_id, s.text) in r.statement_ids
                          for s in ev.graph.statements)
            assert (r.cells[j].state is CellState.absent) == (not present)


class _Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.states: list[str] = []
        self.links: list[str] = []
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(tag)
        if tag == "td" and "fg-cell" in (a.get("class") or ""):
            self.states.append(a.get("data-state") or "")
        if tag == "a" and "#statement=" in (a.get("href") or ""):
            self.links.append(a["href"] or "")


def test_matrix_html_links_cells_to_the_view_at_the_statement() -> None:
    m = matrices_by_query(heber_evaluations())[0]
    links = {c.evaluation_id: f"views/{c.evaluation_id}.html" for c in m.columns}
    p = _Cells()
    p.feed(render_matrix(m, links))
    assert p.states == [s for row in m.state_table() for s in row]
    assert len(p.links) == 21  # every cell of this matrix holds a statement
    assert "views/ans-b.html#statement=c1c" in p.links


def test_report_has_one_matrix_per_query_and_escapes_texts() -> None:
    evs = heber_evaluations()
    hostile = '</td><script>alert(1)</script><img src=x onerror="x()">'
    evs.append(_ev("h", hostile, [resp("r", hostile), ctx("c", hostile, source=hostile)],
                   [ent("r", "c")], query=hostile))
    page = render_report(evs, view_links={e.id: f"v/{e.id}.html#x" for e in evs})
    assert page.count('<table class="fg-matrix">') == 3  # three queries with context facts
    assert "<script" not in page and "<img" not in page
    # a view link's own fragment is replaced by the statement's
    assert "v/ans-a.html#statement=c2c" in page and "#x#" not in page
    p = _Cells()
    p.feed(page)
    assert p.states == [s for m in matrices_by_query(evs) for row in m.state_table() for s in row]
    assert p.states.count("covered") == 6  # 5 in the Heber matrix + the hostile one
