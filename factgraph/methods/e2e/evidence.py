"""The fact-level judge (``coverage_judge="evidence"``): each fact gets a calibrated probability
that the response states it, from cheap evidence, and a fact stated otherwise is contradicted.

The facts are the given facts (``EvaluationInput.facts``) or, without them, the background
texts' self-contained statements (``factgraph.stages.text_units.split_statements``;
``reference_facts`` picks clauses or sentences instead). The response is read as
its sentences, each one response statement ``r1 … rn``: a fact is joined to the sentence that
carries it (the *aligned* sentence, ``factgraph.stages.fact_evidence``), so the graph itself
says which sentence covers a fact and which contradicts it.

Per fact, cheapest first:

1. the evidence of ``factgraph.stages.fact_evidence`` (word, sentence, weighted and phrase
   shares; numbers and names that must match) turned into ``P(stated)`` by the calibrated
   model shipped with the package (``factgraph.stages.fact_calibration``; fitted on people's
   fact-level labels, numpy alone at run time);
2. the contradiction check of ``factgraph.stages.contradiction`` on the aligned sentence, and
   on the sentence holding most of the fact's words where that is another (another number,
   a flipped negation, an antonym, another name in the fact's slot), shown only where the
   fact's P with its value evidence set aside reaches 0.4 (``factgraph.stages.
   judged_conflict``: a sentence that does not carry the rest of the fact leaves it missing,
   not contradicted);
3. with ``evidence_model_check`` and a text model, for the facts still undecided
   (``evidence_band_low ≤ P < evidence_band_high``) one yes / no / unknown token: do the
   ``evidence_sentences`` response sentences nearest to the fact state it? Where the
   calibration ships a combination fitted for the model (``Calibration.model``:
   ``python -m benchmarks.fact_judge_model --fit``), the fact's P is
   ``σ(b + w·[logit P, logit P(yes), logit P(no)])``; without one, ``P(yes)``. A "no"
   (``P(no) ≥ 0.5``) on a fact left below the cut-off is a contradiction.

A contradicted fact gets a ``contradicts`` relation from its sentence and is never covered;
a fact with ``P(stated) ≥ coverage_cutoff`` gets an ``entails`` relation from its sentence
(``probability`` = P, ``metadata["evidence"]``: each check and its value); every other fact is
missing. ``S`` is the paper's exact count over the graph; ``expected_coverage`` (the mean of
``P(stated)``, 0 for a contradicted fact; with ``partial_credit_words``, a background
statement of several clauses counts at least the mean P of its clauses, recorded in its
evidence; with ``expected_coverage_weights="words"`` the statements of a background text are
weighed by their content words, given facts one each) is reported beside it: it ranks answers
better than the count (``python -m benchmarks.fact_judge``). Without the model check no model
is used.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from factgraph.errors import UserInputError
from factgraph.graph import analyze
from factgraph.inputs import EvaluationInput
from factgraph.methods.assemble import assemble, comprehensiveness_scores, coverage_verdicts
from factgraph.methods.context import ContextStore, doc_keys, incomplete
from factgraph.methods.e2e.options import E2EOptions
from factgraph.methods.given_facts import given_fact_statements
from factgraph.models import Evaluation, FactGraph, Origin, Relation, RelationLabel, Statement
from factgraph.stages.contradiction import Conflict
from factgraph.stages.fact_calibration import Calibration, load_calibration
from factgraph.stages.fact_coverage import evidence_verdict_probabilities
from factgraph.stages.fact_evidence import (
    FactEvidence,
    ResponseIndex,
    distinctiveness,
    fact_evidence,
    feature_vector,
    nearest_sentences,
)
from factgraph.stages.judged_conflict import judged_conflict
from factgraph.stages.session import ModelSession
from factgraph.stages.text_units import split_facts, split_sentences, split_statements


def reference_facts(text: str, unit: str = "statements") -> list[str]:
    """The facts of a background text: ``statements`` (``split_statements``), ``clauses``
    (``split_facts``) or ``sentences``."""
    if unit == "statements":
        return split_statements(text)
    return split_facts(text, "sentence" if unit == "sentences" else "clause")


def _evidence_record(ev: FactEvidence, p: float) -> dict[str, Any]:
    keys = ("word_share", "sentence_share", "weighted_share", "bigram_share",
            "numbers_missing", "names_missing", "distinct_share", "distinct_sentence_share")
    record: dict[str, Any] = {"p_stated": round(p, 6),
                              **{k: round(float(getattr(ev, k)), 6) for k in keys}}
    if ev.read_as:  # "UK = united kingdom": why words the sentence does not write count
        record["read_as"] = list(ev.read_as)
    return record


MODEL_NO = 0.5  # the model's P(no) at which a fact it is asked about is contradicted


def model_evidence(fact: str, index: ResponseIndex, k: int) -> str:
    """What the text model reads about ``fact``: the ``k`` response sentences nearest to it,
    in the response's order."""
    return " ".join(index.sentences[i] for i in nearest_sentences(fact, index, k))


