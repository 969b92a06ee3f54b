"""The evidence judge (coverage_judge="evidence"): given facts and reference statements judged
by calibrated evidence, contradicted facts shown with the sentence that states them otherwise,
the model asked only about the undecided."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest

import factgraph
from factgraph.backends.base import ChatMessage, GenerationParams
from factgraph.backends.scripted import ScriptedTextBackend, ScriptOutput
from factgraph.graph import contradictions
from factgraph.inputs import Document, EvaluationInput
from factgraph.methods.comprehensiveness import ComprehensivenessOptions
from factgraph.methods.e2e.evidence import reference_facts
from factgraph.methods.e2e.method import run_e2e
from factgraph.methods.judges import DEFAULT_JUDGES
from factgraph.stages.fact_evidence import stems
from factgraph.stages.session import ModelSession
from tests.scripted_support import one_token_reply, prompt_field

FACTS = [
    "The Chernobyl accident occurred on 26 April 1986 in reactor No. 4.",
    "The RBMK reactor had a positive void coefficient.",
    "28 firefighters and staff died of acute radiation syndrome.",
    "Radiation was first detected abroad at a nuclear plant in Sweden.",
]
ANSWER = ("The Chernobyl accident happened on 26 April 1986 in reactor No. 4. The RBMK reactor "
          "had a negative void coefficient. Radiation was first detected abroad at a nuclear "
          "plant in Finland.")


def _by_fact(ev: factgraph.Evaluation) -> dict[str, str]:
    """Given fact id -> covered / contradicted / missing, read off the graph."""
    entailed = {r.dst for r in ev.graph.relations if r.label.value == "entails"}
    wrong = {r.dst for r in ev.graph.relations if r.label.value == "contradicts"}
    return {s.metadata["fact_id"]: "contradicted" if s.id in wrong else
            "covered" if s.id in entailed else "missing"
            for s in ev.graph.statements if s.metadata.get("given")}


def test_given_facts_are_covered_missing_or_contradicted_with_their_sentence() -> None:
    ev = factgraph.evaluate("What happened at Chernobyl?", ANSWER, facts=FACTS,
                            judge="e2e-evidence")
    assert _by_fact(ev) == {"f1": "covered", "f2": "contradicted", "f3": "missing",
                            "f4": "contradicted"}
    assert ev.scores["comprehensiveness"] == pytest.approx(1 / 4)
    # the response is read sentence by sentence: "No. 4" does not end a sentence
    said = [s.text for s in ev.graph.statements if s.origin.value == "response"]
    assert len(said) == 3 and said[0].endswith("reactor No. 4.")
    found = {c.statement_id: {f.text for f in c.contradicts} for c in contradictions(ev.graph)}
    assert found == {"r2": {FACTS[1]}, "r3": {FACTS[3]}}
    conflicts = {r.method: r.metadata["conflict"] for r in ev.graph.relations
                 if r.label.value == "contradicts"}
    assert conflicts["evidence:antonym"] == {"slot": "antonym", "fact": "positive",
                                             "response": "negative"}
    assert conflicts["evidence:name"]["response"] == "finland"
    covered = next(r for r in ev.graph.relations if r.label.value == "entails")
    assert covered.src == "r1" and covered.method == "evidence"
    assert covered.metadata["evidence"]["p_stated"] == covered.probability >= 0.5
    # a contradicted fact is never covered and counts 0 in the expected coverage
    assert 0.0 < ev.scores["expected_coverage"] < 0.5
    assert ev.parameters["calibration"]["name"] == "evidence-v3"


def test_a_missing_fact_names_its_nearest_sentence_only_where_one_shares_its_words() -> None:
    """ "nearest" quotes the sentence holding most of the fact's words; a fact that shares no
    word with the answer has no nearest sentence (not the first one by default)."""
    from factgraph.graph import analyze
    from factgraph.graph.reasons import reasons

    answer = "Metformin is the usual first drug for type 2 diabetes. Nausea is common at first."
    facts = ["Long-term use can lower vitamin B12 levels.",
             "Common side effects include nausea, diarrhoea and abdominal pain."]
    ev = factgraph.evaluate("q", answer, facts=facts, judge="e2e-evidence")
    assert _by_fact(ev) == {"f1": "missing", "f2": "missing"}
    why = reasons(analyze(ev.graph))
    by_fact = {s.metadata["fact_id"]: why.by_statement[s.id] for s in ev.graph.statements
               if s.metadata.get("given")}
    assert by_fact["f1"].response_statement_id is None and "nearest" not in by_fact["f1"].line()
    assert by_fact["f2"].response_statement_id == "r2"
    assert 'nearest [r2] "Nausea is common at first."' in by_fact["f2"].line()


SELF_STATED = [
    # the clause read for the fact is narrower than the sentence that negates its word too
    "The detector learns to tell 'memorized' samples (those that were part of the training data "
    "and were reproduced by the model) from 'fresh' ones (new samples that were not part of the "
    "training data).",
    # the first sentence holding every word of the fact says otherwise; a later one states it
    "One method uses neural machine translation, where word alignments or parallel corpora are "
    "needed. Another method is trained on monolingual text only. This method does not use word "
    "alignments.",
    'The difference between "look up" and "look for" is that "look up" means you assume the '
    'thing exists and you know where to find it, while "look for" means the thing may or may '
    "not exist.",
]


@pytest.mark.parametrize("text", SELF_STATED)
def test_a_text_judged_against_itself_states_every_fact(text: str) -> None:
    ev = factgraph.evaluate("", text, [text], judge="e2e-evidence")
    assert not [r for r in ev.graph.relations if r.label.value == "contradicts"]
    assert ev.scores["comprehensiveness"] == 1.0


def test_no_dev_answer_reference_or_summary_contradicts_itself(shared_data: Path) -> None:
    """Every RAGChecker dev reference and answer and every REALSumm dev summary judged against
    itself: no fact is called contradicted (a false alarm by construction; a summary's "700 ,
    000", split by its tokeniser, is one number, not two clauses)."""
    import gzip
    import json

    from factgraph.datasets.pairwise import load_pairwise

    rows = load_pairwise(shared_data / "ragchecker" / "meta_eval_dev.jsonl.gz")
    texts = [t for t in dict.fromkeys(x for i in rows for x in (
        i.gt_answer or "", i.model1.response, i.model2.response)) if t.strip()]
    with gzip.open(shared_data / "realsumm" / "scu_presence_dev.jsonl.gz", "rt",
                   encoding="utf-8") as f:
        texts += list(dict.fromkeys(json.loads(line)["summary"] for line in f))
    assert len(texts) >= 1300
    flagged = [t[:80] for t in texts if any(
        r.label.value == "contradicts"
        for r in factgraph.evaluate("", t, [t], judge="e2e-evidence").graph.relations)]
    assert flagged == []


def test_without_the_check_a_contradicted_fact_is_judged_by_its_words() -> None:
    ev = factgraph.evaluate("q", ANSWER, facts=FACTS, method="e2e",
                            coverage_judge="evidence", contradiction_check=False)
    assert "contradicted" not in _by_fact(ev).values()


def test_a_reference_is_cut_into_statements_that_read_as_facts() -> None:
    text = ("The accident occurred in reactor No. 4 during a late-night safety test, and 28 "
            "firefighters and staff died of acute radiation syndrome. Fallout spread over "
            "Ukraine, Russia and much of Europe; radiation was first detected abroad at a "
            "nuclear plant in Sweden.")
    assert reference_facts(text) == [
        "The accident occurred in reactor No. 4 during a late-night safety test.",
        "28 firefighters and staff died of acute radiation syndrome.",
        "Fallout spread over Ukraine, Russia and much of Europe.",
        "Radiation was first detected abroad at a nuclear plant in Sweden.",
    ]
    ev = factgraph.evaluate("q", "Fallout spread over Ukraine, Russia and much of Europe.",
                            [text], judge="e2e-evidence")
    assert ev.scores["n_covered"] == 1 and ev.scores["n_uncovered"] == 3


def test_a_statement_keeps_its_subject_and_a_list_of_names_is_no_clause() -> None:
    text = ("The explosion spread radioactive material over Ukraine, Belarus, Russia and much "
            "of Europe. The RBMK reactor had a positive void coefficient, which made it "
            "unstable at low power. Founded in 1990, the museum holds 4,000 paintings.")
    # "Belarus" is a name, not a verb ending in -s; "which made it" has no subject of its
    # own; "Founded in 1990" says nothing without "the museum"
    assert reference_facts(text) == [
        "The explosion spread radioactive material over Ukraine, Belarus, Russia and much of "
        "Europe.",
        "The RBMK reactor had a positive void coefficient, which made it unstable at low "
        "power.",
        "Founded in 1990, the museum holds 4,000 paintings.",
    ]


def test_a_predicate_without_its_subject_is_given_it_or_stays_with_its_statement() -> None:
    text = ("The model reads the table and trains it to produce the answer. It requires less "
            "disk space but requires language-specific adaptation. The factor controls the "
            "range of the weights, ensuring that they fall within an interval. Moreover, "
            "GPT-3 was less likely to invent facts and was better at using the context. "
            "Parametric models capture general patterns, while nonparametric models can "
            "handle rare patterns.")
    assert reference_facts(text) == [
        # a second verb of a named subject: a statement of its own, with that subject
        "The model reads the table.",
        "The model trains it to produce the answer.",
        "It requires less disk space.",
        "It requires language-specific adaptation.",
        # a modifier stays where it is
        "The factor controls the range of the weights, ensuring that they fall within an "
        "interval.",
        "Moreover, GPT-3 was less likely to invent facts.",
        "GPT-3 was better at using the context.",  # the subject, not its opening adverbial
        "Parametric models capture general patterns.",
        "Nonparametric models can handle rare patterns.",  # its own subject
    ]
    # a plural noun is no verb: the subject is the noun phrase before the verb
    assert reference_facts("These instances are filtered by hand and are then scored by "
                           "trained people.") == [
        "These instances are filtered by hand.",
        "These instances are then scored by trained people."]
    # no subject to be read before the first verb: the predicate stays with its statement
    assert reference_facts("Nonparametric models offer flexibility and have a more flexible "
                           "output space.") == [
        "Nonparametric models offer flexibility and have a more flexible output space."]


def test_and_without_a_comma_joins_words_not_clauses() -> None:
    # "X and Y" with no comma: two modifiers, two objects or two names of one statement, cut
    # only where what follows opens with its own subject after a clause with a verb
    assert reference_facts(
        "Another method optimizes both monolingual and bilingual objectives. La Nina brings "
        "cooler temperatures in the central and eastern tropical Pacific Ocean. Benchmark "
        "datasets like WEBNLG and ROTOWIRE could be used for this purpose. These methods "
        "were pioneered by Zeiler and Fergus in 2014. As technology evolved, the disk and "
        "the drive became one unit. Parametric models capture patterns efficiently and "
        "these models may struggle with rare ones.") == [
        "Another method optimizes both monolingual and bilingual objectives.",
        "La Nina brings cooler temperatures in the central and eastern tropical Pacific "
        "Ocean.",
        "Benchmark datasets like WEBNLG and ROTOWIRE could be used for this purpose.",
        "These methods were pioneered by Zeiler and Fergus in 2014.",
        "As technology evolved, the disk and the drive became one unit.",
        "Parametric models capture patterns efficiently.",
        "These models may struggle with rare ones.",  # its own subject: a cut
    ]


def test_a_second_verb_takes_its_subject_only_where_it_is_one() -> None:
    assert reference_facts(
        "These instances are then filtered and handed over to human annotators. The attack "
        "targets translation systems and masked language models trained on private data. "
        "The study proposes a task where a model is given a question and must find every "
        "passage. Models like M2M-100 support 100 languages and thousands of directions. "
        "This further demonstrates the versatility and effectiveness of the method.") == [
        # a participle takes the subject with its "are"
        "These instances are then filtered.",
        "These instances are handed over to human annotators.",
        # a word in -ed before a noun is a modifier; a relative clause may own the verb; a
        # plural subject takes no verb in -s; a word in -ss is no verb
        "The attack targets translation systems and masked language models trained on "
        "private data.",
        "The study proposes a task where a model is given a question and must find every "
        "passage.",
        "Models like M2M-100 support 100 languages and thousands of directions.",
        "This further demonstrates the versatility and effectiveness of the method.",
    ]


def test_headings_abbreviations_dates_and_reporting_clauses_make_no_statement() -> None:
    text = ("## Causes\n- The reactor had a positive void coefficient.\n\n"
            "31 people died directly; thousands were evacuated from Pripyat (pop. 49,000). "
            "Help was offered on April 28, 1986, said Smith et al. in a report. "
            "WebQuestionsSP, adapted by Min et al. (2021), focuses on multi-answer retrieval. "
            "By leveraging both kinds of knowledge, language models can benefit from each.")
    assert reference_facts(text) == [
        "The reactor had a positive void coefficient.",  # no "Causes" glued on
        "31 people died directly.",  # "died" is a verb
        "Thousands were evacuated from Pripyat (pop. 49,000).",
        "Help was offered on April 28, 1986, said Smith et al. in a report.",
        "WebQuestionsSP, adapted by Min et al. (2021), focuses on multi-answer retrieval.",
        "By leveraging both kinds of knowledge, language models can benefit from each.",
    ]
    # other kinds of text: a bracket still open, a unit after a degree sign, ", so" and ", or",
    # a noun in -is that is no verb
    assert reference_facts(
        "The usual dose is 500 mg twice daily (max. 2,000 mg/day). Side effects include "
        "nausea, diarrhea and, rarely, lactic acidosis. A Roth IRA is funded with after-tax "
        "dollars, so withdrawals in retirement are tax-free. The limit is $7,000, or $8,000 "
        "if you are 50 or older. Heat the water to 93 °C. Pour it in two stages.") == [
        "The usual dose is 500 mg twice daily (max. 2,000 mg/day).",
        "Side effects include nausea, diarrhea and, rarely, lactic acidosis.",
        "A Roth IRA is funded with after-tax dollars.",
        "Withdrawals in retirement are tax-free.",
        "The limit is $7,000, or $8,000 if you are 50 or older.",
        "Heat the water to 93 °C.",
        "Pour it in two stages.",
    ]
    # a short verbless list item completes its lead-in; a label's items and whole sentences
    # stay as they are
    assert reference_facts(
        "The drug works well. The most common side effects include:\n- nausea\n"
        "- pain at the injection site\n"
        "Ingredients:\n- 100 g flour\nThe reactor failed for two reasons:\n- The operators "
        "disabled the safety systems.\n- The design had a positive void coefficient.") == [
        "The drug works well.",  # a lead-in may end a line of sentences
        "The most common side effects include nausea.",
        "The most common side effects include pain at the injection site.",
        "100 g flour.",
        "The reactor failed for two reasons.",
        "The operators disabled the safety systems.",
        "The design had a positive void coefficient.",
    ]
    # a relative clause stays with its statement; a label and a question state no fact
    assert reference_facts(
        "Key findings:\nHe scored 672 goals for Barcelona, where he spent 17 seasons. He met "
        "Xavi, who was the captain. What is the boiling point of water? It is 100 degrees "
        "Celsius at sea level.") == [
        "He scored 672 goals for Barcelona, where he spent 17 seasons.",
        "He met Xavi, who was the captain.",
        "It is 100 degrees Celsius at sea level.",
    ]


@pytest.mark.parametrize(("text", "statements"), [
    # steps under "follow these steps:" are instructions of their own, not the lead-in's
    # objects ("follow these steps Unplug the router" was a statement)
    ("To reset your router, follow these steps:\n1. Unplug the router from the power "
     "outlet.\n2. Wait at least 30 seconds.",
     ["Unplug the router from the power outlet.", "Wait at least 30 seconds."]),
    # "regardless of" opens a dependent clause, no statement of its own
    ("The regulation applies to any organisation that processes the personal data of people "
     "in the EU, regardless of where the organisation is based.",
     ["The regulation applies to any organisation that processes the personal data of people "
      "in the EU, regardless of where the organisation is based."]),
    # an infinitive after a comma continues its statement; a name that opens with a small
    # letter keeps it
    ("It required Germany to accept responsibility for the war, to disarm, to make "
     "territorial concessions and to pay reparations.",
     ["It required Germany to accept responsibility for the war, to disarm, to make "
      "territorial concessions and to pay reparations."]),
    ("Revenue fell 2.5% this year, while iPhone sales fell to $51.3 billion.",
     ["Revenue fell 2.5% this year.", "iPhone sales fell to $51.3 billion."]),
    # a relative clause inside an opening adverbial leaves it an adverbial; an apposition
    # opened by "either" stands between the subject and its verb
    ("In the light-dependent reactions, which take place in the thylakoid membranes, water "
     "is split.",
     ["In the light-dependent reactions, which take place in the thylakoid membranes, water "
      "is split."]),
    ("Positional encodings, either fixed sinusoids or learned embeddings, give the model "
     "information about token order.",
     ["Positional encodings, either fixed sinusoids or learned embeddings, give the model "
      "information about token order."]),
    # a word in -s after a number is what it counts, no verb: the apposition stays
    ("The Federal Reserve raised its rate to 5.5%, the highest level in 22 years.",
     ["The Federal Reserve raised its rate to 5.5%, the highest level in 22 years."]),
    # ... and after a number word; a list of predicates stays with its subject
    ("She was the first woman to win a Nobel Prize, the first person to win twice, and the "
     "only person to win in two sciences.",
     ["She was the first woman to win a Nobel Prize, the first person to win twice, and the "
      "only person to win in two sciences."]),
    # a semicolon ends a clause whose verb no cue reads ("recover"); a list of places
    # separated by semicolons stays one statement
    ("Most people recover within a week; however, older adults and pregnant women are at "
     "higher risk.",
     ["Most people recover within a week.",
      "However, older adults and pregnant women are at higher risk."]),
    ("The team visited Paris, France; Rome, Italy; and Berlin, Germany.",
     ["The team visited Paris, France; Rome, Italy; and Berlin, Germany."]),
    # a number a tokeniser split at its thousands is one number: no cut inside it
    ("In 2013 , it did not even make the Top 1 , 000 .",
     ["In 2013 , it did not even make the Top 1,000 ."]),
    # a clause that opens with a subordinator, after a sentence adverb too, reads on into its
    # main clause
    ("Conversely, if the dose is doubled, the patient's blood pressure drops sharply.",
     ["Conversely, if the dose is doubled, the patient's blood pressure drops sharply."]),
    ("When the dough has doubled in size after two hours, it is ready to be shaped into loaves.",
     ["When the dough has doubled in size after two hours, it is ready to be shaped into "
      "loaves."]),
    # a subject whose only verbs stand in an aside keeps its predicate; "especially in …" is an
    # adverbial, no statement
    ("Older engines, while having fewer moving parts than new ones, still need regular "
     "servicing, especially in cold climates.",
     ["Older engines, while having fewer moving parts than new ones, still need regular "
      "servicing, especially in cold climates."]),
    ("Index funds, like those offered by large brokers [2], charge lower fees than active "
     "funds, while active funds try to beat the market.",
     ["Index funds, like those offered by large brokers, charge lower fees than active funds.",
      "Active funds try to beat the market."]),
    # a participle after a comma stays with its clause, an adverb before it too; an aside
    # opened by "as" or "however" leaves its subject waiting for its verb
    ("The drug lowers blood pressure within hours, often reaching normal levels by evening.",
     ["The drug lowers blood pressure within hours, often reaching normal levels by evening."]),
    ("The new engines, however, still need regular servicing in cold climates.",
     ["The new engines, however, still need regular servicing in cold climates."]),
    ("Another design, as proposed by the city council, includes a cycle lane on each side.",
     ["Another design, as proposed by the city council, includes a cycle lane on each side."]),
    # a list of nouns in -s / -ing is no clause; an apposition goes back to its statement
    # before a second verb of that statement
    ("To cut costs, the firm can combine outsourcing with other measures such as automation, "
     "energy saving, and staff training.",
     ["To cut costs, the firm can combine outsourcing with other measures such as automation, "
      "energy saving, and staff training."]),
    ("The striker scored 30 goals, a club record, and won the golden boot.",
     ["The striker scored 30 goals, a club record, and won the golden boot."]),
    # "as" opens a dependent clause or an aside; a main clause after it stands ("As the price
    # rose, …"); a quoted word is mentioned, not used as a verb
    ("The bridge was closed for a week, as its cables had to be replaced.",
     ["The bridge was closed for a week, as its cables had to be replaced."]),
    ("As the price of copper rose, the firm switched to aluminium wiring, but sales fell "
     "sharply in the north.",
     ["As the price of copper rose, the firm switched to aluminium wiring.",
      "Sales fell sharply in the north."]),
    ('In British English the past tense doubles the letter, as in "travelled", "labelled", '
     '"cancelled".',
     ['In British English the past tense doubles the letter, as in "travelled", "labelled", '
      '"cancelled".']),
    # an aside that a participle or a second verb follows goes back to its statement
    ("Manchester City won the league in 2023, their third title in a row, and also lifted "
     "the Champions League trophy.",
     ["Manchester City won the league in 2023, their third title in a row, and also lifted "
      "the Champions League trophy."]),
    ("The company reported revenue of $4.2 billion, up 12% from last year, driven by strong "
     "cloud sales.",
     ["The company reported revenue of $4.2 billion, up 12% from last year, driven by strong "
      "cloud sales."]),
    # "This involves …": a verb in -s after "this" / "it" agrees with it
    ("This involves simulating heavy rain on the test track, and can reveal weak tyres.",
     ["This involves simulating heavy rain on the test track.", "This can reveal weak tyres."]),
])
def test_a_dependent_clause_or_an_aside_is_no_statement(text: str, statements: list[str]
                                                          ) -> None:
    assert reference_facts(text) == statements


def test_a_bracketed_aside_is_never_a_cut() -> None:
    text = ("Large Language Models (LLMs) have displayed a strong potential for translation. "
            "One approach is User Satisfaction Modeling (USM; Sun et al., 2021), and it "
            "estimates how satisfied a user is.")
    assert reference_facts(text) == [
        "Large Language Models (LLMs) have displayed a strong potential for translation.",
        "One approach is User Satisfaction Modeling (USM; Sun et al., 2021).",
        "It estimates how satisfied a user is.",
    ]


def test_an_empty_response_covers_nothing() -> None:
    ev = factgraph.evaluate("q", "", facts=FACTS, judge="e2e-evidence")
    assert ev.scores["comprehensiveness"] == 0.0
    assert ev.scores["expected_coverage"] == 0.0


def _nli_script(no_for: str) -> tuple[ScriptedTextBackend, list[str]]:
    asked: list[str] = []

    def script(messages: Sequence[ChatMessage], params: GenerationParams) -> ScriptOutput:
        hypothesis = prompt_field(messages[-1].content, "HYPOTHESIS")
        asked.append(hypothesis)
        assert params.max_tokens == 1
        bad = no_for in hypothesis
        return one_token_reply({"yes": math.log(0.1 if bad else 0.8),
                                "no": math.log(0.8 if bad else 0.1),
                                "unknown": math.log(0.1)})
    return ScriptedTextBackend(script), asked


def test_the_model_is_asked_only_about_the_undecided_and_its_no_contradicts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a fitted combination the model's P(yes) is the fact's P, and its "no" (the
    sentence shows the fact false) a contradiction."""
    import dataclasses

    from factgraph.methods.e2e import evidence as judge
    from factgraph.stages.fact_calibration import CASCADE_CALIBRATION, load_calibration

    # the calibration the cascade reads (its band was fitted on that one's P)
    shipped = load_calibration(CASCADE_CALIBRATION)
    monkeypatch.setattr(judge, "load_calibration",
                        lambda name: dataclasses.replace(shipped, model=None))
    text, asked = _nli_script(no_for="Storms")
    facts = ["The dam was finished in 1936 after five years of work.",  # stated: no call
             "Storms closed the visitor centre twice in winter.",  # partly there: asked
             "Parliament passed a budget for schools in Peru."]  # absent: no call
    answer = "The dam was finished in 1936 after five years of work. The centre closed in winter."
    inp = EvaluationInput(id="x", query="q", response=answer,
                          facts=facts)  # type: ignore[arg-type]
    options = ComprehensivenessOptions(coverage_judge="evidence", evidence_model_check=True,
                                       calibration=CASCADE_CALIBRATION,
                                       coverage_cutoff=shipped.cutoff)
    ev = run_e2e(inp, ModelSession(text=text), options)
    assert asked == [facts[1]]
    assert ev.metadata["counts"]["evidence.model"] == 1
    assert _by_fact(ev) == {"f1": "covered", "f2": "contradicted", "f3": "missing"}
    wrong = next(r for r in ev.graph.relations if r.label.value == "contradicts")
    assert wrong.method == "evidence:model" and wrong.src == "r2"


def test_auto_routes_given_facts_and_long_answers_to_the_evidence_judge() -> None:
    assert DEFAULT_JUDGES["long-form"] == "e2e-evidence"
    inp = EvaluationInput(id="l", query="q", response=ANSWER,
                          documents=[Document(id="ref", text=" ".join(FACTS))])
    ev = run_e2e(inp, ModelSession(), ComprehensivenessOptions(coverage_judge="auto"))
    assert ev.parameters["judge"] == "e2e-evidence"
    assert ev.scores["n_covered"] == 1


def test_the_judges_cut_off_is_the_shipped_calibrations() -> None:
    """The option's default and the cut-off chosen in the left-out folds (shipped with the
    calibration) cannot drift apart unnoticed."""
    from factgraph.methods.e2e.kind_specs import EvidenceJudge
    from factgraph.methods.judges import get_judge
    from factgraph.stages.fact_calibration import load_calibration

    judge = EvidenceJudge()
    shipped = load_calibration(judge.calibration)
    assert judge.coverage_cutoff == shipped.cutoff
    # the cascade reads the calibration its model combination was fitted on, at that one's
    # cut-off, and the band the combination was fitted for is the options' default band
    cascade = get_judge("e2e-evidence-cascade").options
    fitted = load_calibration(cascade["calibration"])
    assert cascade["coverage_cutoff"] == fitted.cutoff
    assert fitted.model is not None
    assert (judge.evidence_band_low, judge.evidence_band_high) == fitted.model.band


def test_a_shipped_model_combination_joins_the_cheap_p_and_the_models_answer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With a combination in the calibration, an asked fact's P is σ(b + w·logits) of the cheap
    P and the model's answer, not the model's P(yes) alone."""
    import dataclasses

    from factgraph.methods.e2e import evidence as judge
    from factgraph.stages.fact_calibration import ModelCombination, load_calibration, logit

    combination = ModelCombination(weights=(1.0, 0.5, -0.25), intercept=0.1, band=(0.0, 1.0),
                                   fitted_with="scripted", card={})
    shipped = load_calibration()
    monkeypatch.setattr(judge, "load_calibration",
                        lambda name: dataclasses.replace(shipped, model=combination))
    text, asked = _nli_script(no_for="nothing")
    facts = ["Storms closed the visitor centre twice in winter."]
    inp = EvaluationInput(id="x", query="q", response="The visitor centre closed in winter.",
                          facts=facts)  # type: ignore[arg-type]
    options = ComprehensivenessOptions(coverage_judge="evidence", evidence_model_check=True,
                                       evidence_band_low=0.0, evidence_band_high=1.0)
    ev = run_e2e(inp, ModelSession(text=text), options)
    assert asked == facts
    fact = next(s for s in ev.graph.statements if s.id == "g1")
    relation = next((r for r in ev.graph.relations if r.dst == "g1"), None)
    record = relation.metadata["evidence"] if relation is not None else fact.metadata["evidence"]
    p_yes, p_no = 0.8, 0.1  # the script's answer, normalised over yes / no / unknown
    expected = 1 / (1 + math.exp(-(0.1 + logit(record["p_stated"]) + 0.5 * logit(p_yes)
                                   - 0.25 * logit(p_no))))
    assert record["p_combined"] == pytest.approx(expected, abs=1e-5)
    assert fact.metadata["p_covered"] == pytest.approx(expected, abs=1e-5)


