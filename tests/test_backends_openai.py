"""The OpenAI-compatible engine: retry, backoff and concurrency against a local server that
misbehaves on purpose (protocol tests), and a real vLLM OpenAI server (capability test)."""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")

from factgraph.backends import ChatMessage, GenerationParams
from factgraph.backends.cpu_plan import detect_cpu_features
from factgraph.backends.openai_compat import (
    OpenAICompatibleBackend,
    OpenAIServerError,
    request_body,
)
from tests.backends_support import server_log_excerpt

MSG = [ChatMessage(role="user", content="hi")]


class Script:
    """What the fake server answers: a list of status codes, then 200s."""

    def __init__(self) -> None:
        self.statuses: list[int] = []
        self.faults: list[str] = []  # "garbage", "truncated", "empty_choices", "slow"
        self.requests: list[dict[str, Any]] = []
        self.auth: list[str | None] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.delay = 0.0
        self.lock = threading.Lock()


def make_handler(script: Script) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            with script.lock:
                script.requests.append(body)
                script.auth.append(self.headers.get("Authorization"))
                status = script.statuses.pop(0) if script.statuses else 200
                fault = script.faults.pop(0) if script.faults else ""
                script.in_flight += 1
                script.max_in_flight = max(script.max_in_flight, script.in_flight)
            time.sleep(script.delay + (1.0 if fault == "slow" else 0.0))
            with script.lock:
                script.in_flight -= 1
            if fault in ("garbage", "truncated", "empty_choices"):
                data = {"garbage": b"<html>502 Bad Gateway</html>",
                        "truncated": b'{"choices": [{"message": {"content": "ec',
                        "empty_choices": b'{"choices": []}'}[fault]
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                # A truncated body promises more bytes than it sends, then the server hangs up.
                self.send_header("Content-Length",
                                 str(len(data) + (100 if fault == "truncated" else 0)))
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()
                self.close_connection = True
                return
            if status != 200:
                self.send_response(status)
                if status == 429:
                    self.send_header("Retry-After", "0.05")
                self.end_headers()
                self.wfile.write(b'{"error": "try later"}')
                return
            top = [{"token": "echo", "logprob": -0.1}, {"token": "x", "logprob": -2.5}]
            reply = {"choices": [{"message": {"content": "echo " + body["messages"][-1]["content"]},
                                  "finish_reason": "stop",
                                  "logprobs": {"content": [{"token": "echo", "logprob": -0.1,
                                                            "top_logprobs": top}]}}],
                     "usage": {"prompt_tokens": 3, "completion_tokens": 2}}
            data = json.dumps(reply).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


@pytest.fixture
def fake_server() -> Iterator[tuple[str, Script]]:
    script = Script()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(script))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1", script
    server.shutdown()


def backend(url: str, **kw: Any) -> OpenAICompatibleBackend:
    kw.setdefault("backoff_base_s", 0.01)
    return OpenAICompatibleBackend("m", base_url=url, api_key="sk-test-secret", **kw)


def test_retries_429_and_5xx_then_succeeds(fake_server: tuple[str, Script]) -> None:
    url, script = fake_server
    script.statuses = [429, 500, 503]
    b = backend(url)
    gen = b.generate([MSG], GenerationParams(top_logprobs=2))[0]
    assert gen.text == "echo hi" and b.retries_done == 3 and len(script.requests) == 4
    assert gen.logprobs and gen.logprobs[0].top == {"echo": -0.1, "x": -2.5}
    assert gen.trace.usage == {"prompt_tokens": 3, "completion_tokens": 2}
    assert script.auth[-1] == "Bearer sk-test-secret"
    assert "sk-test-secret" not in repr(b)


def test_retries_are_bounded(fake_server: tuple[str, Script],
                             caplog: pytest.LogCaptureFixture) -> None:
    url, script = fake_server
    script.statuses = [500] * 10
    with caplog.at_level(logging.DEBUG, logger="factgraph.backends.openai_compat"), \
            pytest.raises(OpenAIServerError, match="gave up after 2 retries"):
        backend(url, max_retries=2).generate([MSG], GenerationParams())
    assert len(script.requests) == 3
    # the logging policy (README, "When things fail"): a handled retry is INFO, shown with -v;
    # without -v the user sees only the final one-line error
    retries = [r for r in caplog.records if "retry" in r.getMessage()]
    assert len(retries) == 2 and all(r.levelno == logging.INFO for r in retries)


@pytest.mark.parametrize("fault", ["garbage", "truncated", "empty_choices", "slow"])
def test_bad_bodies_and_timeouts_are_retried(fake_server: tuple[str, Script],
                                             fault: str) -> None:
    url, script = fake_server
    script.faults = [fault, fault]
    b = backend(url, timeout_s=0.5)
    gen = b.generate([MSG], GenerationParams())[0]
    assert gen.text == "echo hi" and b.retries_done == 2 and len(script.requests) == 3


