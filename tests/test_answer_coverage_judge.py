"""The answer-coverage judge (e2e, coverage_judge="answers") on a scripted backend: the answers
each text gives to the query are extracted once per query (grounded, merged across texts), then
one yes/no token per (response, answer) with the query shown; S re-reads at any cut-off."""

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
from factgraph.models import Evaluation, StatementKind
from factgraph.stages.answer_match import answer_stated
from tests.scripted_support import one_token_reply, prompt_field

QUERY = "When did the Varn tunnel open?"
TEXT1 = "The Varn tunnel links Holm and Edder. It opened in 1987."
TEXT2 = "According to the city archive, the Varn tunnel opened in 1989, not in 1987."
TEXT_SAME = "The Varn tunnel opened in 1987, after four years of work."
ANSWERS = {
    TEXT1: ["1987", "in 2031"],  # "in 2031" is not in the text: grounding drops it
    TEXT2: ["1989", "1987."],  # "1987." is text 1's answer again: merged
    TEXT_SAME: ["1987"],
}
# P(yes) of the scripted judge per (response, answer)
P_YES = {("It opened in 1987; some say 1989.", "1987"): 0.92,
         ("It opened in 1987; some say 1989.", "1989"): 0.71,
         ("1987.", "1987"): 0.88,
         ("1987.", "1989"): 0.08}
# P(the response gives more than one answer) of the scripted several-answers check
P_SEVERAL = {"It opened in 1987; some say 1989.": 0.9}



class Judge:
    def __init__(self) -> None:
        self.extractions = 0
        self.questions: list[tuple[str, str, str]] = []
        self.params: list[GenerationParams] = []
        self.several: list[str] = []

    def __call__(self, messages: Sequence[ChatMessage], params: GenerationParams
                 ) -> str | tuple[str, list[TokenLogprob] | None]:
        system, user = messages[0].content, messages[-1].content
        if system.startswith("You read a TEXT and a QUESTION"):
            self.extractions += 1
            assert prompt_field(user, "QUESTION") == QUERY
            # the extraction is constrained to a bounded list of answers
            assert params.json_schema is not None
            assert params.json_schema["properties"]["answers"]["maxItems"] == 3
            return json.dumps({"answers": ANSWERS[user.split("TEXT:\n", 1)[1].strip()]})
        if system.startswith("You read a QUESTION. Say whether it asks for one answer"):
            return one_token_reply({"one": 0.0})  # P(one answer) = 1: the factor is q
        if system.startswith("You read a QUESTION and a RESPONSE"):  # several answers?
            self.several.append(prompt_field(user, "RESPONSE"))
            q = P_SEVERAL.get(self.several[-1], 0.1)
            return one_token_reply({"yes": math.log(q), "no": math.log(1 - q)})
        assert system.startswith("You check whether a RESPONSE to a QUESTION")
        query, response, answer = (prompt_field(user, k)
                                   for k in ("QUESTION", "RESPONSE", "ANSWER"))
        self.questions.append((query, response, answer))
        self.params.append(params)
        p = P_YES.get((response, answer), 0.02)
        top = {"yes": math.log(p), "no": math.log((1 - p) * 0.99), "The": math.log(0.001)}
        return one_token_reply(top)


def _input(n: int, response: str, texts: Sequence[str] = (TEXT1, TEXT2)) -> EvaluationInput:
    return EvaluationInput(id=f"i{n}", query=QUERY, response=response,
                           documents=[Document(id=f"context{k}", text=t)
                                      for k, t in enumerate(texts, 1)])


def _evaluator(judge: Judge, **options: object) -> Evaluator:
    return Evaluator("e2e", backends=Backends(text=ScriptedTextBackend(judge)),
                     options={"coverage_judge": "answers", **options})


