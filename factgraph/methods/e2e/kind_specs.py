"""The built-in e2e judge kinds, declared: each kind's options model and its
:class:`~factgraph.methods.e2e.kinds.JudgeKind`, whose ``run`` is imported on its first call
(:func:`~factgraph.plugins.lazy_callable`). Reading a kind's options (e2e's flags,
``--coverage-judge``'s help, a config's validation) imports none of the stages that run it.

Every default is written once, here or in :mod:`factgraph.methods.e2e.options` (the tuned
cut-offs: see there).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from factgraph.methods.e2e.kinds import JudgeKind, JudgeOptions
from factgraph.methods.e2e.options import (
    CUTOFF_HELP,
    EVIDENCE_SENTENCES_HELP,
    AnswerFields,
    QuestionFields,
    SentenceFields,
    cutoff_field,
    share_field,
)
from factgraph.plugins import lazy_callable

# the evidence judge's calibration shipped under factgraph/_data/judges/ (the default of
# factgraph.stages.fact_calibration.load_calibration; a test holds the two equal)
CALIBRATION = "evidence-v3"
# the per-fact and answers judges share one run
_FACT_QUESTIONS = "factgraph.methods.e2e.fact_questions:run_fact_questions"


class AutoJudge(AnswerFields, SentenceFields):
    """Per input, the judge that measured best for its kind (``DEFAULT_JUDGES`` of
    ``factgraph.methods.judges``: the answers judge for a short answer, the sentences judge for
    a long-form one). It takes the options of both; those given explicitly are kept when the
    chosen judge has them."""

    coverage_judge: Literal["auto"] = "auto"
    coverage_cutoff: float | None = Field(None, ge=0.0, le=1.0, description=CUTOFF_HELP)
    long_form_min_words: int = Field(
        80, ge=1, description="E2E auto: a response of at least this many words, or one "
                              "judged against a single text (a reference answer), is a "
                              "long-form answer (judged by the long-form default judge); a "
                              "shorter one over several texts a short answer.")


AUTO = JudgeKind(name="auto", options=AutoJudge, embeddings="lazy",
                 run=lazy_callable("factgraph.methods.e2e.auto:run_auto"),
                 help="'auto' (the default) picks per input the judge that measured best for "
                      "its kind (DEFAULT_JUDGES of factgraph.methods.judges: a short answer or "
                      "a long-form one, see long_form_min_words)")


class ListJudge(JudgeOptions):
    """One call lists the covered and uncovered facts (Dejl et al. 2025, §3.3)."""

    coverage_judge: Literal["list"] = "list"
    coverage_cutoff: float = cutoff_field(0.5)  # unused: a listed fact is covered or not (P = 1)


LIST = JudgeKind(name="list", options=ListJudge,
                 run=lazy_callable("factgraph.methods.e2e.list_judge:run_list"),
                 help="one call listing covered / uncovered facts ('list')")


class PerFactJudge(QuestionFields):
    """Context facts extracted once per query and texts, one yes/no question per fact."""

    coverage_judge: Literal["per-fact"] = "per-fact"
    coverage_cutoff: float = cutoff_field(0.3)
    max_facts_per_text: int = Field(8, ge=1, description="E2E per-fact: facts kept per text.")


PER_FACT = JudgeKind(name="per-fact", options=PerFactJudge,
                     run=lazy_callable(_FACT_QUESTIONS),
                     help="context facts extracted once per query and one yes/no question per "
                          "fact ('per-fact')")


class AnswersJudge(AnswerFields):
    """The answers each text gives to the query, one yes/no question per answer."""

    coverage_judge: Literal["answers"] = "answers"
    coverage_cutoff: float = cutoff_field(0.7)


ANSWERS = JudgeKind(name="answers", options=AnswersJudge,
                    run=lazy_callable(_FACT_QUESTIONS),
                    help="the answers each text gives to the query and one yes/no question per "
                         "answer ('answers')")


class SentencesJudge(SentenceFields):
    """Long references: the background texts' clauses are the facts, covered by the word check,
    embedding similarity and (``sentence_model_check``) one model token."""

    coverage_judge: Literal["sentences"] = "sentences"
    coverage_cutoff: float = cutoff_field(0.9)


SENTENCES = JudgeKind(name="sentences", options=SentencesJudge, embeddings="now",
                      run=lazy_callable("factgraph.methods.e2e.sentences:run_sentences"),
                      help="the background texts' clauses as facts, judged by the word "
                           "check, embedding similarity and, with sentence_model_check, the "
                           "model for the undecided ('sentences', for long references)")


class EvidenceJudge(JudgeOptions):
    """Calibrated per-fact evidence and the contradiction check; no model."""

    coverage_judge: Literal["evidence"] = "evidence"
    coverage_cutoff: float = cutoff_field(0.5)
    calibration: str = Field(
        CALIBRATION, description="E2E evidence: the calibrated model (shipped under "
                                         "factgraph/_data/judges/) that turns evidence into "
                                         "P(stated).")
    contradiction_check: bool = Field(
        True, description="E2E evidence: a fact whose aligned response sentence states "
                          "another number, date, negation, antonym or name is contradicted.")
    reference_facts: Literal["statements", "clauses", "sentences", "model"] = Field(
        "statements", description="E2E evidence: without given facts, a background text's "
                                  "facts are its self-contained statements (sentences cut "
                                  "only where a new clause with its own verb starts), its "
                                  "clauses, its whole sentences, or ('model', needs a text "
                                  "model) the statements the text model lists per paragraph, "
                                  "each kept only where its words are the paragraph's, "
                                  "repeats merged.")
    evidence_model_check: bool = Field(
        False, description="E2E evidence: with a text model, ask it about the facts whose "
                           "P(stated) falls in the undecided band (one yes / no / unknown "
                           "token, the evidence_sentences nearest sentences as evidence); "
                           "its answer joins P by the combination the calibration ships for "
                           "it, and 'no' on a fact left uncovered is a contradiction.")
    evidence_band_low: float = share_field(0.3, "E2E evidence with evidence_model_check: the "
                                               "undecided band's lower end (below: missing "
                                               "without a call).")
    evidence_band_high: float = share_field(0.65, "E2E evidence with evidence_model_check: the "
                                                 "undecided band's upper end (at or above: "
                                                 "covered without a call).")
    evidence_sentences: int = Field(3, ge=1, description=EVIDENCE_SENTENCES_HELP)
    partial_credit_words: int = Field(
        2, ge=0, description="E2E evidence: in expected_coverage, a fact of a background text "
                             "with several clauses of at least this many content words "
                             "counts the larger of its P(stated) and the mean P(stated) of "
                             "its clauses, so a fact stated in part counts in part (given "
                             "facts count as given; S is unchanged); 0: off.")
    expected_coverage_weights: Literal["words", "facts"] = Field(
        "words", description="E2E evidence: how expected_coverage weighs the facts of a "
                             "background text: by their content words (a statement that says "
                             "twice as much counts twice, so the score does not hang on where "
                             "the text is cut into statements) or one each ('facts'). Given "
                             "facts count one each either way; S is unchanged.")


EVIDENCE = JudgeKind(name="evidence", options=EvidenceJudge,
                     run=lazy_callable("factgraph.methods.e2e.evidence:run_evidence"),
                     help="calibrated per-fact evidence (words, phrases, numbers, names) with "
                          "the contradiction check, no model ('evidence')")
