"""Issue 28 §3: a model server that is not there fails fast, in one line, and a batch whose
server goes away stops, keeping what finished (real OpenAI backend, the fake OpenAI server of
tests/fake_openai.py, and a closed local port for "connection refused")."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from contextlib import ExitStack
from pathlib import Path

import pytest

pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")

from factgraph.backends import ChatMessage, GenerationParams
from factgraph.backends.openai_compat import OpenAICompatibleBackend, OpenAIServerError
from factgraph.models import Evaluation, FactGraph, Statement
from factgraph.runners.batch import (
    BatchRunner,
    Outcome,
    ServerUnreachableError,
    UnreachableWatch,
    evaluate_one,
)
from tests.fake_openai import serve

ROOT = Path(__file__).resolve().parent.parent
MSG = [ChatMessage(role="user", content="hi")]


def closed_port() -> int:
    """A local port nothing listens on (bound, then released: connections are refused)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def echo(messages: Sequence[ChatMessage], params: GenerationParams) -> str:
    return "echo " + messages[-1].content


def backend(url: str) -> OpenAICompatibleBackend:
    return OpenAICompatibleBackend("m", base_url=url, api_key="none", backoff_base_s=0.01)


def test_no_server_fails_at_once_naming_the_address_and_what_to_start() -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    b = backend(url)
    start = time.monotonic()
    with pytest.raises(OpenAIServerError) as info:
        b.generate([MSG, MSG], GenerationParams())
    assert time.monotonic() - start < 3.0
    message = str(info.value)
    assert url in message and "vllm serve" in message and "\n" not in message
    assert info.value.unreachable and info.value.never_reached
    assert b.retries_done == 0 and not b.server_checked


def test_the_check_runs_once_and_accepts_a_server_without_a_models_route() -> None:
    with serve(echo) as (url, served):  # answers GET /models with 501: a server is there
        b = backend(url)
        assert [g.text for g in b.generate([MSG], GenerationParams())] == ["echo hi"]
        assert b.server_checked and served.requests == 1  # the check is no chat request
        b.generate([MSG], GenerationParams())
        assert served.requests == 2


def test_a_server_that_went_away_is_not_retried_like_a_5xx() -> None:
    with serve(echo) as (url, _):
        b = backend(url)
        b.generate([MSG], GenerationParams())
    start = time.monotonic()
    with pytest.raises(OpenAIServerError) as info:
        b.generate([MSG], GenerationParams())
    assert time.monotonic() - start < 3.0 and b.retries_done == 0
    assert info.value.unreachable and not info.value.never_reached  # it was there before
    assert url in str(info.value) and "gave up" not in str(info.value)


def test_the_flags_survive_pickling() -> None:
    import pickle

    e = pickle.loads(pickle.dumps(OpenAIServerError("x", never_reached=True)))
    assert (str(e), e.unreachable, e.never_reached) == ("x", True, True)


# ---- the batch -----------------------------------------------------------------------------

def _gone(i: str, never: bool = False) -> Outcome:
    return Outcome(i, error="OpenAIServerError: x", message="x", unreachable=True,
                   never_reached=never)


def test_the_watch_stops_at_once_when_never_reached_else_after_a_run_of_failures() -> None:
    ok = Outcome("a", evaluation=Evaluation(id="a", method="m", graph=FactGraph()))
    other = Outcome("b", error="ValueError: bad input", message="bad input")
    first = UnreachableWatch(3)
    first.observe(_gone("x", never=True))
    assert first.stop
    later = UnreachableWatch(3)
    for o in (ok, _gone("1", never=True), _gone("2"), other, _gone("3"), _gone("4")):
        later.observe(o)
        assert not later.stop  # a success first; another failure breaks the run
    later.observe(_gone("5"))
    assert later.stop and later.last is not None and later.last.item_id == "5"
    with pytest.raises(ValueError):
        UnreachableWatch(0)


