"""Cache, call keys, structured output and the generative NLI judge (no model needed)."""

from __future__ import annotations

import math
import multiprocessing as mp
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic import BaseModel

from factgraph.backends import (
    CachedTextBackend,
    CallCache,
    ChatMessage,
    GenerationParams,
    TokenLogprob,
    generate_structured,
)
from factgraph.backends.cache import CachedCall
from factgraph.backends.keys import call_key
from factgraph.backends.nli_judge import GenerativeNLIJudge, result_from_generation
from factgraph.backends.scripted import ScriptedTextBackend
from factgraph.backends.structured import ParseFailure, extract_json
from factgraph.cli.main import cli

MSG = [ChatMessage(role="user", content="hello")]


def test_call_key_covers_everything() -> None:
    base = call_key("e", "m", MSG, GenerationParams())
    variants = [
        call_key("e2", "m", MSG, GenerationParams()),
        call_key("e", "m2", MSG, GenerationParams()),
        call_key("e", "m", MSG, GenerationParams(), revision="r1"),
        call_key("e", "m", [ChatMessage(role="system", content="hello")], GenerationParams()),
        call_key("e", "m", MSG, GenerationParams(temperature=0.7)),
        call_key("e", "m", MSG, GenerationParams(max_tokens=9)),
        call_key("e", "m", MSG, GenerationParams(seed=1)),
        call_key("e", "m", MSG, GenerationParams(stop=("x",))),
        call_key("e", "m", MSG, GenerationParams(top_logprobs=5)),
        call_key("e", "m", MSG, GenerationParams(json_schema={"type": "object"})),
        call_key("e", "m", MSG, GenerationParams(choices=("a", "b"))),
    ]
    assert len({base, *variants}) == len(variants) + 1
    assert base == call_key("e", "m", MSG, GenerationParams())


def test_cached_backend_hits_marked_and_identical(tmp_path: Path) -> None:
    inner = ScriptedTextBackend(lambda m, p: "reply to " + m[-1].content, latency_s=0.01)
    cached = CachedTextBackend(inner, CallCache(tmp_path / "c.sqlite"))
    batch = [[ChatMessage(role="user", content=f"q{i}")] for i in range(4)]
    first = cached.generate(batch, GenerationParams())
    assert inner.calls == 4 and not any(g.trace.cached for g in first)
    second = cached.generate([*batch, [ChatMessage(role="user", content="new")]],
                             GenerationParams())
    assert inner.calls == 5  # only the new chat reached the engine
    assert [g.trace.cached for g in second] == [True] * 4 + [False]
    assert [g.text for g in second[:4]] == [g.text for g in first]
    assert [g.trace.id for g in second[:4]] == [g.trace.id for g in first]
    assert second[0].trace.latency_s == first[0].trace.latency_s  # the original latency
    # A different parameter is a different call.
    cached.generate(batch[:1], GenerationParams(temperature=0.5))
    assert inner.calls == 6
    stats = cached.cache.stats()
    assert stats.calls == 6 and stats.hits == 4 and stats.by_model == {"scripted:scripted": 6}


def _worker(path: str, worker: int, out: mp.Queue) -> None:  # type: ignore[type-arg]
    cache = CallCache(path)
    got = 0
    for i in range(60):
        key = f"k{i % 30}"
        cache.put(key, "e", "m", CachedCall(output=f"v{i % 30}", usage={"w": worker}))
        hit = cache.get(key)
        got += hit is not None and hit.output == f"v{i % 30}"
    out.put(got)


def test_cache_is_safe_across_processes(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.sqlite")
    q: mp.Queue = mp.get_context("fork").Queue()  # type: ignore[type-arg]
    procs = [mp.get_context("fork").Process(target=_worker, args=(path, w, q)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    assert sorted(q.get() for _ in procs) == [60] * 4
    assert CallCache(path).stats().calls == 30


def test_cache_cli(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    CachedTextBackend(ScriptedTextBackend(lambda m, p: "x"), CallCache(path)).generate(
        [MSG], GenerationParams())
    res = CliRunner().invoke(cli, ["cache", "stats", "--path", str(path), "--output", "json"])
    assert res.exit_code == 0 and '"calls": 1' in res.stdout
    res = CliRunner().invoke(cli, ["cache", "clear", "--path", str(path), "--yes"])
    assert res.exit_code == 0 and '"deleted": 1' in res.stdout


class Verdict(BaseModel):
    label: str
    score: int


def test_extract_json_is_lenient() -> None:
    assert extract_json('Sure!\n```json\n{"a": [1, 2]}\n```') == {"a": [1, 2]}
    assert extract_json('noise {"a": 1} trailing {"b": 2}') == {"a": 1}
    assert extract_json("x [1, {\"y\": 2}] z") == [1, {"y": 2}]
    with pytest.raises(ParseFailure):
        extract_json("no json here { broken")


def test_structured_repairs_then_succeeds() -> None:
    replies = iter(["I think it is fine.", '{"label": "ok"}', '```json\n{"label": "ok", '
                    '"score": 3}\n```'])
    backend = ScriptedTextBackend(lambda m, p: next(replies))
    res = generate_structured(backend, MSG, Verdict, max_repairs=2)
    assert res.ok and res.value == Verdict(label="ok", score=3) and res.attempts == 3
    assert [t.parse_error is not None for t in res.traces] == [True, True, False]
    assert "score" in (res.traces[1].parse_error or "")
    # The repair turn shows the model its own reply and the error.
    assert backend.calls == 3


def test_structured_failure_is_recorded_not_defaulted() -> None:
    backend = ScriptedTextBackend(lambda m, p: "never json")
    res = generate_structured(backend, MSG, Verdict, max_repairs=1)
    assert not res.ok and res.value is None and res.attempts == 2
    assert res.error and all(t.parse_error for t in res.traces)
    assert backend.calls == 2  # bounded


def test_generative_nli_from_logprobs_and_labels() -> None:
    def script(m, p):  # type: ignore[no-untyped-def]
        hyp = m[-1].content
        if "logprobs" in hyp:
            top = {"ent": math.log(0.6), "contr": math.log(0.1), "neutral": math.log(0.2),
                   "zzz": math.log(0.1)}
            return "ent", [TokenLogprob(token="ent", logprob=math.log(0.6), top=top)]
        if "word" in hyp:
            return "Contradiction."
        return "I cannot say"

    judge = GenerativeNLIJudge(ScriptedTextBackend(script))
    a, b, c = judge.judge([("p", "logprobs"), ("p", "word"), ("p", "junk")])
    assert a.source == "probabilities" and a.label == "entails"
    assert a.entailment == pytest.approx(0.6 / 0.9) and a.neutral == pytest.approx(0.2 / 0.9)
    assert b.source == "parsed_label" and b.label == "contradicts" and b.contradiction == 1.0
    assert c.source == "failed" and c.entailment == c.neutral == c.contradiction == 0.0
    assert c.trace is not None and c.trace.parse_error
    assert result_from_generation  # exported for engines that batch themselves
