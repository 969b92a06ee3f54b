"""A scripted backend for unit tests of orchestration and parsing (never a stand-in for a
real capability).

``ScriptedTextBackend(script)`` answers each chat with ``script(messages, params)``; the script
may return a string, or a ``(text, logprobs)`` pair. ``latency_s`` simulates slow calls.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from factgraph.backends.base import (
    ChatMessage,
    Generation,
    GenerationParams,
    NLIResult,
    TokenLogprob,
)
from factgraph.backends.keys import call_key, trace_id
from factgraph.models import Trace

ScriptOutput = str | tuple[str, list[TokenLogprob] | None]
Script = Callable[[Sequence[ChatMessage], GenerationParams], ScriptOutput]


def call_id(
    engine: str, model: str, messages: Sequence[ChatMessage], params: GenerationParams
) -> str:
    """A deterministic id for a call (see factgraph.backends.keys)."""
    return trace_id(call_key(engine, model, messages, params))


class ScriptedTextBackend:
    """Text backend whose replies come from a Python function."""

    engine = "scripted"

    def __init__(self, script: Script, model: str = "scripted", latency_s: float = 0.0) -> None:
        self.script = script
        self.model = model
        self.latency_s = latency_s
        self.calls = 0

    def generate(
        self, batch: Sequence[Sequence[ChatMessage]], params: GenerationParams
    ) -> list[Generation]:
        out: list[Generation] = []
        for messages in batch:
            start = time.perf_counter()
            if self.latency_s:
                time.sleep(self.latency_s)
            reply = self.script(messages, params)
            text, logprobs = (reply, None) if isinstance(reply, str) else reply
            self.calls += 1
            trace = Trace(
                id=call_id(self.engine, self.model, messages, params),
                engine=self.engine,
                model=self.model,
                messages=[m.model_dump() for m in messages],
                parameters=params.model_dump(mode="json"),
                raw_output=text,
                latency_s=time.perf_counter() - start,
            )
            out.append(Generation(text=text, logprobs=logprobs, finish_reason="stop", trace=trace))
        return out


class ScriptedNLIBackend:
    """NLI backend whose verdicts come from a function of (premise, hypothesis)."""

    engine = "scripted"

    def __init__(self, judge: Callable[[str, str], str], model: str = "scripted-nli") -> None:
        self._judge = judge
        self.model = model
        self.calls = 0

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[NLIResult]:
        results: list[NLIResult] = []
        for premise, hypothesis in pairs:
            self.calls += 1
            label = self._judge(premise, hypothesis)
            probs = {"entails": 0.0, "neutral": 0.0, "contradicts": 0.0}
            probs[label] = 1.0
            results.append(
                NLIResult(
                    entailment=probs["entails"],
                    neutral=probs["neutral"],
                    contradiction=probs["contradicts"],
                    source="parsed_label",
                )
            )
        return results