def _model_verdicts(session: ModelSession, options: E2EOptions, index: ResponseIndex,
                    facts: list[Statement], evidence: list[FactEvidence], probs: np.ndarray,
                    conflicts: list[Conflict | None]) -> dict[int, tuple[float, float]]:
    """``(P(yes), P(no))`` by fact index for the facts the text model is asked about: with
    ``evidence_model_check`` and a text model, those in the undecided band with no conflict
    found by the cheap check; the evidence is the ``evidence_sentences`` response sentences
    nearest to the fact, in the response's order (a name said earlier, a pronoun)."""
    if not options.evidence_model_check or session.text is None:
        return {}
    asked = [k for k, (ev, p, c) in enumerate(zip(evidence, probs, conflicts, strict=True))
             if ev.sentence >= 0 and c is None
             and options.evidence_band_low <= p < options.evidence_band_high]
    pairs = [(model_evidence(facts[k].text, index, options.evidence_sentences), facts[k].text)
             for k in asked]
    session.count("evidence.model", len(asked))
    answers = evidence_verdict_probabilities(session, pairs)
    return {k: a for k, a in zip(asked, answers, strict=True) if a is not None}


def _fact_texts(docs: dict[str, Any], session: ModelSession, options: E2EOptions,
                params: dict[str, Any]) -> dict[str, list[str]]:
    """Each background text's facts by its key: split without a model, or, with
    ``reference_facts="model"``, listed by the text model (``factgraph.stages.model_facts``;
    what it listed, dropped and fell back on is recorded in ``params``)."""
    if options.reference_facts != "model":
        return {key: reference_facts(doc.text, options.reference_facts)
                for key, doc in docs.items()}
    from factgraph.stages.model_facts import model_reference_facts

    if session.text is None:
        raise UserInputError("reference_facts='model' needs a text model (--model); the "
                             "model-free units are statements, clauses and sentences")
    listed = model_reference_facts(session, {key: doc.text for key, doc in docs.items()})
    params["reference_facts"] = {key: {
        "chunks": m.chunks, "listed": m.listed, "kept": len(m.facts), "merged": m.merged,
        "ungrounded": m.ungrounded, "fallback_chunks": m.fallback_chunks}
        for key, m in listed.items()}
    return {key: m.facts for key, m in listed.items()}


def _clause_probabilities(facts: list[Statement], index: ResponseIndex,
                          calibration: Calibration, words: int
                          ) -> dict[int, list[tuple[str, float]]]:
    """For each fact of several clauses (``split_facts``, clauses of at least ``words``
    content words), by fact index: each clause and its ``P(stated)``, from the same evidence
    and calibration as a fact (distinctiveness among all the clauses). Expected coverage
    gives such a fact at least the mean, so a long statement stated in part counts in part
    (``partial_credit_words``; chosen on RAGChecker's dev answers with each domain left out
    in turn: ``python -m benchmarks.fact_judge``)."""
    parts = {k: split_facts(f.text, "clause", min_content_words=words)
             for k, f in enumerate(facts)}
    parts = {k: v for k, v in parts.items() if len(v) > 1}
    if not parts:
        return {}
    texts = [t for v in parts.values() for t in v]
    distinct = distinctiveness(texts)
    probs = calibration.probability(np.array([
        feature_vector(fact_evidence(t, index, distinct=distinct), calibration.features)
        for t in texts]))
    out: dict[int, list[tuple[str, float]]] = {}
    n = 0
    for k, v in parts.items():
        out[k] = [(t, float(probs[n + j])) for j, t in enumerate(v)]
        n += len(v)
    return out