def test_answers_once_per_query_grounded_merged_and_judged_with_the_query() -> None:
    judge = Judge()
    ev = _evaluator(judge, coverage_cutoff=0.5, answer_match="model")
    both = ev(_input(1, "It opened in 1987; some say 1989."))
    answers = {s.text: s for s in both.graph.statements if s.origin == "context"}
    assert set(answers) == {"1987", "1989"}  # "in 2031" ungrounded, "1987." merged
    assert answers["1987"].metadata["sources"] == ["context1", "context2"]
    assert all(s.kind == StatementKind.answer and s.question_id == "q1"
               and s.metadata["question"] == QUERY for s in answers.values())
    counts = both.metadata["counts"]
    assert counts["query_answers.ungrounded"] == 1
    assert counts["query_answers.duplicates"] == 1
    assert counts["coverage.calls"] == 2
    # each yes/no question shows the query, the response and one answer, for one token
    assert {a for _, _, a in judge.questions} == {"1987", "1989"}
    assert all(q == QUERY for q, _, _ in judge.questions)
    assert all(p.max_tokens == 1 and p.top_logprobs and p.json_schema is None
               for p in judge.params)
    # P(yes) = m_yes / (m_yes + m_no): the stray "The" token is ignored
    p_1989 = 0.71 / (0.71 + 0.29 * 0.99)
    assert answers["1989"].metadata["p_stated"] == pytest.approx(p_1989, abs=1e-6)
    # two answers reach the cut-off: the second counts × P(several answers) = 0.9
    assert judge.several == ["It opened in 1987; some say 1989."]
    assert answers["1989"].metadata["p_covered"] == pytest.approx(p_1989 * 0.9, abs=1e-6)
    assert answers["1987"].metadata["p_covered"] == pytest.approx(0.92 / (0.92 + 0.08 * 0.99),
                                                                  abs=1e-6)
    assert both.scores["comprehensiveness"] == 1.0
    covering = [r for r in both.graph.relations if r.src == "r"]
    assert {r.dst for r in covering} == {s.id for s in answers.values()}
    assert all(r.method == "answers" for r in covering)

    one = ev(_input(2, "1987."))
    assert judge.extractions == 2  # one per text, only for the first response
    assert one.metadata["counts"]["context.reused"] == 1
    assert one.scores["comprehensiveness"] == 0.5
    basis = {s.text for s in one.graph.statements if s.id in
             {v.statement_id for v in one.verdicts if v.label == "basis"}}
    assert basis == {"1989"}  # the answer the response leaves out
    # the recorded probabilities re-score at any cut-off without a model
    assert per_fact_score(one, 0.9) == 0.0
    assert per_fact_score(one, 0.05) == 1.0


def test_two_texts_with_one_answer_make_one_component() -> None:
    """WikiContradict rows whose two contexts agree: one answer, so S is 0 or 1."""
    ev = _evaluator(Judge(), coverage_cutoff=0.5, answer_match="model")(
        _input(1, "1987.", texts=(TEXT_SAME, TEXT_SAME)))
    answers = [s for s in ev.graph.statements if s.origin == "context"]
    assert [a.text for a in answers] == ["1987"]
    assert answers[0].metadata["sources"] == ["context1", "context2"]
    assert ev.scores["comprehensiveness"] == 1.0


def test_answers_stated_word_for_word_need_no_model_call() -> None:
    judge = Judge()
    ev = _evaluator(judge, coverage_cutoff=0.5)  # answer_match="words-or-model" by default
    both = ev(_input(1, "It opened in 1987; some say 1989."))
    assert judge.questions == []  # both answers are in the response: no coverage call
    assert both.metadata["counts"]["coverage.stated"] == 2
    facts = [s for s in both.graph.statements if s.origin == "context"]
    assert all(f.metadata["p_covered"] == (1.0 if f.text == "1987" else 0.9)
               and f.metadata["matched"] == "words" for f in facts)
    assert {r.method for r in both.graph.relations} == {"words"}
    assert both.scores["comprehensiveness"] == 1.0
    # "1987." states 1987 but not 1989: only 1989 goes to the model (P = 0.08: uncovered)
    one = ev(_input(2, "1987."))
    assert [a for _, _, a in judge.questions] == ["1989"]
    matched = {s.text: s.metadata["matched"] for s in one.graph.statements
               if s.origin == "context"}
    assert matched == {"1987": "words", "1989": "model"}
    assert one.scores["comprehensiveness"] == 0.5