def test_bad_bodies_fail_with_the_reason_after_bounded_retries(
        fake_server: tuple[str, Script]) -> None:
    url, script = fake_server
    script.faults = ["garbage"] * 5
    with pytest.raises(OpenAIServerError, match=r"gave up after 2 retries: unreadable response "
                                                r"body.*Bad Gateway"):
        backend(url, max_retries=2).generate([MSG], GenerationParams())
    assert len(script.requests) == 3


def test_a_failing_input_is_recorded_and_the_batch_goes_on(
        fake_server: tuple[str, Script], tmp_path: Path) -> None:
    from factgraph.inputs import Document, EvaluationInput
    from factgraph.methods.run import Backends, Evaluator
    from factgraph.runners.batch import BatchRunner

    url, script = fake_server
    script.faults = ["garbage"] * 2  # the first input's call fails twice = out of retries
    evaluator = Evaluator("e2e", backends=Backends(text=backend(url, max_retries=1)),
                          options={"coverage_judge": "list"})
    inputs = [(f"i{n}", EvaluationInput(id=f"i{n}", query="q", response="r",
                                        documents=[Document(id="d", text="t")]))
              for n in range(2)]
    summary = BatchRunner(evaluator, tmp_path / "out.jsonl", handle_signals=False).run(inputs)
    assert (summary.ran, summary.failed) == (1, 1)
    failure = json.loads((tmp_path / "out.jsonl.failures.jsonl").read_text())
    assert failure["id"] == "i0" and "unreadable response body" in failure["error"]


def test_client_errors_are_not_retried(fake_server: tuple[str, Script]) -> None:
    url, script = fake_server
    script.statuses = [400]
    with pytest.raises(OpenAIServerError, match="HTTP 400"):
        backend(url).generate([MSG], GenerationParams())
    assert len(script.requests) == 1


def test_concurrency_is_bounded(fake_server: tuple[str, Script]) -> None:
    url, script = fake_server
    script.delay = 0.1
    chats = [[ChatMessage(role="user", content=f"q{i}")] for i in range(8)]
    gens = backend(url, max_concurrency=3).generate(chats, GenerationParams())
    assert [g.text for g in gens] == [f"echo q{i}" for i in range(8)]  # order kept
    assert script.max_in_flight == 3


def test_request_body_carries_parameters() -> None:
    body = request_body("m", MSG, GenerationParams(temperature=0.2, max_tokens=7, seed=3,
                                                   stop=("\n",), top_logprobs=4,
                                                   json_schema={"type": "object"}))
    assert body["logprobs"] is True and body["top_logprobs"] == 4 and body["seed"] == 3
    assert body["response_format"]["json_schema"]["schema"] == {"type": "object"}
    assert body["stop"] == ["\n"] and body["stream"] is False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.skipif(importlib.util.find_spec("vllm") is None, reason="vLLM is not installed")
def test_real_vllm_openai_server(tmp_path: Path) -> None:
    from tests.backends_support import build_tiny_causal_lm

    model = build_tiny_causal_lm(tmp_path / "tiny")
    port = free_port()
    # The server always runs its engine in a separate EngineCore process (whatever
    # VLLM_ENABLE_V1_MULTIPROCESSING says), which on an AMX CPU crashes in bfloat16: the
    # launcher decides the dtype for this CPU, as users get it from the README's recipe.
    env = {**os.environ, "VLLM_CPU_NUM_OF_RESERVED_CPU": "0", "VLLM_HOST_IP": "127.0.0.1",
           "OMP_NUM_THREADS": "2", "PYTHONFAULTHANDLER": "1",
           "VLLM_CACHE_ROOT": str(tmp_path / "vc"),
           "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "ti")}
    log = (tmp_path / "server.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "factgraph.backends.vllm_server", "--model", str(model),
         "--served-model-name", "tiny", "--host", "127.0.0.1", "--port", str(port),
         "--enforce-eager", "--max-model-len", "512", "--dtype", "bfloat16",
         "--gpu-memory-utilization", "0.1"],
        stdout=log, stderr=subprocess.STDOUT, env=env)

    def server_log() -> str:
        return server_log_excerpt((tmp_path / "server.log").read_text(errors="replace"))

    try:
        import httpx

        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            assert server.poll() is None, server_log()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(1)
        b = OpenAICompatibleBackend("tiny", base_url=f"http://127.0.0.1:{port}/v1",
                                    api_key="none")
        try:
            gens = b.generate([MSG, [ChatMessage(role="user", content="the bridge")]],
                              GenerationParams(max_tokens=5, top_logprobs=3))
        except OpenAIServerError as e:  # show the engine's own traceback, not only ours
            raise AssertionError(server_log()) from e
        assert [g.trace.usage["completion_tokens"] for g in gens] == [5, 5]
        assert all(g.logprobs and len(g.logprobs) == 5 and len(g.logprobs[0].top) == 3
                   for g in gens)
        picked = b.generate([MSG], GenerationParams(max_tokens=3, choices=("yes", "no")))
        assert picked[0].text in {"yes", "no"}
        # the launcher said what it chose, and chose float32 exactly where AMX exists
        said = (tmp_path / "server.log").read_text(errors="replace")
        assert "factgraph: CPU " in said
        assert ("float32 instead of bfloat16" in said) == detect_cpu_features().amx_tile
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
