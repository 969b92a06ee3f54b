"""Views and reports in a real headless Chromium (Debian's), driven by Playwright."""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from examples.heber_results import heber_evaluations
from factgraph.graph.results import load_graph
from factgraph.models import Evaluation, FactGraph, Relation, Statement
from factgraph.viz import render_report, render_view
from tests.browser_support import (
    HOSTILE,
    VIEW_DRAWN,
    RecordingPage,
    launched_browser,
    playwright_or_skip,
    wait_until,
)

playwright_or_skip()

pytestmark = pytest.mark.browser
log = logging.getLogger(__name__)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_browser()


class Page(RecordingPage):
    """A page that records every request and every dialog / page error."""

    def open(self, path: Path) -> None:
        self.page.goto(path.as_uri())

    def wait_drawn(self, timeout_ms: int = 60_000) -> None:
        wait_until(self.page, VIEW_DRAWN, timeout_ms=timeout_ms)

    def off_machine_requests(self) -> list[str]:
        return [u for u in self.requests if not u.startswith(("file://", "data:", "blob:"))]

    def painted_pixels(self, at_least: int = 5_000, timeout_s: float = 10.0) -> int:
        """Painted (non-transparent) pixels of the graph's canvas, once there are
        ``at_least`` or ``timeout_s`` has passed: the canvas is painted on an animation frame
        after the drawing is reported, so one read right after it may see it blank (a test
        failed so once on a busy machine)."""
        deadline = time.monotonic() + timeout_s
        while True:
            n = int(self.page.evaluate("""() => {
                const c = document.querySelector('#fg-graph canvas');
                const ctx = c.getContext('2d');
                const d = ctx.getImageData(0, 0, c.width, c.height).data;
                let n = 0;
                for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
                return n;
            }"""))
            if n >= at_least or time.monotonic() > deadline:
                return n
            self.page.wait_for_timeout(100)


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_view_draws_every_statement_offline(browser: Any, tmp_path: Path,
                                            example_graph_path: Path) -> None:
    graph = load_graph(example_graph_path)
    page = Page(browser)
    page.open(write(tmp_path, "view.html", render_view(graph)))
    page.wait_drawn()
    v = "window.factgraphView"
    assert page.page.evaluate(f"{v}.drawnNodeCount()") == len(graph.statements) == 10
    assert page.page.evaluate(f"{v}.shownStatementCount()") == 10
    assert page.painted_pixels() > 5_000  # the canvas is not blank
    assert page.off_machine_requests() == [] and page.errors == []
    # Clicking a covered statement highlights its entailment path (r2 -> c2c).
    page.page.evaluate(f"{v}.select('c2c')")
    assert len(page.page.evaluate(f"{v}.highlightedEdges()")) == 1
    assert "Covered through" in page.page.inner_text("#fg-details")
    # The basis list and the scores panel.
    assert page.page.locator("#fg-basis li").count() == 5
    assert "0.143" in page.page.inner_text("#fg-scores")
    # Filtering a source hides its statements.
    page.page.get_by_label("context1").uncheck()
    assert page.page.evaluate(f"{v}.shownStatementCount()") == 6
    # Grouping equivalent statements draws one node per SCC.
    page.page.get_by_label("context1").check()
    page.page.get_by_label("Group equivalent statements").check()
    assert page.page.evaluate(f"{v}.drawnNodeCount()") == 8  # two 2-member SCCs collapsed
    page.page.close()