def run_evidence(inp: EvaluationInput, session: ModelSession, options: E2EOptions,
                 context_store: ContextStore | None = None) -> Evaluation:
    """The evidence judge (module docstring); ``context_store`` is not used."""
    params: dict[str, Any] = {}  # the Evaluator records the method, options and models
    calibration = load_calibration(options.calibration)
    params["calibration"] = {"name": calibration.name, "fitted_on": calibration.fitted_on}
    docs = doc_keys(inp.documents)
    texts = {} if inp.facts else _fact_texts(docs, session, options, params)
    facts = given_fact_statements(inp) if inp.facts else [
        Statement(id=f"{key}.s{n}", text=text, origin=Origin.context, source_id=doc.id)
        for key, doc in docs.items() for n, text in enumerate(texts[key], 1)]
    sentences = split_sentences(inp.response, min_content_words=1) if inp.response.strip() \
        else []
    said = [Statement(id=f"r{k}", text=s, origin=Origin.response, source_id=inp.response_id)
            for k, s in enumerate(sentences, 1)]
    graph = FactGraph(query=inp.query, statements=[*said, *facts])
    if not facts:
        return incomplete(inp.id, "e2e", graph, session, params, inp,
                          "no fact to judge: the input has no given facts and its background "
                          "texts no clause")
    index = ResponseIndex.of(sentences)
    distinct = distinctiveness([f.text for f in facts])  # what sets each fact apart
    evidence = [fact_evidence(f.text, index, distinct=distinct) for f in facts]
    features = np.array([feature_vector(ev, calibration.features) for ev in evidence])
    probs = calibration.probability(features)
    found = [judged_conflict(f.text, index, ev, inp.response, calibration,
                             options.coverage_cutoff, x)
             if options.contradiction_check else None
             for f, ev, x in zip(facts, evidence, features, strict=True)]
    conflicts = [x[1] if x is not None else None for x in found]
    model = _model_verdicts(session, options, index, facts, evidence, probs, conflicts)
    clauses = _clause_probabilities(facts, index, calibration, options.partial_credit_words) \
        if options.partial_credit_words and not inp.facts else {}
    relations: list[Relation] = []
    expected: list[float] = []
    # a background text's statement weighs what it says (its content words), so expected
    # coverage does not hang on where the text was cut; a given fact is the user's own unit
    by_words = options.expected_coverage_weights == "words" and not inp.facts
    weights = [float(max(1, ev.n_words)) if by_words else 1.0 for ev in evidence]
    for k, (f, ev) in enumerate(zip(facts, evidence, strict=True)):
        p = float(probs[k])
        record = _evidence_record(ev, p)
        f.metadata["p_covered"] = round(p, 6)
        conflict = conflicts[k]
        if k in model:
            p_yes, p_no = model[k]
            record.update({"model_p_yes": round(p_yes, 6), "model_p_no": round(p_no, 6)})
            # the fitted combination of the cheap P and the model's answer, where one ships
            p = p_yes if calibration.model is None else float(
                calibration.model.probability(np.array(p), np.array(p_yes), np.array(p_no)))
            record["p_combined"] = round(p, 6)
            f.metadata["p_covered"] = round(p, 6)
            if conflict is None and p_no >= MODEL_NO and p < options.coverage_cutoff:
                conflict = Conflict("model", "stated", f"shown false (P(no) {p_no:.2f})")
        if k in clauses:  # a fact stated in part counts in part (expected coverage only)
            record["clauses"] = [{"text": t, "p_stated": round(q, 6)} for t, q in clauses[k]]
            record["p_clauses"] = round(float(np.mean([q for _, q in clauses[k]])), 6)
        graded = max(p, record.get("p_clauses", 0.0))
        if ev.sentence < 0:
            expected.append(0.0)
            continue
        src = said[ev.sentence].id
        if conflict is not None:
            where = found[k]
            if where is not None:  # the sentence that states it otherwise
                src = said[where[0]].id
            f.metadata["contradicted"] = conflict.describe()
            relations.append(Relation(src=src, dst=f.id, label=RelationLabel.contradicts,
                                      method=f"evidence:{conflict.slot}",
                                      metadata={"conflict": {
                                          "slot": conflict.slot, "fact": conflict.fact_value,
                                          "response": conflict.response_value}}))
            session.count("evidence.contradicted")
            expected.append(0.0)
            continue
        expected.append(graded)
        if p >= options.coverage_cutoff:
            relations.append(Relation(src=src, dst=f.id, label=RelationLabel.entails,
                                      probability=round(p, 6), method="evidence",
                                      metadata={"evidence": record}))
        elif ev.weighted_share > 0 or ev.similarity is not None:
            f.metadata["evidence"] = {**record, "nearest_sentence": src}
        else:  # no sentence shares a word with it: the first sentence is no "nearest"
            f.metadata["evidence"] = record
    session.count("evidence.facts", len(facts))
    graph = FactGraph(query=inp.query, statements=[*said, *facts], relations=relations)
    cov = analyze(graph)
    scores = comprehensiveness_scores(cov)
    scores["expected_coverage"] = round(float(np.average(expected, weights=weights)), 6) \
        if expected else float("nan")
    return assemble(eval_id=inp.id, method="e2e", graph=graph, session=session,
                    parameters=params, scores=scores, verdicts=coverage_verdicts(graph, cov),
                    response_id=inp.response_id, model=inp.model)
