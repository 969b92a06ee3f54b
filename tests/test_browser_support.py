"""The browser tests' wait helper under the views' Content-Security-Policy (no ``eval``).

A condition that becomes true only after a few polls is what a loaded CI machine produces;
Playwright's plain string predicate fails there with an ``EvalError``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser_support import launched_browser, playwright_or_skip, wait_until

playwright_or_skip()
pytestmark = pytest.mark.browser
# The views' policy allows their own inline scripts and nothing that evaluates a string.
NO_EVAL_PAGE = ("<html><head><meta http-equiv=\"Content-Security-Policy\" "
                "content=\"script-src 'unsafe-inline'\"></head><body></body></html>")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from launched_browser()


def _page_ready_later(browser: Any) -> Any:
    page = browser.new_page()
    page.set_content(NO_EVAL_PAGE)
    page.evaluate("setTimeout(() => { window.__ready = true }, 300)")
    return page


def test_wait_until_polls_a_late_condition_on_a_page_that_forbids_eval(browser: Any) -> None:
    page = _page_ready_later(browser)
    assert page.evaluate("window.__ready === true") is False  # not true on the first poll
    wait_until(page, "window.__ready === true", timeout_ms=10_000)
    assert page.evaluate("window.__ready") is True
    page.close()


def test_the_plain_string_predicate_is_what_fails_there(browser: Any) -> None:
    """Why the helper exists: if Playwright stops evaluating string predicates with ``eval``
    this test fails, and the helper can go."""
    page = _page_ready_later(browser)
    with pytest.raises(Exception, match="Content Security Policy"):
        page.wait_for_function("window.__ready === true", timeout=10_000)
    page.close()