def test_a_statement_stated_in_part_counts_in_part_in_expected_coverage() -> None:
    # a statement whose unstated clause says more than its stated one: its own P falls under
    # the mean of its clauses' P
    reference = ("The reactor had a positive void coefficient, which made it dangerously "
                 "unstable whenever operators ran it at low power during the night-shift safety "
                 "test. The plant stood near the town of Pripyat.")
    answer = "The reactor had a positive void coefficient."
    whole = factgraph.evaluate("q", answer, [reference], judge="e2e-evidence")
    off = factgraph.evaluate("q", answer, [reference], judge="e2e-evidence",
                             partial_credit_words=0)
    fact = next(s for s in whole.graph.statements
                if s.origin.value == "context" and s.text.startswith("The reactor"))
    record = next((r.metadata["evidence"] for r in whole.graph.relations
                   if r.dst == fact.id and "evidence" in r.metadata),
                  fact.metadata.get("evidence"))
    # each clause with its own P, the stated one high and the other low; the fact counts
    # at least their mean, and S (the count over the graph) does not move
    assert [c["text"] for c in record["clauses"]] == [
        "The reactor had a positive void coefficient", "which made it dangerously unstable "
        "whenever operators ran it at low power during the night-shift safety test."]
    p_stated, p_other = (c["p_stated"] for c in record["clauses"])
    assert p_stated > 0.8 > 0.3 > p_other
    assert record["p_clauses"] == pytest.approx((p_stated + p_other) / 2, abs=1e-6)
    assert whole.scores["expected_coverage"] > off.scores["expected_coverage"]
    assert whole.scores["expected_coverage"] >= record["p_clauses"] / 2 - 1e-6
    assert whole.scores["comprehensiveness"] == off.scores["comprehensiveness"]
    assert "clauses" not in str(off.graph.model_dump())
    # given facts count as given: one unit each, never split
    given = ["The reactor had a positive void coefficient, which made it unstable at low "
             "power."]
    assert factgraph.evaluate("q", answer, facts=given, judge="e2e-evidence").scores == \
        factgraph.evaluate("q", answer, facts=given, judge="e2e-evidence",
                           partial_credit_words=0).scores