@pytest.mark.parametrize(("answer", "response", "stated"), [
    ("26.5mm", "The bore is one inch (26.5 mm).", True),
    ("15 January 1971", "He died on January 15th, 1971.", True),
    ("15 January 1971", "He died in 1972.", False),
    ("47,195", "There were 120,000 such stores.", False),
    ("1 inch", "It is one inch wide.", True),
    ("yes", "Yes, it is.", True),
    ("yes", "Answer: No, it is not.", False),
    ("no", "Answer: No.", True),
    ("yes", "According to the text, yes.", False),  # not the opening word: left to the model
    ("Paul Seadlund", "His father was Peter Seadlund.", False),
    ("non-selective", "It is a nonselective agonist.", True),
    ("57-58%", "They got 57-58% of the votes.", True),
    ("57-58%", "They got 40% of the votes.", False),
])
def test_answer_stated(answer: str, response: str, stated: bool) -> None:
    assert answer_stated(answer, response) is stated


def test_no_answer_in_any_text_is_undefined_with_reason() -> None:
    def script(messages: Sequence[ChatMessage], params: GenerationParams) -> str:
        return json.dumps({"answers": []})

    ev = Evaluator("e2e", backends=Backends(text=ScriptedTextBackend(script)),
                   options={"coverage_judge": "answers"})(_input(1, "1987."))
    assert ev.scores["comprehensiveness"] is None
    assert ev.metadata["incomplete"] == "the background texts gave no answer to the query"


def test_options_are_recorded() -> None:
    ev = _evaluator(Judge(), coverage_cutoff=0.35, max_answers_per_text=3)(
        _input(1, "1987."))
    assert ev.parameters["coverage_judge"] == "answers"
    assert ev.parameters["coverage_cutoff"] == 0.35
    assert ev.parameters["max_answers_per_text"] == 3
    assert ev.parameters["answer_match"] == "words-or-model"


@pytest.mark.parametrize(("judge", "cutoff"), [("answers", 0.7), ("per-fact", 0.3),
                                               ("list", 0.5)])
def test_an_unset_cutoff_is_the_one_tuned_on_dev(judge: str, cutoff: float) -> None:
    """Run with the defaults, a judge uses (and records) the cut-off its judge card was tuned
    with, from Python options and from JSON alike; a given cut-off is kept."""
    from factgraph.methods.comprehensiveness import ComprehensivenessOptions

    assert ComprehensivenessOptions(coverage_judge=judge).coverage_cutoff == cutoff
    assert ComprehensivenessOptions.model_validate_json(
        json.dumps({"coverage_judge": judge})).coverage_cutoff == cutoff
    assert ComprehensivenessOptions(coverage_judge=judge, coverage_cutoff=0.15
                                    ).coverage_cutoff == 0.15
    if judge == "answers":
        ev = Evaluator("e2e", backends=Backends(text=ScriptedTextBackend(Judge())),
                       options={"coverage_judge": "answers"})(_input(1, "1987."))
        assert ev.parameters["coverage_cutoff"] == 0.7


