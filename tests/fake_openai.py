"""An OpenAI-compatible HTTP server whose replies come from a scripted function.

It lets CLI tests drive the real ``openai:`` backend (HTTP, retries, cache) end to end while the
model's answers stay scripted (e.g. by :class:`tests.pipeline_support.PromptRouter`).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from factgraph.backends.base import ChatMessage, GenerationParams
from factgraph.backends.scripted import Script


class ServedScript:
    """The script plus a count of the requests it answered."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.requests = 0
        self.lock = threading.Lock()


def _handler(served: ServedScript, latency_s: float) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            if latency_s:
                time.sleep(latency_s)  # in this request's own thread: all wait at once
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            messages = [ChatMessage(role=m["role"], content=m["content"])
                        for m in body["messages"]]
            params = GenerationParams(max_tokens=body.get("max_tokens") or 256,
                                      temperature=body.get("temperature", 0.0))
            with served.lock:
                served.requests += 1
                out = served.script(messages, params)
            text, logprobs = (out, None) if isinstance(out, str) else out
            choice: dict[str, Any] = {"message": {"role": "assistant", "content": text},
                                      "finish_reason": "stop"}
            if logprobs:
                choice["logprobs"] = {"content": [
                    {"token": lp.token, "logprob": lp.logprob,
                     "top_logprobs": [{"token": t, "logprob": v} for t, v in lp.top.items()]}
                    for lp in logprobs]}
            data = json.dumps({"choices": [choice],
                               "usage": {"prompt_tokens": 10, "completion_tokens": 5}}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


class _ManyClientsServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256  # many concurrent clients (Ray actors) connect at once


@contextmanager
def serve(script: Script, latency_s: float = 0.0) -> Iterator[tuple[str, ServedScript]]:
    """Serve ``script`` on a free local port; yields ``(base_url, served)``. Every request
    first waits ``latency_s`` (a fixed model latency, for concurrency tests)."""
    served = ServedScript(script)
    server = _ManyClientsServer(("127.0.0.1", 0), _handler(served, latency_s))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", served
    finally:
        server.shutdown()
        server.server_close()
