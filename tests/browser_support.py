"""Headless Chromium for the browser tests: Debian's build, offline flags, hostile texts."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Offline: without the background-networking flags Chromium tries to reach Google's hosts.
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync", "--disable-quic"]
# Texts that would run a script, break out of an attribute or a template placeholder of the
# views if anything were inserted unescaped.
HOSTILE = [
    "<script>window.__pwned = 1</script>",
    '"><img src=x onerror="window.__pwned = 2">',
    "</script><script>window.__pwned = 3</script>",
    "__VIS__ __APP__ __DATA__ <!-- \u2028\u2029 & &amp; <b>bold</b>",
    "'; window.__pwned = 4; //",
]

# The view has drawn its graph (the condition the view and explorer tests wait for).
VIEW_DRAWN = "window.factgraphView && window.factgraphView.drawnNodeCount() > 0"


def playwright_or_skip() -> Any:
    """Playwright's sync API; skips the calling module (or test) where Chromium or Playwright
    is missing, with the reason."""
    if not os.path.exists(CHROMIUM):
        pytest.skip("Chromium is not installed (apt-get install chromium)",
                    allow_module_level=True)
    return pytest.importorskip("playwright.sync_api", reason="playwright is not installed")


def launched_browser() -> Iterator[Any]:
    """One headless Chromium (the body of each module's ``browser`` fixture)."""
    sync_api = playwright_or_skip()
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield b
        b.close()


def wait_until(page: Any, condition: str, timeout_ms: float | None = None) -> None:
    """Wait until the JavaScript expression ``condition`` holds on ``page``.

    Playwright evaluates a string predicate with ``eval`` on every poll; only the first poll
    runs in DevTools' context, which a page's Content-Security-Policy does not govern. Our views
    forbid ``eval``, so a condition that was not already true on the first poll failed with an
    ``EvalError`` (seen as a flaky test under load). As an arrow function it is evaluated once,
    on that first poll, and afterwards only called."""
    page.wait_for_function(f"() => ({condition})", timeout=timeout_ms)


class RecordingPage:
    """A browser page that records every request and every dialog / page error."""

    def __init__(self, browser: Any) -> None:
        self.page = browser.new_page(viewport={"width": 1300, "height": 900})
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
