"""Rebuild the explorer screenshots in docs/ (headless Debian Chromium, local FalkorDB).

    python docs/explore_screenshots.py

Writes docs/explore_matrix.png (a query's leaderboard and coverage matrix over the examples),
docs/explore_view.png (a matrix cell opened in the response's graph, path highlighted) and
docs/explore_queries.png (a named query run from its form over a pushed FalkorDB graph).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync"]


def main() -> None:
    from playwright.sync_api import sync_playwright

    from factgraph.explore.app import create_app
    from factgraph.explore.serving import serve_in_background
    from factgraph.explore.sources import ResultsSource, StoreSource
    from factgraph.graph.results import load_evaluations
    from factgraph.store import push_evaluations
    from factgraph.store.falkordb_store import FalkorDBStore
    from factgraph.store.records import context_statement_id, query_id
    from factgraph.store.server import FalkorDBServer
    from factgraph.store.writer import ensure_schema

    examples = load_evaluations(ROOT / "examples" / "heber_results.jsonl")
    docs = ROOT / "docs"
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
        page = browser.new_page(viewport={"width": 1400, "height": 860})
        with serve_in_background(create_app(ResultsSource(examples, "heber_results.jsonl"))) \
                as base:
            page.goto(base + "/")
            page.locator("#fx-queries a", has_text="Bishop Heber").click()
            page.wait_for_selector("table.fg-matrix")
            page.screenshot(path=str(docs / "explore_matrix.png"), full_page=True)
            row = page.locator("table.fg-matrix tbody tr", has_text="Charles D'Oyly left India")
            row.locator("td.fg-cell a").first.click()
            page.wait_for_function("window.factgraphView && "
                                   "window.factgraphView.network.physics.stabilized !== false")
            page.wait_for_timeout(500)
            page.screenshot(path=str(docs / "explore_view.png"))
        with FalkorDBServer() as srv:
            store = FalkorDBStore(srv.url, graph="screenshots")
            ensure_schema(store)
            push_evaluations(store, examples)
            c2c = context_statement_id(query_id(examples[0].query), "context2",
                                       "Charles D'Oyly left India in 1838.")
            with serve_in_background(create_app(StoreSource(store, "falkordb"))) as base:
                page.goto(f"{base}/queries/statement_neighbourhood?statement_id={c2c}&k=2")
                page.wait_for_function("window.factgraphExploreGraph && window."
                                       "factgraphExploreGraph.network.physics.stabilized "
                                       "!== false")
                page.wait_for_timeout(500)
                page.screenshot(path=str(docs / "explore_queries.png"), full_page=True)
            store.close()
        browser.close()
    for name in ("explore_matrix.png", "explore_view.png", "explore_queries.png"):
        print(docs / name)


if __name__ == "__main__":
    main()