def test_expected_coverage_weighs_a_statement_by_what_it_says() -> None:
    # a long statement stated and a short one missing: weighed by their content words the
    # long one counts for more; weighed alike each counts one; S is the count either way
    reference = ("The reactor had a positive void coefficient that made it unstable at low "
                 "power during the safety test. Pripyat was evacuated.")
    answer = ("The reactor had a positive void coefficient that made it unstable at low power "
              "during the safety test.")
    # (no partial credit here, so each statement's share is its own P)
    by_words = factgraph.evaluate("q", answer, [reference], judge="e2e-evidence",
                                  partial_credit_words=0)
    alike = factgraph.evaluate("q", answer, [reference], judge="e2e-evidence",
                               partial_credit_words=0, expected_coverage_weights="facts")
    facts = [s for s in by_words.graph.statements if s.origin.value == "context"]
    assert len(facts) == 2
    words = [len(stems(s.text)) for s in facts]
    p = [s.metadata["p_covered"] for s in facts]
    assert words[0] > 2 * words[1]
    assert by_words.scores["expected_coverage"] == pytest.approx(
        (p[0] * words[0] + p[1] * words[1]) / sum(words), abs=1e-5)
    assert alike.scores["expected_coverage"] == pytest.approx(sum(p) / 2, abs=1e-5)
    assert by_words.scores["expected_coverage"] > alike.scores["expected_coverage"] + 0.1
    assert by_words.scores["comprehensiveness"] == alike.scores["comprehensiveness"] == 0.5
    # given facts are the user's own units: one each, whatever the option
    given = [s.text for s in facts]
    assert factgraph.evaluate("q", answer, facts=given, judge="e2e-evidence").scores == \
        factgraph.evaluate("q", answer, facts=given, judge="e2e-evidence",
                           expected_coverage_weights="facts").scores


