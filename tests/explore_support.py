"""Shared pieces of the explorer tests: the app served by a real uvicorn on 127.0.0.1."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from factgraph.store.server import free_port


@contextmanager
def serve(app: Any, host: str = "127.0.0.1") -> Iterator[str]:
    """Serve ``app`` with uvicorn in a thread; yields its base URL; stops it afterwards."""
    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, name="explore-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the explorer did not start")
        time.sleep(0.02)
    try:
        shown = f"[{host}]" if ":" in host else host
        yield f"http://{shown}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


HEBER_QUERY = "Did Bishop Heber meet D’Oyly in the 1840s in Patna ?"
# The coverage matrix of HEBER_QUERY in examples/heber_results.py, worked out by hand (see
# tests/test_matrix.py): columns ans-a, ans-c (model-a), ans-b (model-b).
HEBER_COLUMNS = ["ans-a", "ans-c", "ans-b"]
HEBER_MATRIX = {
    "Bishop Heber described Charles D'Oyly as the best gentleman artist he ever met.":
        ["basis", "basis", "basis"],
    "Charles D'Oyly worked for the Company for forty years.": ["basis", "basis", "basis"],
    "Failing health compelled Charles D'Oyly to retire.": ["basis", "basis", "basis"],
    # c1a and c1d are one row (one SCC); the engine's representative text names it
    "Bishop Heber visited Patna in the 1840s.": ["covered", "basis", "basis"],
    "Charles D'Oyly retired and left India in 1838.": ["basis", "covered", "basis"],
    "Bishop Heber met Charles D'Oyly.": ["uncovered", "uncovered", "covered"],
    "Charles D'Oyly left India in 1838.": ["covered", "covered", "uncovered"],
}
HEBER_MISSED_BY_ALL = 3
