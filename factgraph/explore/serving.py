"""Serving the explorer: in the foreground (the CLI) or on a background thread (tests,
benchmarks, notebooks)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def serve_in_background(app: Any, host: str = "127.0.0.1", port: int | None = None,
                        timeout_s: float = 20.0) -> Iterator[str]:
    """Serve ``app`` with uvicorn on a thread; yields its base URL; stops it on exit."""
    import uvicorn

    from factgraph.store.server import free_port

    port = port or free_port()
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, name="factgraph-explore", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout_s
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            server.should_exit = True
            raise RuntimeError(f"the explorer did not start on {host}:{port}")
        time.sleep(0.02)
    try:
        shown = f"[{host}]" if ":" in host else host
        yield f"http://{shown}:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