class EchoEvaluation:
    """A thin evaluation: one real model call per input through the real backend; the fake
    server it talks to can be made to go away after some inputs."""

    def __init__(self, b: OpenAICompatibleBackend, vanish_after: int | None = None,
                 stack: ExitStack | None = None) -> None:
        self.backend, self.vanish_after, self.stack = b, vanish_after, stack
        self.calls: list[str] = []

    def __call__(self, text: str) -> Evaluation:
        self.calls.append(text)
        out = self.backend.generate([[ChatMessage(role="user", content=text)]],
                                    GenerationParams())[0]
        if self.stack is not None and len(self.calls) == self.vanish_after:
            self.stack.close()  # the server goes away (its port refuses from now on)
        return Evaluation(id=text, method="echo", graph=FactGraph(statements=[
            Statement(id="r1", text=out.text, origin="response")]))


def test_a_batch_whose_server_goes_away_stops_keeps_what_finished_and_resumes(
        tmp_path: Path) -> None:
    items = [(f"q{i}", f"q{i}") for i in range(8)]
    out = tmp_path / "results.jsonl"
    stack = ExitStack()
    url, _ = stack.enter_context(serve(echo))
    evaluate = EchoEvaluation(backend(url), vanish_after=3, stack=stack)
    start = time.monotonic()
    with pytest.raises(ServerUnreachableError) as info:
        BatchRunner(evaluate, out, handle_signals=False).run(items)
    assert time.monotonic() - start < 5.0
    message = str(info.value)
    assert "3 inputs in a row" in message and url in message and "--resume" in message
    assert "3 evaluated in this run" in message and "2 not started" in message
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == \
        ["q0", "q1", "q2"]
    failures = (tmp_path / "results.jsonl.failures.jsonl").read_text().splitlines()
    assert [json.loads(line)["id"] for line in failures] == ["q3", "q4", "q5"]
    assert evaluate.calls == [f"q{i}" for i in range(6)]  # q6, q7 never started
    # the server is back: --resume finishes the rest, nothing twice
    with serve(echo) as (url2, _):
        summary = BatchRunner(EchoEvaluation(backend(url2)), out, resume=True,
                              handle_signals=False).run(items)
    assert (summary.already_done, summary.ran, summary.failed) == (3, 5, 0)
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == \
        [f"q{i}" for i in range(8)]


def test_evaluate_one_reads_the_marks_through_wrapping_errors() -> None:
    def wrapped(_: str) -> Evaluation:
        try:
            raise OpenAIServerError("no model server at X", never_reached=True)
        except OpenAIServerError as e:
            raise RuntimeError("stage failed") from e

    o = evaluate_one(wrapped, "i", "x")
    assert o.unreachable and o.never_reached and o.error == "RuntimeError: stage failed"
    assert not evaluate_one(lambda _: (_ for _ in ()).throw(ValueError("v")), "i", "x").unreachable


def test_cli_batch_and_evaluate_without_a_server_fail_fast_in_one_line(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{closed_port()}/v1"
    inputs = tmp_path / "in.jsonl"
    inputs.write_text("".join(json.dumps({
        "id": f"x{i}", "query": "Tell me about the dam.", "response": "It was built in 1856.",
        "documents": [{"id": "d1", "text": "The dam was built in 1856. It is 30 m high."}]}) + "\n"
        for i in range(20)))
    out = tmp_path / "out.jsonl"
    for args in (["batch", str(inputs), "-o", str(out)],
                 ["evaluate", "--input", str(tmp_path / "one.json")]):
        (tmp_path / "one.json").write_text(inputs.read_text().splitlines()[0])
        start = time.monotonic()
        res = subprocess.run([sys.executable, "-m", "factgraph", *args, "--method", "nli",
                              "--model", f"openai:m@{url}", "--no-cache"], cwd=ROOT,
                             capture_output=True, text=True, timeout=120)
        elapsed = time.monotonic() - start
        assert res.returncode == 1, res.stderr
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and url in lines[0] and "vllm serve" in lines[0], res.stderr
        assert elapsed < 20, elapsed  # mostly interpreter start-up; was 39-56 s for 3 inputs
    assert not out.exists() or out.read_text() == ""
    assert len((tmp_path / "out.jsonl.failures.jsonl").read_text().splitlines()) == 1