def test_yes_no_answers_pass_grounding_and_merge_by_polarity() -> None:
    """A bare "yes" / "no" has no word to find in its text (it answers a yes/no query); the
    rest of an answer that starts with one is still checked."""
    replies = {"Text A.": ["yes"], "Text B.": ["No"], "Text C.": ["yes"],
               "Text D.": ["no, it closed in 2031"]}  # 2031 is not in text D: dropped

    def script(messages: Sequence[ChatMessage], params: GenerationParams
               ) -> str | tuple[str, list[TokenLogprob] | None]:
        user = messages[-1].content
        if "TEXT:\n" in user:
            return json.dumps({"answers": replies[user.split("TEXT:\n", 1)[1].strip()]})
        return "yes", None

    query = "Is the tunnel still open?"
    inp = EvaluationInput(id="yn", query=query, response="Yes.", documents=[
        Document(id=f"d{k}", text=t) for k, t in enumerate(replies, 1)])
    ev = Evaluator("e2e", backends=Backends(text=ScriptedTextBackend(script)),
                   options={"coverage_judge": "answers"})(inp)
    answers = {s.text: s.metadata["sources"] for s in ev.graph.statements
               if s.origin == "context"}
    assert answers == {"yes": ["d1", "d3"], "No": ["d2"]}
    assert ev.metadata["counts"]["query_answers.ungrounded"] == 1


def test_answer_quote_asks_for_the_settling_words_first() -> None:
    seen: list[GenerationParams] = []

    def script(messages: Sequence[ChatMessage], params: GenerationParams
               ) -> str | tuple[str, list[TokenLogprob] | None]:
        if "TEXT:\n" in messages[-1].content:
            seen.append(params)
            assert 'copy the words of the TEXT' in messages[0].content
            return json.dumps({"quote": "It opened in 1987.", "answers": ["1987"]})
        return "no", None

    ev = Evaluator("e2e", backends=Backends(text=ScriptedTextBackend(script)),
                   options={"coverage_judge": "answers", "answer_quote": True})(
        _input(1, "1987.", texts=(TEXT1,)))
    schema = seen[0].json_schema
    assert schema is not None
    # the quote comes first, so constrained decoding writes it before the answers
    assert list(schema["properties"]) == ["quote", "answers"]
    assert schema["required"] == ["quote", "answers"]
    assert [s.text for s in ev.graph.statements if s.origin == "context"] == ["1987"]
    assert ev.parameters["answer_quote"] is True
    assert ev.scores["comprehensiveness"] == 1.0


def test_answer_joint_reads_every_text_in_one_call_and_grounds_each_answer_in_its_own_text(
) -> None:
    calls: list[tuple[str, GenerationParams]] = []

    def script(messages: Sequence[ChatMessage], params: GenerationParams
               ) -> str | tuple[str, list[TokenLogprob] | None]:
        user = messages[-1].content
        if messages[0].content.startswith("You read a QUESTION and several numbered TEXTS"):
            calls.append((user, params))
            # "1989" is text 2's answer, but the model also gives it to text 1: not grounded
            return json.dumps({"text_1": ["1987", "1989"], "text_2": ["1989"]})
        return "no", None

    ev = Evaluator("e2e", backends=Backends(text=ScriptedTextBackend(script)),
                   options={"coverage_judge": "answers", "answer_joint": True})(
        _input(1, "1987."))
    assert len(calls) == 1
    user, params = calls[0]
    assert "TEXT 1:\n" + TEXT1 in user and "TEXT 2:\n" + TEXT2 in user
    assert params.json_schema is not None
    assert params.json_schema["required"] == ["text_1", "text_2"]
    assert params.json_schema["properties"]["text_1"]["maxItems"] == 3
    answers = {s.text: s for s in ev.graph.statements if s.origin == "context"}
    assert {t: a.metadata["sources"] for t, a in answers.items()} == {
        "1987": ["context1"], "1989": ["context2"]}
    assert ev.metadata["counts"]["query_answers.ungrounded"] == 1
    assert all(a.trace_id is not None for a in answers.values())  # the joint call's trace
    assert ev.parameters["answer_joint"] is True
    assert ev.scores["comprehensiveness"] == 0.5


