"""The answer-coverage judge with ``response_answers``: the response's own answers to the query,
checked against each background text (``factgraph/stages/response_answers.py``), on a scripted
backend. An answer a text supports and the per-text reading missed joins the answer set and is
covered; one no text supports (or that is not grounded in any text) never counts."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import pytest

from factgraph.backends.base import ChatMessage, GenerationParams, TokenLogprob
from factgraph.backends.scripted import ScriptedTextBackend
from factgraph.inputs import Document, EvaluationInput
from factgraph.methods.run import Backends, Evaluator
from factgraph.stages.response_answers import is_known
from tests.scripted_support import one_token_reply, prompt_field

QUERY = "Did Ansel Varga attend the opening of the Lund museum in 1990?"
TEXT1 = "Ansel Varga gave a reading at the opening of the Lund museum in 1990."
TEXT2 = "Ansel Varga, a poet from Holm, wrote four books of verse. He died in 1984."
# What the extraction prompt reads from each text (text 2 only implies "no": missed), and
# from each response.
READ = {TEXT1: ["yes"], TEXT2: [],
        "No: Varga had died six years before.": ["no"],
        "Yes, he gave a reading there.": ["yes"],
        "Maybe; it is not recorded.": ["maybe"],
        "No, he was abroad that year.": ["no"],
        "No. Varga had died six years before.": []}  # the reading misses the response's "no"
# P(yes) of "does TEXT give ANSWER?" per (text, answer)
SUPPORT = {(TEXT2, "no"): 0.9, (TEXT1, "no"): 0.1}
# P(yes) of "does RESPONSE give ANSWER?" per (response, answer)
COVER = {("Yes, he gave a reading there.", "yes"): 0.95}


class Judge:
    def __init__(self, support: dict[tuple[str, str], float] | None = None) -> None:
        self.support = SUPPORT if support is None else support
        self.read: list[str] = []
        self.asked_support: list[tuple[str, str]] = []
        self.asked_cover: list[tuple[str, str]] = []

    def __call__(self, messages: Sequence[ChatMessage], params: GenerationParams
                 ) -> str | tuple[str, list[TokenLogprob] | None]:
        system, user = messages[0].content, messages[-1].content
        if system.startswith("You read a TEXT and a QUESTION"):
            text = user.split("TEXT:\n", 1)[1].strip()
            self.read.append(text)
            return json.dumps({"answers": READ[text]})
        if system.startswith("You check whether a TEXT gives"):
            text, answer = prompt_field(user, "TEXT"), prompt_field(user, "ANSWER")
            assert prompt_field(user, "QUESTION") == QUERY
            assert params.max_tokens == 1 and params.top_logprobs
            self.asked_support.append((text, answer))
            p = self.support.get((text, answer), 0.05)
        else:
            assert system.startswith("You check whether a RESPONSE to a QUESTION")
            response, answer = prompt_field(user, "RESPONSE"), prompt_field(user, "ANSWER")
            self.asked_cover.append((response, answer))
            p = COVER.get((response, answer), 0.05)
        return one_token_reply({"yes": math.log(p), "no": math.log(1 - p)})


def _run(judge: Judge, response: str, **options: object):  # type: ignore[no-untyped-def]
    ev = Evaluator("e2e", backends=Backends(text=ScriptedTextBackend(judge)),
                   options={"coverage_judge": "answers", "response_answers": True,
                            "answer_match": "words-or-model", "yes_no_polarity": False,
                            **options})
    return ev(EvaluationInput(id="i1", query=QUERY, response=response,
                              documents=[Document(id="context1", text=TEXT1),
                                         Document(id="context2", text=TEXT2)]))


def test_an_answer_a_text_only_implies_is_found_through_the_response() -> None:
    judge = Judge()
    ev = _run(judge, "No: Varga had died six years before.")
    answers = {s.text: s for s in ev.graph.statements if s.origin == "context"}
    assert set(answers) == {"yes", "no"}
    found = answers["no"]
    assert found.metadata["found_in"] == "response"
    assert found.metadata["sources"] == ["context2"]  # text 1 says P(yes) = 0.1 < 0.5
    assert found.metadata["p_supported"] == {"context1": pytest.approx(0.1),
                                             "context2": pytest.approx(0.9)}
    # the new answer was put to both texts, the known "yes" to neither
    assert sorted(judge.asked_support) == [(TEXT1, "no"), (TEXT2, "no")]
    assert ev.scores["comprehensiveness"] == 0.5  # gives "no", not text 1's "yes"
    covered = {r.dst for r in ev.graph.relations if r.src == "r"}
    assert covered == {found.id}
    assert ev.metadata["counts"]["response_answers.supported"] == 1


def test_the_opening_yes_no_is_the_answer_to_a_yes_no_question() -> None:
    judge = Judge()
    ev = _run(judge, "No. Varga had died six years before.")
    assert sorted(judge.asked_support) == [(TEXT1, "no"), (TEXT2, "no")]
    assert ev.scores["comprehensiveness"] == 0.5


def test_without_the_option_the_missed_answer_stays_missing() -> None:
    judge = Judge()
    ev = _run(judge, "No: Varga had died six years before.", response_answers=False)
    assert [s.text for s in ev.graph.statements if s.origin == "context"] == ["yes"]
    assert ev.scores["comprehensiveness"] == 0.0  # an answer from the texts: wrongly "none"
    assert judge.asked_support == []
    assert "No: Varga had died six years before." not in judge.read


def test_a_known_answer_asks_no_text() -> None:
    judge = Judge()
    ev = _run(judge, "Yes, he gave a reading there.")
    assert judge.asked_support == []
    assert ev.metadata["counts"]["response_answers.new"] == 0
    assert ev.scores["comprehensiveness"] == 1.0  # "yes" stated word for word


def test_an_answer_no_text_supports_never_counts() -> None:
    judge = Judge(support={})  # every text says no
    ev = _run(judge, "No, he was abroad that year.")
    assert [s.text for s in ev.graph.statements if s.origin == "context"] == ["yes"]
    assert ev.scores["comprehensiveness"] == 0.0
    assert ev.metadata["counts"]["response_answers.unsupported"] == 1


def test_an_answer_grounded_in_no_text_is_not_asked() -> None:
    judge = Judge()
    ev = _run(judge, "Maybe; it is not recorded.")
    assert judge.asked_support == []  # "maybe" is a word of neither text
    assert ev.metadata["counts"]["response_answers.unsupported"] == 1
    assert ev.scores["comprehensiveness"] == 0.0


def test_the_support_cutoff_decides() -> None:
    ev = _run(Judge(), "No: Varga had died six years before.", response_answer_cutoff=0.95)
    assert ev.scores["comprehensiveness"] == 0.0


@pytest.mark.parametrize(("answer", "known", "expected"), [
    ("no", ["yes"], False), ("No", ["no"], True), ("February 1855", ["1855"], True),
    ("1855", ["February 1855"], True), ("January 1855", ["February 1855"], False),
    ("47,195 stores", ["120,000 convenience stores"], False)])
def test_is_known(answer: str, known: list[str], expected: bool) -> None:
    assert is_known(answer, known) is expected
