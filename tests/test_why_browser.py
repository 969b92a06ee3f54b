"""Issue 33 §6 in a real headless Chromium (Debian's), driven by Playwright: the view's panel
shows why a statement is covered, contradicted or missing — the response statement quoted,
each check and its value — as text, in ``factgraph view``'s page and in explore's."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from factgraph.viz import render_view
from tests.browser_support import (
    VIEW_DRAWN,
    RecordingPage,
    launched_browser,
    playwright_or_skip,
    wait_until,
)
from tests.why_support import HOSTILE, LINES, QUERY, chernobyl

playwright_or_skip()

pytestmark = pytest.mark.browser
V = "window.factgraphView"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_browser()


class Page(RecordingPage):
    """A page that records every request and every dialog / page error."""

    def off_machine(self, allowed: tuple[str, ...]) -> list[str]:
        return [u for u in self.requests if not u.startswith(allowed)]


def _check_panel(page: Any) -> None:
    """The panel of a drawn view of ``chernobyl(hostile=True)``: each kind of reason."""
    page.evaluate(f"{V}.select('g1')")
    details = page.inner_text("#fg-details")
    assert "Why: " + LINES["g1"] in details
    assert page.inner_text("#fg-details .fg-quote") == \
        "The Chernobyl accident happened on 26 April 1986 in reactor No. 4."
    checks = page.locator("#fg-details .fg-evidence li").all_inner_texts()
    assert "method: evidence" in checks and "word_share: 0.875" in checks
    assert "p_stated: 0.776" in checks
    page.evaluate(f"{V}.select('g2')")
    assert "Why: " + LINES["g2"] in page.inner_text("#fg-details")
    assert "conflict: antonym, fact positive, response negative" in \
        page.locator("#fg-details .fg-evidence li").all_inner_texts()
    # the hostile response sentence is quoted as text and runs nothing
    page.evaluate(f"{V}.select('g4')")
    assert page.inner_text("#fg-details .fg-quote").startswith(HOSTILE)
    assert "(name: sweden → finland)" in page.inner_text("#fg-details .fg-why-line")
    page.evaluate(f"{V}.select('g3')")
    assert page.inner_text("#fg-details .fg-why-line").startswith(
        "Why: missing (P 0.07, words 0.14, numbers missing 1.00); nearest [r3]")
    # the contradicted list names each pair's reason
    lines = page.locator("#fg-contradictions .fg-why-line").all_inner_texts()
    assert lines[0] == "why: " + LINES["g2"] and len(lines) == 2
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator("#fg-panel script, #fg-panel img").count() == 0


def test_view_panel_shows_why(browser: Any, tmp_path: Path) -> None:
    path = tmp_path / "why.html"
    path.write_text(render_view(chernobyl(hostile=True)), encoding="utf-8")
    p = Page(browser)
    p.page.goto(path.as_uri() + "#statement=g1")
    wait_until(p.page, VIEW_DRAWN, timeout_ms=60_000)
    assert p.page.evaluate(f"{V}.openedStatement()") == "g1"
    assert "Why: " + LINES["g1"] in p.page.inner_text("#fg-details")
    _check_panel(p.page)
    assert p.dialogs == [] and p.errors == []
    assert p.off_machine(("file://", "data:", "blob:")) == []
    p.page.close()


def test_explore_shows_why(browser: Any) -> None:
    pytest.importorskip("starlette", reason="the explorer needs its extra: factgraph[explore]")
    pytest.importorskip("uvicorn", reason="the explorer needs its extra: factgraph[explore]")
    pytest.importorskip("httpx", reason="httpx is not installed")
    from factgraph.explore.app import create_app
    from factgraph.explore.sources import ResultsSource
    from factgraph.store.records import query_id
    from tests.explore_support import serve

    with serve(create_app(ResultsSource([chernobyl(hostile=True)], label="why"))) as base:
        p = Page(browser)
        p.page.goto(f"{base}/query/{query_id(QUERY)}")
        p.page.wait_for_selector("table.fg-matrix")
        whys = p.page.locator(".fx-contradictions .fx-why").all_inner_texts()
        assert whys[0] == "why: " + LINES["g2"]
        assert whys[1].startswith("why: contradicted by [r3] \"" + HOSTILE)
        p.page.locator(".fx-contradictions h3 a").first.click()
        wait_until(p.page, VIEW_DRAWN, timeout_ms=60_000)
        _check_panel(p.page)
        assert p.dialogs == [] and p.errors == []
        assert p.off_machine((base + "/", "data:", "blob:", "about:")) == []
        p.page.close()


def test_view_panel_lists_a_statements_clauses_with_their_p(browser: Any, tmp_path: Path
                                                            ) -> None:
    """A reference statement stated in part: the panel lists each clause and its P as text,
    not as an object."""
    import factgraph

    ev = factgraph.evaluate(
        "q", "The reactor had a positive void coefficient.",
        ["The reactor had a positive void coefficient, which made it unstable at low power."],
        judge="e2e-evidence")
    fact = next(s.id for s in ev.graph.statements if s.origin.value == "context")
    path = tmp_path / "clauses.html"
    path.write_text(render_view(ev), encoding="utf-8")
    p = Page(browser)
    p.page.goto(path.as_uri())
    wait_until(p.page, VIEW_DRAWN, timeout_ms=60_000)
    p.page.evaluate(f"{V}.select({fact!r})")
    checks = p.page.locator("#fg-details .fg-evidence li").all_inner_texts()
    clauses = next(c for c in checks if c.startswith("clauses: "))
    assert "\u201cThe reactor had a positive void coefficient\u201d (P 0.9" in clauses
    # the unstated clause's P, low (its digits move with the calibration)
    low = re.search("\u201cwhich made it unstable at low power.\u201d \\(P (0\\.\\d+)\\)", clauses)
    assert low is not None and float(low.group(1)) < 0.3
    assert "object" not in clauses and any(c.startswith("p_clauses: 0.5") for c in checks)
    assert p.errors == []
    p.page.close()
