"""``to_pyvis()``: a pyvis Network styled like ``factgraph view`` whose page works offline.

The browser tests open ``net.write_html()`` output in Debian's headless Chromium with every
request that would leave the machine intercepted (and aborted), reuse the view tests' hostile
texts, and compare what the pyvis page and ``factgraph view`` actually draw.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from factgraph.graph.results import load_graph
from factgraph.models import Evaluation, FactGraph, Relation, Statement
from factgraph.viz import render_view, view_data
from tests.browser_support import wait_until

pyvis = pytest.importorskip("pyvis", reason="pyvis is not installed (factgraph[pyvis])")


def hostile_graph() -> FactGraph:
    from tests.browser_support import HOSTILE

    stmts = [Statement(id="r", text=HOSTILE[0], origin="response", source_id=HOSTILE[1])]
    stmts += [Statement(id=f"c{i}", text=t, origin="context", source_id=HOSTILE[4])
              for i, t in enumerate(HOSTILE)]
    stmts.append(Statement(id="href", text='<a href="javascript:window.__pwned=5">href</a>',
                           origin="context", source_id="d"))  # pyvis's own innerHTML trigger
    return FactGraph(query=HOSTILE[2], statements=stmts,
                     relations=[Relation(src="r", dst="c0", label="entails"),
                                Relation(src="c0", dst="r", label="entails"),
                                Relation(src="r", dst="c1", label="contradicts"),
                                Relation(src="c2", dst="c3", label="neutral", method=HOSTILE[3])])


# -- without a browser -------------------------------------------------------------------------
def test_nodes_and_edges_carry_the_views_statuses_and_styles(example_graph_path: Path) -> None:
    graph = load_graph(example_graph_path)
    net = graph.to_pyvis()
    assert isinstance(net, pyvis.network.Network)
    data = view_data(graph)
    nodes = {n["id"]: n for n in net.nodes}
    assert set(nodes) == {s.id for s in graph.statements}
    assert data["statements"]
    for s in data["statements"]:
        node = nodes[s["id"]]
        assert node["status"] == s["status"]
        assert node["color"]["background"] == data["palette"][s["status"]]["color"]
        assert node["title"].startswith(s["text"])  # a plain-text tooltip
        assert node["shape"] == ("box" if s["origin"] == "response" else "ellipse")
    # Equivalent statements (one SCC) share a vis group; singletons have none.
    groups = [n.get("group") for n in net.nodes if n.get("group")]
    assert len(groups) == 4 and len(set(groups)) == 2
    edges = [(e["from"], e["to"], e["relation"], e["hidden"]) for e in net.edges]
    assert sorted(edges) == sorted((r.src, r.dst, r.label.value, r.label.value == "neutral")
                                   for r in graph.relations)
    dashed = {e["relation"] for e in net.edges if e["dashes"]}
    assert dashed == {"contradicts", "neutral"}


def test_written_page_escapes_text_and_pins_its_scripts(tmp_path: Path) -> None:
    from tests.browser_support import HOSTILE

    ev = Evaluation(id="x", method="nli", graph=hostile_graph())
    net = ev.to_pyvis(heading=HOSTILE[0])
    net.write_html(str(tmp_path / "x.html"))
    page = (tmp_path / "x.html").read_text(encoding="utf-8")
    assert "<script>window.__pwned" not in page and "<img" not in page
    assert page.count("<script>") == 2  # vis-network and the drawing code, nothing else
    assert "Content-Security-Policy" in page and "default-src &#x27;none&#x27;" in page
    assert "bootstrap" not in page and "cdnjs" not in page
    assert not list(tmp_path.glob("lib"))  # in-line: nothing written beside the page


def test_menus_that_need_inline_handlers_are_refused(example_graph_path: Path) -> None:
    net = load_graph(example_graph_path).to_pyvis()
    net.select_menu = True
    with pytest.raises(ValueError, match="Content-Security-Policy"):
        net.generate_html()


def test_import_factgraph_stays_light() -> None:
    code = ("import sys, factgraph; heavy = [m for m in ('torch', 'vllm', 'pandas', 'pyvis', "
            "'ray', 'starlette', 'transformers', 'httpx') if m in sys.modules]; print(heavy); "
            "factgraph.evaluate; factgraph.EvaluationConfig; "
            "print([m for m in ('torch', 'vllm', 'pandas', 'pyvis', 'ray') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert out == ["[]", "[]"]


# -- in Chromium -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from tests.browser_support import launched_browser

    yield from launched_browser()


class OfflinePage:
    """The view tests' recording page, plus interception: any request that is not a local
    file is aborted and remembered."""

    def __init__(self, browser: Any) -> None:
        from tests.test_viz_browser import Page

        self.recorder = Page(browser)
        self.page = self.recorder.page
        self.blocked: list[str] = []
        self.page.route("**/*", self._route)

    def _route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(("file://", "data:", "blob:")):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def open_pyvis(self, path: Path) -> None:
        self.page.goto(path.as_uri())
        wait_until(self.page,
                   "typeof network !== 'undefined' && network.body.nodeIndices.length > 0",
                   timeout_ms=60_000)

    def clean(self) -> bool:
        r = self.recorder
        return not self.blocked and r.off_machine_requests() == [] and not r.errors \
            and not r.dialogs

    def hover_tooltip(self, node_id: str) -> str:
        """Hover a node and return the tooltip element's inner text (what the user sees)."""
        self.page.evaluate("network.setOptions({physics: false}); network.fit()")
        box = self.page.locator("#mynetwork").bounding_box()
        x, y = self.page.evaluate(
            "(id) => { const p = network.canvasToDOM(network.getPositions([id])[id]);"
            " return [p.x, p.y]; }", node_id)
        self.page.mouse.move(box["x"] + x, box["y"] + y)
        self.page.wait_for_selector("div.vis-tooltip", state="visible", timeout=10_000)
        return str(self.page.inner_text("div.vis-tooltip"))


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.browser
def test_pyvis_page_draws_every_statement_offline(browser: Any, tmp_path: Path,
                                                  example_graph_path: Path) -> None:
    graph = load_graph(example_graph_path)
    path = tmp_path / "pyvis.html"
    graph.to_pyvis().write_html(str(path))
    page = OfflinePage(browser)
    page.open_pyvis(path)
    assert page.page.evaluate("network.body.nodeIndices.length") == len(graph.statements) == 10
    painted = """() => {
        const c = document.querySelector('#mynetwork canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; }"""
    # vis-network paints on a later animation frame than the one that adds the nodes: wait
    # for the first paint (a canvas that stays blank times out here) before counting.
    wait_until(page.page, f"({painted})() > 5000", timeout_ms=15_000)
    pixels = page.page.evaluate(painted)
    assert pixels > 5_000  # the canvas is not blank
    assert page.clean(), (page.blocked, page.recorder.errors)
    page.page.close()


