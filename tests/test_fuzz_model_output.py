"""Fuzz every parser of model output: whatever a model says, no exception escapes, and every
reply that could not be used is recorded as a parse failure in the Evaluation (issue 9)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factgraph.backends.base import ChatMessage, Generation, GenerationParams, TokenLogprob
from factgraph.backends.nli_judge import GenerativeNLIJudge, result_from_generation
from factgraph.backends.scripted import ScriptedTextBackend
from factgraph.backends.structured import ParseFailure, extract_json
from factgraph.inputs import Document, EvaluationInput
from factgraph.methods.comprehensiveness import ComprehensivenessOptions
from factgraph.methods.e2e.method import run_e2e
from factgraph.methods.nli import run_nli
from factgraph.methods.qa import run_qa
from factgraph.models import Trace
from factgraph.stages.atomize import AtomList
from factgraph.stages.relevance import score_from_generation
from factgraph.stages.session import ModelSession

# Text a model might say: anything, JSON of any shape, JSON-looking fragments, fences.
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["statements", "covered", "uncovered", "statement", "sources",
                         "questions", "answers", "answer", "confidence", "label", "x"]),
        inner, max_size=4),
    max_leaves=12)
replies = st.one_of(
    st.text(max_size=200),
    json_values.map(json.dumps),
    json_values.map(lambda v: f"Sure! ```json\n{json.dumps(v)}\n``` hope that helps"),
    st.sampled_from(['{"statements": [', "{{}}", "}{", "```", "null", '{"a": 1}{"b": 2}',
                     "\x00", "yes", "No.", "5", "unknown"]),
)
FUZZ = settings(max_examples=60, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _gen(text: str, logprobs: list[TokenLogprob] | None = None) -> Generation:
    return Generation(text=text, logprobs=logprobs,
                      trace=Trace(id="t", engine="fuzz", model="fuzz", raw_output=text))


@FUZZ
@given(replies)
def test_extract_json_returns_or_raises_the_documented_error(text: str) -> None:
    try:
        value = extract_json(text)
    except ParseFailure as e:
        assert str(e)  # the error says why
    else:
        json.dumps(value)  # a plain JSON value, nothing else


@FUZZ
@given(replies, st.dictionaries(st.text(max_size=4), st.floats(-50, 0), max_size=5))
def test_score_and_label_parsers_never_raise(text: str, top: dict[str, float]) -> None:
    lps = [TokenLogprob(token=next(iter(top), "x"), logprob=-0.1, top=top)] if top else None
    score, source = score_from_generation(_gen(text, lps))
    assert (score is None) == (source == "failed")
    assert score is None or 1.0 <= score <= 5.0
    res = result_from_generation(_gen(text, lps))
    total = res.entailment + res.neutral + res.contradiction
    assert (res.source == "failed" and total == 0.0) or abs(total - 1.0) < 1e-9


@FUZZ
@given(st.lists(replies, min_size=3, max_size=3))
def test_structured_result_is_parsed_or_recorded(texts: list[str]) -> None:
    replies_left = list(texts)

    def script(messages: Sequence[ChatMessage], params: GenerationParams) -> str:
        return replies_left.pop(0) if replies_left else texts[-1]

    session = ModelSession(text=ScriptedTextBackend(script), max_repairs=2)
    chat = [ChatMessage(role="user", content="split this")]
    [result] = session.structured("atomize", [chat], AtomList, items=["t1"])
    assert (result is None) == (len(session.failures) == 1)
    if result is None:
        failure = session.failures[0]
        assert failure.stage == "atomize" and failure.trace_id


INPUT = EvaluationInput(id="fuzz", query="Where was Mara Voss born?",
                        response="Mara Voss was born in Bergen.",
                        documents=[Document(id="d1", text="Mara Voss was born in Bergen."),
                                   Document(id="d2", text="She was born in 1871.")])


@FUZZ
@given(st.lists(replies, min_size=1, max_size=8))
def test_every_method_survives_any_model_output(texts: list[str]) -> None:
    def script(messages: Sequence[ChatMessage], params: GenerationParams) -> str:
        return texts[next(counter) % len(texts)]

    for run in (run_e2e, run_qa, run_nli):
        counter = itertools.count()
        text = ScriptedTextBackend(script)
        session = ModelSession(text=text, nli=GenerativeNLIJudge(text))
        ev = run(INPUT, session, ComprehensivenessOptions())
        score = ev.scores["comprehensiveness"]
        assert score is None or 0.0 <= score <= 1.0
        ids = {s.id for s in ev.graph.statements}
        assert all(r.src in ids and r.dst in ids for r in ev.graph.relations)
        # Every recorded failure points at a model call the Evaluation keeps.
        traces = {t.id for t in ev.traces}
        assert all(f.trace_id is None or f.trace_id in traces for f in ev.parse_failures)
        if score is None:
            assert ev.metadata.get("incomplete") or ev.parse_failures or not [
                s for s in ev.graph.statements if s.origin == "context"]