def test_the_evidence_judge_needs_no_query_on_the_command_line(tmp_path: Path) -> None:
    """An answer against its one reference (auto: the evidence judge) or a named evidence judge
    runs without --query, scored as with one; a judge that reads the question asks for it."""
    from tests.pipeline_support import invoke

    reference = tmp_path / "reference.txt"
    reference.write_text("The dam was finished in 1936. It holds back Lake Mead.",
                         encoding="utf-8")
    answer = tmp_path / "answer.txt"
    answer.write_text("The dam was finished in 1936.", encoding="utf-8")
    base = ["evaluate", "--response", str(answer), "--context", str(reference),
            "--format", "json", "--no-cache"]
    without = invoke(*base)
    assert without.exit_code == 0, without.output
    with_query = invoke(*base, "--query", "Tell me about the dam.")
    assert with_query.exit_code == 0, with_query.output
    scores = [json.loads(r.output[r.output.index("{"):])["scores"]
              for r in (without, with_query)]
    assert scores[0] == scores[1] and scores[0]["comprehensiveness"] == 0.5
    named = invoke(*base, "--judge", "e2e-evidence", "--context", str(answer))
    assert named.exit_code == 0, named.output
    refused = invoke(*base, "--context", str(answer))  # two texts, a short answer: it reads it
    assert refused.exit_code != 0 and "give --query" in refused.output


def test_a_fact_stated_in_another_form_says_how_it_was_read() -> None:
    """An acronym or a quantity in another unit counts the fact's words as stated; the reason
    says what was read as what, so that "words 1.00" over a sentence without those words is
    explained."""
    from factgraph.graph import analyze
    from factgraph.graph.reasons import reasons

    answer = "The UK left the European Union in 2020. The bridge is 1.28 km long."
    facts = ["The United Kingdom left the EU in 2020.", "The bridge is 1,280 metres long.",
             "The bridge opened in 1932."]
    ev = factgraph.evaluate("q", answer, facts=facts, judge="e2e-evidence")
    assert _by_fact(ev) == {"f1": "covered", "f2": "covered", "f3": "missing"}
    why = reasons(analyze(ev.graph))
    by_fact = {s.metadata["fact_id"]: why.by_statement[s.id] for s in ev.graph.statements
               if s.metadata.get("given")}
    assert by_fact["f1"].evidence["read_as"] == ["UK = united kingdom"]
    assert "read as UK = united kingdom" in by_fact["f1"].line()
    assert "read as 1280 metres = 1.28 km" in by_fact["f2"].line()
    assert "read as" not in by_fact["f3"].line()