@pytest.mark.browser
def test_pyvis_page_runs_no_injected_script(browser: Any, tmp_path: Path) -> None:
    from tests.browser_support import HOSTILE

    graph = hostile_graph()
    path = tmp_path / "xss.html"
    Evaluation(id=HOSTILE[3], method="nli", graph=graph).to_pyvis(
        heading=HOSTILE[2]).write_html(str(path))
    page = OfflinePage(browser)
    page.open_pyvis(path)
    assert page.page.evaluate("network.body.nodeIndices.length") == len(graph.statements)
    assert page.page.evaluate("typeof window.__pwned") == "undefined"
    assert page.page.locator("img").count() == 0 and page.page.locator("b").count() == 0
    assert page.page.locator("a").count() == 0
    assert page.page.inner_text("h1") == HOSTILE[2]
    # Node data reach the page intact, and a tooltip shows its text as text.
    titles = page.page.evaluate("nodes.get().map((n) => n.title)")
    assert [t.split("\n")[0] for t in titles] == [s.text for s in graph.statements]
    for node_id in ("c1", "href"):
        tip = page.hover_tooltip(node_id)
        assert tip.startswith(graph.statement(node_id).text)
        assert page.page.locator("div.vis-tooltip img, div.vis-tooltip a").count() == 0
    assert page.page.evaluate("typeof window.__pwned") == "undefined"
    assert page.clean(), (page.blocked, page.recorder.errors, page.recorder.dialogs)
    page.page.close()


DRAWN = """(handle) => {
    const net = handle();
    const nodes = net.body.data.nodes.get().map((n) => [n.id, n.color.background, n.shape]);
    const edges = net.body.data.edges.get().filter((e) => !e.hidden)
        .map((e) => [e.from, e.to, e.color.color, !!e.dashes]);
    nodes.sort(); edges.sort();
    return {nodes, edges, drawn: net.body.nodeIndices.length};
}"""


@pytest.mark.browser
@pytest.mark.parametrize("which", ["example", "hostile"])
def test_pyvis_and_the_view_draw_the_same_graph(browser: Any, tmp_path: Path, which: str,
                                                example_graph_path: Path) -> None:
    graph = load_graph(example_graph_path) if which == "example" else hostile_graph()
    view_path = write(tmp_path, "view.html", render_view(graph))
    pyvis_path = tmp_path / "pyvis.html"
    graph.to_pyvis().write_html(str(pyvis_path))

    view = OfflinePage(browser)
    view.page.goto(view_path.as_uri())
    view.recorder.wait_drawn()
    in_view = view.page.evaluate(DRAWN.replace("handle()", "window.factgraphView.network"))
    via_pyvis = OfflinePage(browser)
    via_pyvis.open_pyvis(pyvis_path)
    in_pyvis = via_pyvis.page.evaluate(DRAWN.replace("handle()", "network"))
    assert in_view["nodes"] == in_pyvis["nodes"]
    assert len(in_view["nodes"]) == in_view["drawn"] == len(graph.statements)
    assert in_view["edges"] == in_pyvis["edges"]
    visible = [r for r in graph.relations if r.label.value != "neutral"]
    assert len(in_pyvis["edges"]) == len(visible)
    assert view.clean() and via_pyvis.clean()
    view.page.close()
    via_pyvis.page.close()