def test_hostile_texts_stay_text(browser: Any, tmp_path: Path) -> None:
    stmts = [Statement(id="r", text=HOSTILE[0], origin="response", source_id=HOSTILE[1])]
    stmts += [Statement(id=f"c{i}", text=t, origin="context", source_id=HOSTILE[4])
              for i, t in enumerate(HOSTILE)]
    graph = FactGraph(query=HOSTILE[2], statements=stmts,
                      relations=[Relation(src="r", dst="c0", label="entails")])
    page = Page(browser)
    page.open(write(tmp_path, "xss.html", render_view(graph)))
    page.wait_drawn()
    assert page.page.evaluate("typeof window.__pwned") == "undefined"
    assert page.dialogs == [] and page.errors == []
    assert page.page.locator("img").count() == 0 and page.page.locator("b").count() == 0
    # The texts are in the DOM verbatim, as text.
    assert page.page.inner_text("#fg-query") == HOSTILE[2]
    basis_texts = page.page.locator("#fg-basis li").all_inner_texts()
    assert HOSTILE[1] in basis_texts and HOSTILE[4] in basis_texts
    page.page.evaluate("window.factgraphView.select('c3')")
    assert HOSTILE[3].split("\u2028")[0] in page.page.inner_text("#fg-details")
    assert page.off_machine_requests() == []
    page.page.close()

    ev = Evaluation(id=HOSTILE[3], method=HOSTILE[1], model=HOSTILE[0], query=HOSTILE[2],
                    scores={"comprehensiveness": 1.0}, graph=graph)
    page = Page(browser)
    page.open(write(tmp_path, "xss_report.html",
                    render_report([ev], view_links={ev.id: "javascript:alert(1)"})))
    assert page.page.evaluate("typeof window.__pwned") == "undefined"
    assert page.page.locator("script").count() == 0 and page.page.locator("img").count() == 0
    assert HOSTILE[0] in page.page.inner_text("body")
    page.page.locator("a").first.click()  # CSP blocks the javascript: URL
    assert page.dialogs == []
    page.page.close()


def test_report_draws_plots_offline(browser: Any, tmp_path: Path) -> None:
    evs = heber_evaluations()
    # Add ICAT and precision / recall scores so every plot has data (rendering test only).
    rng = random.Random(3)
    for ev in evs:
        ev.scores.update({"S_fact": rng.uniform(0.3, 0.9), "S_coverage": rng.uniform(0.2, 0.8),
                          "factual_precision": rng.uniform(0.5, 1), "factual_recall": rng.random()})
    aspect_graph = evs[0].graph.model_copy(deep=True)
    aspect_graph.statements.append(Statement(id="asp1", text="when Heber was in Patna",
                                             origin="context", kind="aspect"))
    aspect_graph.relations.append(Relation(src="r2", dst="asp1", label="covers"))
    evs[0] = evs[0].model_copy(update={"graph": aspect_graph})
    page = Page(browser)
    page.open(write(tmp_path, "report.html", render_report(evs)))
    assert page.page.locator("svg.fg-chart").count() == 4
    assert page.page.locator("svg.fg-chart path").count() == 2  # one ICAT_β line per model
    assert page.page.locator("svg.fg-chart circle").count() >= len(evs) + 2
    assert page.off_machine_requests() == [] and page.errors == []
    page.page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert (tmp_path / "report.png").stat().st_size > 20_000
    page.page.close()


def big_graph(n: int, seed: int = 0) -> FactGraph:
    rng = random.Random(seed)
    stmts = [Statement(id=f"s{i}", text=f"statement {i} about topic {i // 20}",
                       origin="response" if i % 10 == 0 else "context",
                       source_id=f"doc{i // 100}", relevance=rng.choice([2.0, 3.5, 4.5]))
             for i in range(n)]
    rels = []
    for i in range(n):
        for _ in range(2):
            j = min(n - 1, i + rng.randint(1, 15))
            rels.append(Relation(src=f"s{i}", dst=f"s{j}", label="entails"))
        if rng.random() < 0.1:
            rels.append(Relation(src=f"s{min(n - 1, i + 1)}", dst=f"s{i}", label="entails"))
    return FactGraph(query="a large graph", statements=stmts, relations=rels)


def test_view_stays_usable_at_2000_statements(browser: Any, tmp_path: Path,
                                              record_property: Any) -> None:
    graph = big_graph(2000)
    path = write(tmp_path, "big.html", render_view(graph))
    page = Page(browser)
    start = time.perf_counter()
    page.open(path)
    page.wait_drawn(timeout_ms=120_000)
    wait_until(page.page, "window.factgraphView.network.physics.stabilized !== false",
               timeout_ms=120_000)
    seconds = time.perf_counter() - start
    record_property("load_seconds_2000", round(seconds, 2))
    log.warning("2,000-statement view: drawn and stabilised in %.2f s", seconds)
    shown = page.page.evaluate("window.factgraphView.shownStatementCount()")
    drawn = page.page.evaluate("window.factgraphView.drawnNodeCount()")
    assert shown == 2000
    assert 0 < drawn < 2000  # grouped beyond the size limit
    assert page.painted_pixels() > 5_000 and page.errors == []
    assert page.off_machine_requests() == []
    page.page.close()
