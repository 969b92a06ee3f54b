"""Issue 28 §5 in Debian's headless Chromium: the explorer's table headers break only between
words ("responses" was drawn as "response" / "s" beside long query texts)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser_support import launched_browser, playwright_or_skip

playwright_or_skip()
pytest.importorskip("starlette", reason="the explorer needs its extra: factgraph[explore]")
pytest.importorskip("uvicorn", reason="the explorer needs its extra: factgraph[explore]")

from factgraph.explore import pages  # noqa: E402
from factgraph.explore.app import create_app  # noqa: E402
from factgraph.explore.sources import ResultsSource  # noqa: E402
from factgraph.graph.results import load_evaluations  # noqa: E402
from tests.explore_support import serve  # noqa: E402

pytestmark = pytest.mark.browser
REPO = Path(__file__).resolve().parent.parent
E2E = REPO / "examples" / "wikicontradict_e2e_qwen1.5b.jsonl"  # long queries, five models

# Every word of a header cell drawn over more than one line (a word is a run of letters and
# underscores: hyphenated model names may break at their hyphens).
SPLIT_WORDS = """() => {
  const out = [];
  for (const th of document.querySelectorAll("table.fx-table th")) {
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/[A-Za-z_]+/g)) {
        const r = document.createRange();
        r.setStart(node, m.index);
        r.setEnd(node, m.index + m[0].length);
        const lines = new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top)));
        if (lines.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_browser()


def split_headers(browser: Any, width: int) -> dict[str, list[str]]:
    """Per page of the explorer over the e2e example, the header words drawn split."""
    source = ResultsSource(load_evaluations(E2E), label="e2e")
    query = next(q for q in source.queries() if q.responses > 1)
    urls = ["/", pages.query_url(query.id), pages.model_url("gpt-4")]
    out = {}
    with serve(create_app(source)) as base:
        page = browser.new_page(viewport={"width": width, "height": 900})
        try:
            for url in urls:
                page.goto(base + url)
                assert page.locator("table.fx-table th").count() >= 3, url
                out[url] = page.evaluate(SPLIT_WORDS)
        finally:
            page.close()
    return out


@pytest.mark.parametrize("width", [1280, 1024, 800])
def test_header_words_are_never_split(browser: Any, width: int) -> None:
    split = split_headers(browser, width)
    assert split == {url: [] for url in split}


def test_the_check_sees_a_split_header(browser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the explorer's header rule the index draws "responses" split (the issue)."""
    monkeypatch.setattr(pages, "EXPLORER_CSS", "")
    assert "responses" in split_headers(browser, 1280)["/"]