def test_yes_no_polarity_asks_one_question_per_response() -> None:
    """With ``yes_no_polarity`` a bare yes / no answer that the response does not open with is
    judged by one question — which answer does the response give: yes, no, both, unclear? —
    read from the first token: P(yes) = m_yes + m_both, P(no) = m_no + m_both (normalised)."""
    asked: list[str] = []
    tops = {"It never happened.": {"no": 0.6, "both": 0.1, "yes": 0.1, "unclear": 0.1,
                                   "The": 0.1},
            "Sources disagree on it.": {"both": 0.7, "yes": 0.1, "no": 0.1, "un": 0.1},
            "Yes.": {"yes": 1.0}}

    def script(messages: Sequence[ChatMessage], params: GenerationParams
               ) -> str | tuple[str, list[TokenLogprob] | None]:
        system, user = messages[0].content, messages[-1].content
        if "TEXT:\n" in user:
            text = user.split("TEXT:\n", 1)[1].strip()
            return json.dumps({"answers": ["yes" if text == "Text A." else "no"]})
        assert system.startswith("You read a yes/no QUESTION and a RESPONSE"), system
        assert params.max_tokens == 1 and params.top_logprobs
        response = prompt_field(user, "RESPONSE")
        asked.append(response)
        return one_token_reply({k: math.log(v) for k, v in tops[response].items()})

    def run(response: str) -> Evaluation:
        return Evaluator("e2e", backends=Backends(text=ScriptedTextBackend(script)),
                         options={"coverage_judge": "answers", "yes_no_polarity": True,
                                  "coverage_cutoff": 0.5})(EvaluationInput(
            id="p", query="Is the tunnel still open?", response=response,
            documents=[Document(id="d1", text="Text A."), Document(id="d2", text="Text B.")]))

    never = run("It never happened.")
    p = {s.text: s.metadata["p_covered"] for s in never.graph.statements if s.origin == "context"}
    assert p == {"yes": pytest.approx(0.2 / 0.9, abs=1e-6), "no": pytest.approx(0.7 / 0.9,
                                                                                  abs=1e-6)}
    assert never.scores["comprehensiveness"] == 0.5
    assert {s.metadata["matched"] for s in never.graph.statements if s.origin == "context"} \
        == {"polarity"}
    both = run("Sources disagree on it.")
    assert both.scores["comprehensiveness"] == 1.0  # "both": P(yes) = P(no) = 0.8
    assert asked == ["It never happened.", "Sources disagree on it."]  # one call each
    opened = run("Yes.")  # "yes" stated word for word; "no" goes to the polarity question
    assert asked[-1] == "Yes."
    assert opened.scores["comprehensiveness"] == 0.5


