"""The per-fact coverage judge (e2e, coverage_judge="per-fact") on a scripted backend:
orchestration, probability reading, cut-off, reuse, self-consistency and failure records."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import pytest

from factgraph.backends.base import ChatMessage, GenerationParams, TokenLogprob
from factgraph.backends.scripted import ScriptedTextBackend
from factgraph.inputs import Document, EvaluationInput
from factgraph.methods.e2e.fact_questions import per_fact_score
from factgraph.methods.run import Backends, Evaluator
from factgraph.stages.context_facts import grounding_overlap
from tests.scripted_support import one_token_reply, prompt_field

TEXT1 = "The Varn tunnel is 4.2 kilometres long. It opened in 1987 between Holm and Edder."
TEXT2 = ("City records say the Varn tunnel is 5 kilometres long, not 4.2 kilometres as the "
         "first survey said.")
FACTS = {
    TEXT1: ["The Varn tunnel is 4.2 kilometres long.", "The Varn tunnel opened in 1987.",
            # not in the text: the grounding check must drop it
            "The Varn tunnel cost 90 million crowns to build."],
    TEXT2: ["The Varn tunnel is 5 kilometres long.",
            "The Varn tunnel is 4.2 kilometres long."],  # duplicate of a fact of text 1
}
# P(yes) the scripted judge gives each (response, fact)
P_YES = {
    ("It is 4.2 km long and opened in 1987.", "The Varn tunnel is 4.2 kilometres long."): 0.9,
    ("It is 4.2 km long and opened in 1987.", "The Varn tunnel opened in 1987."): 0.6,
    ("It is 4.2 km long and opened in 1987.", "The Varn tunnel is 5 kilometres long."): 0.1,
}



class Judge:
    def __init__(self, answer: str | None = None) -> None:
        self.coverage_params: list[GenerationParams] = []
        self.fact_calls = 0
        self.answer = answer

    def __call__(self, messages: Sequence[ChatMessage], params: GenerationParams
                 ) -> str | tuple[str, list[TokenLogprob] | None]:
        system, user = messages[0].content, messages[-1].content
        if system.startswith("You pick out the facts"):
            self.fact_calls += 1
            text = user.split("TEXT:\n", 1)[1].strip()
            return json.dumps({"facts": FACTS[text]})
        assert system.startswith("You compare a PREMISE with a HYPOTHESIS")
        self.coverage_params.append(params)
        if self.answer is not None:
            return self.answer, None
        response, fact = prompt_field(user, "PREMISE"), prompt_field(user, "HYPOTHESIS")
        p = P_YES.get((response, fact), 0.05)
        top = {"yes": math.log(p * 0.9), "Yes": math.log(p * 0.1),
               "no": math.log((1 - p) * 0.6), "unknown": math.log((1 - p) * 0.35),
               "The": math.log(0.001)}
        return one_token_reply(top)


def _input(n: int, response: str = "It is 4.2 km long and opened in 1987.") -> EvaluationInput:
    return EvaluationInput(id=f"i{n}", query="How long is the Varn tunnel?", response=response,
                           documents=[Document(id="context1", text=TEXT1),
                                      Document(id="context2", text=TEXT2)])


def _evaluator(judge: Judge, **options: object) -> Evaluator:
    return Evaluator("e2e", backends=Backends(text=ScriptedTextBackend(judge)),
                     options={"coverage_judge": "per-fact", **options})


def test_per_fact_scores_from_probabilities_and_reuses_facts() -> None:
    judge = Judge()
    ev = _evaluator(judge, coverage_cutoff=0.5)
    first = ev(_input(1))
    # grounded, de-duplicated facts: 4.2 km (texts 1+2), 1987, 5 km
    facts = {s.text: s for s in first.graph.statements if s.origin == "context"}
    assert set(facts) == {"The Varn tunnel is 4.2 kilometres long.",
                          "The Varn tunnel opened in 1987.",
                          "The Varn tunnel is 5 kilometres long."}
    assert facts["The Varn tunnel is 4.2 kilometres long."].metadata["sources"] == [
        "context1", "context2"]
    p = {t: s.metadata["p_covered"] for t, s in facts.items()}
    # P(yes) = m_yes / (m_yes + m_no + m_unknown): "yes" + "Yes" against "no"; "The" ignored
    assert p["The Varn tunnel is 4.2 kilometres long."] == pytest.approx(
        0.9 / (0.9 + 0.95 * 0.1), abs=1e-6)
    assert p["The Varn tunnel opened in 1987."] == pytest.approx(0.6 / (0.6 + 0.95 * 0.4),
                                                                 abs=1e-6)
    assert first.scores["comprehensiveness"] == pytest.approx(2 / 3)
    counts = first.metadata["counts"]
    assert counts["facts.ungrounded"] == 1 and counts["facts.duplicates"] == 1
    assert counts["coverage.calls"] == 3 and counts["coverage.generated_tokens"] == 3
    # every coverage question: one token, top log-probabilities, no JSON constraint
    assert all(pp.max_tokens == 1 and pp.top_logprobs and pp.json_schema is None
               for pp in judge.coverage_params)
    # a second response to the same query and texts reuses the facts: no extraction call
    second = ev(_input(2, response="Nobody knows."))
    assert judge.fact_calls == 2  # one per text, for the first response only
    assert second.metadata["counts"]["context.reused"] == 1
    assert second.scores["comprehensiveness"] == 0.0
    # the recorded probabilities re-score at any cut-off without a model
    assert per_fact_score(first, 0.7) == pytest.approx(1 / 3)
    assert per_fact_score(first, 0.05) == 1.0
    assert ev.parsed_options.coverage_cutoff == 0.5
    assert first.parameters["coverage_cutoff"] == 0.5


def test_cutoff_changes_the_verdict() -> None:
    strict = _evaluator(Judge(), coverage_cutoff=0.95)(_input(1))
    assert strict.scores["comprehensiveness"] == 0.0
    lax = _evaluator(Judge(), coverage_cutoff=0.05)(_input(1))
    assert lax.scores["comprehensiveness"] == 1.0


def test_self_consistency_costs_k_calls_and_averages_votes() -> None:
    judge = Judge(answer="yes")
    ev = _evaluator(judge, coverage_samples=3)(_input(1))
    assert ev.metadata["counts"]["coverage.calls"] == 9
    assert {pp.seed for pp in judge.coverage_params} == {0, 1, 2}
    assert all(pp.temperature == 1.0 for pp in judge.coverage_params)
    assert ev.scores["comprehensiveness"] == 1.0


def test_unreadable_answers_are_failures_not_no() -> None:
    ev = _evaluator(Judge(answer="Maybe"))(_input(1))
    assert ev.scores["comprehensiveness"] is None
    assert "no fact got a readable yes/no answer" in ev.metadata["incomplete"]
    assert len(ev.parse_failures) == 3
    assert all(f.stage == "coverage" for f in ev.parse_failures)


def test_no_fact_is_undefined_with_reason() -> None:
    def script(messages: Sequence[ChatMessage], params: GenerationParams) -> str:
        return json.dumps({"facts": []})

    ev = Evaluator("e2e", backends=Backends(text=ScriptedTextBackend(script)),
                   options={"coverage_judge": "per-fact"})(_input(1))
    assert ev.scores["comprehensiveness"] is None
    assert "no fact" in ev.metadata["incomplete"]


def test_grounding_overlap() -> None:
    assert grounding_overlap("The Varn tunnel is 4.2 kilometres long.", TEXT1) == 1.0
    assert grounding_overlap("The Varn tunnel is 6 kilometres long.", TEXT1) == 0.0  # number
    assert grounding_overlap("Bananas grow in Ecuador.", TEXT1) == 0.0


def test_grounding_reads_spelled_out_numbers() -> None:
    text = 'The Very pistol is of one inch bore (26.5mm), now known as "Calibre 4".'
    assert grounding_overlap("The Very pistol has a bore of 1 inch (26.5mm).", text) == 1.0
    assert grounding_overlap("The Very pistol has a bore of 2 inches.", text) == 0.0


def test_grounding_reads_ordinals() -> None:
    text = "Paul McCole was born on 1 February 1972 in Castlemilk."
    assert grounding_overlap("Paul McCole was born on the 1st February.", text) == 1.0
    assert grounding_overlap("Paul McCole was born on the 10th February.", text) == 0.0


def test_per_fact_counts_no_word_check() -> None:
    """The word check belongs to the answer judge: per-fact evaluations count no such stage."""
    ev = _evaluator(Judge())(_input(1))
    assert "coverage.stated" not in ev.metadata["counts"]
