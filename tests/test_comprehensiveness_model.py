"""NLI-, Q&A- and end-to-end comprehensiveness with a real small model on one WikiContradict
row (excluded from the default run: ``-m model``).

A llama.cpp server runs the GGUF from ``scripts/assemble-models.sh``; the real ``openai:``
backend talks to it. A ≤1.5B model is no reference judge, so the graph's structure and the
score's range are asserted, and that the model followed the prompts well enough to produce
statements — not the score's value.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from factgraph.graph import analyze
from factgraph.models import Evaluation, FactGraph
from tests.llama_server import llama_server, small_gguf

HUMANEVAL = "wikicontradict/wiki_contradict_simple_humaneval.jsonl"


@pytest.fixture(scope="module")
def server_spec(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    gguf = small_gguf()
    with llama_server(gguf, tmp_path_factory.mktemp("llama") / "server.log") as spec:
        yield spec


def assert_well_formed(ev: Evaluation) -> None:
    graph = FactGraph.model_validate_json(ev.graph.model_dump_json())
    ids = {s.id for s in graph.statements}
    assert len(ids) == len(graph.statements)
    assert all(r.src in ids and r.dst in ids for r in graph.relations)
    assert any(s.origin == "response" for s in graph.statements), "no response statement"
    assert any(s.origin == "context" for s in graph.statements), "no context statement"
    score = ev.scores["comprehensiveness"]
    assert score is not None and 0.0 <= score <= 1.0
    result = analyze(graph)
    assert score == pytest.approx(result.score)
    assert ev.traces and all(t.raw_output is not None for t in ev.traces)


@pytest.mark.model
@pytest.mark.parametrize("method", ["e2e", "qa", "nli"])
def test_method_end_to_end_on_a_wikicontradict_row(method: str, server_spec: str,
                                                   shared_data: Path, tmp_path: Path) -> None:
    from factgraph.datasets.wikicontradict import load_items
    from factgraph.methods.run import Backends, Evaluator

    item = load_items(shared_data / HUMANEVAL)[0].input  # row 0, answer 0 (both contexts)
    backends = Backends.from_specs(server_spec, cache=str(tmp_path / "calls.sqlite"))
    ev = Evaluator(method, backends=backends)(item)
    assert ev.method == method and ev.id == item.id
    assert_well_formed(ev)
    assert not ev.limits_hit


def _answer_judge(server_spec: str, tmp_path: Path, text1: str, text2: str
                  ) -> Callable[[str, str, str], Evaluation]:
    """The answer-coverage judge on the real model at the cut-off tuned on dev (0.7), over
    two background texts: (id, query, response) -> Evaluation."""
    from factgraph.inputs import Document, EvaluationInput
    from factgraph.methods.run import Backends, Evaluator

    docs = [Document(id="context1", text=text1), Document(id="context2", text=text2)]
    backends = Backends.from_specs(server_spec, cache=str(tmp_path / "calls.sqlite"))
    judge = Evaluator("e2e", backends=backends,
                      options={"coverage_judge": "answers", "coverage_cutoff": 0.7})
    return lambda name, query, response: judge(EvaluationInput(
        id=name, query=query, response=response, documents=docs))


@pytest.mark.model
def test_answer_coverage_judge_reads_which_answers_a_response_gives(
        server_spec: str, tmp_path: Path) -> None:
    """The answer-coverage judge with the real model: the answers of two conflicting texts are
    extracted (grounded in their texts), and a response giving both, one or neither of them
    scores 1, 1/2 and 0 at the cut-off tuned on dev (0.7)."""
    judge = _answer_judge(server_spec, tmp_path,
                          "The Varn tunnel links the towns of Holm and Edder. It was opened "
                          "to traffic in 1987.",
                          "According to the city archive, the Varn tunnel between Holm and "
                          "Edder opened in 1991.")
    scores = {}
    for name, response in [("both", "Sources differ: it opened in 1987 or in 1991."),
                           ("one", "The Varn tunnel opened in 1991."),
                           ("neither", "The Varn tunnel opened in 1975.")]:
        ev = judge(name, "When did the Varn tunnel open?", response)
        answers = [s.text for s in ev.graph.statements if s.origin == "context"]
        assert any("1987" in a for a in answers) and any("1991" in a for a in answers), answers
        scores[name] = ev.scores["comprehensiveness"]
    assert scores == {"both": 1.0, "one": 0.5, "neither": 0.0}


@pytest.mark.model
def test_answer_coverage_judge_reads_a_yes_no_answer_in_other_words(
        server_spec: str, tmp_path: Path) -> None:
    """``yes_no_polarity`` (the default) with the real model: the texts answer a yes/no query
    "yes" and "no"; a response that says "no" in other words, one that gives both sides and one
    that opens with "Yes" score 1/2, 1 and 1/2."""
    judge = _answer_judge(server_spec, tmp_path,
                          "The Varn tunnel carries a road and, since 1994, a railway line "
                          "between Holm and Edder.",
                          "The Varn tunnel is a road tunnel. No railway line has ever run "
                          "through it.")
    scores, matched = {}, {}
    for name, response in [
            ("no", "The Varn tunnel only carries road traffic; trains have never used it."),
            ("both", "The sources disagree: one says a railway line runs through the tunnel "
                     "since 1994, the other that no railway has ever run through it."),
            ("yes", "Yes, a railway line runs through the Varn tunnel.")]:
        ev = judge(name, "Does a railway line run through the Varn tunnel?", response)
        answers = {s.text.lower(): s for s in ev.graph.statements if s.origin == "context"}
        assert set(answers) == {"yes", "no"}, list(answers)
        scores[name] = ev.scores["comprehensiveness"]
        matched[name] = sorted(s.metadata["matched"] for s in answers.values())
    assert scores == {"no": 0.5, "both": 1.0, "yes": 0.5}
    assert matched["no"] == ["polarity", "polarity"]
    assert matched["yes"] == ["polarity", "words"]


@pytest.mark.model
def test_answer_coverage_judge_counts_one_answer_for_a_response_that_rejects_the_other(
        server_spec: str, tmp_path: Path) -> None:
    """``several_answers_check`` (the default) with the real model: a response that names
    both texts' answers but rejects one gives one answer, so it covers one of the two (S = 1/2)
    although both are stated word for word; one that gives both as alternatives keeps S = 1.
    The several-answers probability is recorded on the response statement either way."""
    judge = _answer_judge(server_spec, tmp_path,
                          "The Varn tunnel links the towns of Holm and Edder. It was opened "
                          "to traffic in 1987.",
                          "According to the city archive, the Varn tunnel between Holm and "
                          "Edder opened in 1991.")
    scores, several = {}, {}
    for name, response in [
            ("rejects", "The Varn tunnel opened in 1991; the year 1987 that some guides give "
                        "is a mistake."),
            ("both", "Sources differ: it opened in 1987 or in 1991.")]:
        ev = judge(name, "When did the Varn tunnel open?", response)
        answers = [s for s in ev.graph.statements if s.origin == "context"]
        assert all(s.metadata["matched"] == "words" for s in answers), answers
        scores[name] = ev.scores["comprehensiveness"]
        several[name] = ev.graph.statements[0].metadata["p_several"]
    assert scores == {"rejects": 0.5, "both": 1.0}
    assert several["rejects"] < 0.7 <= several["both"]


@pytest.mark.model
def test_answer_coverage_judge_keeps_the_parts_of_a_list_answer(
        server_spec: str, tmp_path: Path) -> None:
    """To a query that asks for a list, the texts' answers are parts of one reply: a response
    naming both is complete although it gives "one answer" (the several-answers check reads
    the query as a list query and keeps the second answer)."""
    judge = _answer_judge(server_spec, tmp_path,
                          "Varn fever causes a high temperature that lasts for days.",
                          "Patients with Varn fever also develop a dry cough.")
    ev = judge("list", "Which symptoms does Varn fever cause?",
               "Varn fever causes a high temperature and a dry cough.")
    answers = [s.text for s in ev.graph.statements if s.origin == "context"]
    assert len(answers) == 2, answers
    assert ev.scores["comprehensiveness"] == 1.0
    assert ev.graph.statements[0].metadata["p_one_answer_query"] < 0.5