def test_several_answers_check_lets_a_one_answer_response_cover_one_answer() -> None:
    """With ``several_answers_check`` a response covers a second of the texts' differing
    answers to a one-answer query only if it gives more than one answer: two one-token
    questions (does the query ask for one answer: o; does the response give several: q),
    asked only when two answers reach the cut-off; the most probable answer keeps P, the other
    gets P · (1 − o(1 − q)). To a list query the answers are parts of one reply: kept."""
    asked: list[str] = []
    q_several = {"It opened in 1987; the 1989 on the plaque is a mistake.": 0.1,
                 "Sources differ: 1987 or 1989.": 0.9,
                 "Trains stop in Holm and in Edder.": 0.1}
    p_one = {"When did the Varn tunnel open?": 0.9, "Where do the trains stop?": 0.05}

    def script(messages: Sequence[ChatMessage], params: GenerationParams
               ) -> str | tuple[str, list[TokenLogprob] | None]:
        system, user = messages[0].content, messages[-1].content
        if "TEXT:\n" in user:
            text = user.split("TEXT:\n")[1]
            return json.dumps({"answers": [next(w for w in ("1987", "1989", "Holm", "Edder")
                                                if w in text)]})
        if system.startswith("You check whether a RESPONSE"):  # "1989" for the last response
            return one_token_reply({"yes": math.log(0.8), "no": math.log(0.2)})
        assert params.max_tokens == 1
        if system.startswith("You read a QUESTION. Say whether it asks for one answer"):
            o = p_one[prompt_field(user, "QUESTION")]
            return one_token_reply({"one": math.log(o), "list": math.log(1 - o)})
        assert system.startswith("You read a QUESTION and a RESPONSE"), system
        assert "more than one" in system
        response = prompt_field(user, "RESPONSE")
        asked.append(response)
        q = q_several[response]
        return one_token_reply({"yes": math.log(q), "no": math.log(1 - q)})

    def run(response: str, query: str = "When did the Varn tunnel open?",
            texts: tuple[str, str] = ("It opened in 1987.", "It opened in 1989."),
            **options: object) -> Evaluation:
        return Evaluator("e2e", backends=Backends(text=ScriptedTextBackend(script)),
                         options={"coverage_judge": "answers", "coverage_cutoff": 0.5,
                                  "several_answers_check": True, **options})(
            EvaluationInput(id="s", query=query, response=response,
                            documents=[Document(id=f"context{k}", text=t)
                                       for k, t in enumerate(texts, 1)]))

    rejected = run("It opened in 1987; the 1989 on the plaque is a mistake.")
    p = {s.text: s.metadata for s in rejected.graph.statements if s.origin == "context"}
    keep = 1 - 0.9 * (1 - 0.1)  # 0.19
    assert p["1987"]["p_covered"] == 1.0 and "p_stated" not in p["1987"]
    assert p["1989"]["p_covered"] == pytest.approx(keep) and p["1989"]["p_stated"] == 1.0
    assert rejected.scores["comprehensiveness"] == 0.5
    meta = rejected.graph.statements[0].metadata
    assert meta["p_several"] == pytest.approx(0.1) and meta["p_one_answer_query"] == \
        pytest.approx(0.9)
    # the probabilities re-read at a higher cut-off stay exact
    assert per_fact_score(rejected, 0.05) == 1.0 and per_fact_score(rejected, 0.6) == 0.5
    both = run("Sources differ: 1987 or 1989.")
    assert both.scores["comprehensiveness"] == 1.0  # 1 − 0.9 · 0.1 = 0.91 ≥ 0.5
    # a list query: Holm and Edder are parts of one reply, 1 − 0.05 · 0.9 = 0.955 is kept
    stops = run("Trains stop in Holm and in Edder.", query="Where do the trains stop?",
                texts=("Trains stop in Holm.", "Trains stop in Edder."))
    assert stops.scores["comprehensiveness"] == 1.0
    assert asked == ["It opened in 1987; the 1989 on the plaque is a mistake.",
                     "Sources differ: 1987 or 1989.", "Trains stop in Holm and in Edder."]
    # one answer reaches the cut-off (1989 is asked: P 0.8 < 0.9): no several-answers call
    one = run("It opened in 1987, they say.", coverage_cutoff=0.9)
    assert len(asked) == 3 and one.scores["comprehensiveness"] == 0.5
    assert "p_several" not in one.graph.statements[0].metadata
    off = run("It opened in 1987; the 1989 on the plaque is a mistake.",
              several_answers_check=False)
    assert len(asked) == 3 and off.scores["comprehensiveness"] == 1.0


def test_one_answer_query_probability_reads_one_or_list_and_records_anything_else() -> None:
    """P(one answer) = m_one / (m_one + m_list) from the first token (case, spaces and
    stray tokens ignored); a reply that is neither is None and a recorded parse failure."""
    from factgraph.stages.fact_coverage import one_answer_query_probability
    from factgraph.stages.session import ModelSession

    replies = iter([one_token_reply({" One": math.log(0.6), "list": math.log(0.2),
                                     "": math.log(0.1), "The": math.log(0.1)}),
                    "Perhaps."])
    session = ModelSession(text=ScriptedTextBackend(lambda m, p: next(replies)))
    assert one_answer_query_probability(session, "Who built it?") == pytest.approx(0.75)
    assert one_answer_query_probability(session, "Who else?") is None
    assert [f.stage for f in session.failures] == ["query_kind"]
