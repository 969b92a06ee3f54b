"""A reference's facts listed by a text model (reference_facts="model"): chunked per
paragraph, each statement kept only where its words are its chunk's, repeats merged, an
unreadable chunk falling back to the model-free statements. The model here is scripted (the
orchestration and the checks are under test); the real-engine run is the benchmark's smoke
test (tests/test_benchmarks_smoke.py, model_facts)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from factgraph.backends.base import ChatMessage, GenerationParams
from factgraph.backends.scripted import ScriptedTextBackend, ScriptOutput
from factgraph.errors import UserInputError
from factgraph.inputs import Document, EvaluationInput
from factgraph.methods.comprehensiveness import ComprehensivenessOptions
from factgraph.methods.e2e.method import run_e2e
from factgraph.stages.context_facts import grounding_overlap
from factgraph.stages.model_facts import (
    merge_statements,
    model_reference_facts,
    paragraph_chunks,
)
from factgraph.stages.session import ModelSession
from factgraph.stages.text_units import split_statements

DAM = ("The Brannock Dam was finished in 1962. It holds back Lake Tovey, which feeds two "
       "rivers. The dam is 140 metres high.")
CENTRE = "The visitor centre closed twice in winter, and storms damaged its roof."
REFERENCE = f"{DAM}\n\n{CENTRE}"


def _script(replies: dict[str, str]) -> tuple[ScriptedTextBackend, list[str], list[int]]:
    """Replies by a word of the chunk the model is shown; the chunks it was shown and each
    call's cap on tokens."""
    shown: list[str] = []
    caps: list[int] = []

    def script(messages: Sequence[ChatMessage], params: GenerationParams) -> ScriptOutput:
        # the chunk: the last "TEXT:" message (a retry adds a repair message after it)
        text = next(m.content for m in reversed(messages) if m.content.startswith("TEXT:"))
        shown.append(text)
        caps.append(params.max_tokens)
        return next(reply for word, reply in replies.items() if word in text)
    return ScriptedTextBackend(script), shown, caps


def test_chunks_are_paragraphs_cut_into_runs_of_sentences() -> None:
    assert paragraph_chunks(REFERENCE) == [DAM, CENTRE]
    assert paragraph_chunks(REFERENCE, max_sentences=2) == [
        "The Brannock Dam was finished in 1962. It holds back Lake Tovey, which feeds two "
        "rivers.", "The dam is 140 metres high.", CENTRE]


def test_grounding_and_merging_are_read_off_the_words() -> None:
    assert grounding_overlap("The Brannock Dam holds back Lake Tovey.", DAM, stemmed=True) == 1.0
    assert grounding_overlap("The Brannock Dam is in Austria.", DAM, stemmed=True) < 0.8
    # another figure is a made-up statement, however many words it shares
    assert grounding_overlap("The Brannock Dam was finished in 1963.", DAM, stemmed=True) == 0.0
    # other inflections of the chunk's words are its words
    assert grounding_overlap("Lake Tovey is feeding rivers.", DAM, stemmed=True) == 1.0
    assert grounding_overlap("Lake Tovey is feeding rivers.", DAM) < 1.0
    assert merge_statements(["The dam is 140 metres high.", "The dam is 140 metres tall high.",
                             "The dam was finished in 1962."]) == [
        "The dam is 140 metres high.", "The dam was finished in 1962."]


def test_the_models_statements_are_grounded_merged_and_an_unreadable_chunk_falls_back() -> None:
    statements = ["The Brannock Dam was finished in 1962.",
                  "The Brannock Dam holds back Lake Tovey.",
                  "The Brannock Dam holds back Lake Tovey.",  # said twice
                  "The Brannock Dam holds back the Lake Tovey.",  # the same words again
                  "The Brannock Dam is the largest dam in Austria."]  # not in the text
    text, shown, caps = _script({"Brannock": json.dumps({"statements": statements}),
                                 "visitor": "I cannot help with that."})
    session = ModelSession(text=text)
    got = model_reference_facts(session, {"ref": REFERENCE})["ref"]
    assert got.chunks == 2 and any("Brannock" in s for s in shown)
    # a reply is capped by its chunk's length: a looping model stops early
    assert set(caps) == {64 + 3 * max(len(c.split()) for c in paragraph_chunks(REFERENCE))}
    assert got.facts[:2] == statements[:2]
    assert got.ungrounded == [statements[4]]
    assert got.fallback_chunks == 1  # the centre's paragraph: the model-free statements
    assert got.facts[2:] == split_statements(CENTRE)
    assert session.counts["reference_facts.ungrounded"] == 1
    assert any(f.stage == "reference_facts" for f in session.failures)  # recorded, not lost


def test_the_evidence_judge_judges_the_models_facts_and_records_them() -> None:
    text, _, _ = _script({"Brannock": json.dumps({"statements": [
        "The Brannock Dam was finished in 1962.", "The Brannock Dam is 140 metres high."]}),
        "visitor": json.dumps({"statements": ["The visitor centre closed twice in winter."]})})
    inp = EvaluationInput(id="x", query="q",
                          response="The Brannock Dam, finished in 1962, is a landmark.",
                          documents=[Document(id="ref", text=REFERENCE)])
    options = ComprehensivenessOptions(coverage_judge="evidence", reference_facts="model")
    ev = run_e2e(inp, ModelSession(text=text), options)
    facts = [s.text for s in ev.graph.statements if s.origin.value == "context"]
    assert facts == ["The Brannock Dam was finished in 1962.",
                     "The Brannock Dam is 140 metres high.",
                     "The visitor centre closed twice in winter."]
    assert ev.scores["n_covered"] == 1
    record = next(iter(ev.parameters["reference_facts"].values()))
    assert record["kept"] == 3 and record["chunks"] == 2 and record["ungrounded"] == []


def test_model_facts_without_a_text_model_is_a_clear_error() -> None:
    inp = EvaluationInput(id="x", query="q", response="The dam is old.",
                          documents=[Document(id="ref", text=REFERENCE)])
    options = ComprehensivenessOptions(coverage_judge="evidence", reference_facts="model")
    with pytest.raises(UserInputError, match="needs a text model"):
        run_e2e(inp, ModelSession(), options)
