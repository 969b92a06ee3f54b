"""The long-form judge (``coverage_judge="sentences"``, for long references): the clauses of
the background texts are the facts, covered by the word check or MiniLM similarity, and — with
``sentence_model_check`` — one model token for the undecided
(``factgraph.stages.sentence_coverage``)."""

from __future__ import annotations

from typing import Any

from factgraph.errors import UserInputError
from factgraph.inputs import EvaluationInput
from factgraph.methods.assemble import assemble
from factgraph.methods.context import ContextStore, doc_keys, incomplete
from factgraph.methods.e2e.options import E2EOptions
from factgraph.methods.given_facts import given_fact_statements
from factgraph.models import Evaluation, FactGraph, Origin, Relation, RelationLabel, Statement
from factgraph.stages.session import ModelSession


def run_sentences(inp: EvaluationInput, session: ModelSession, options: E2EOptions,
                  context_store: ContextStore | None = None) -> Evaluation:
    """The long-form judge (``factgraph.stages.sentence_coverage``): every sentence of the
    background texts is a fact; the word check, then embedding similarity, then (with
    ``sentence_model_check``) one yes/no token for the undecided. Each fact records ``w``
    (``word_share``), ``e`` (``similarity``) and, when asked, ``p_covered``; the relation's
    method says which evidence covered it. Given facts (``inp.facts``) are the facts, as given;
    the documents are then not split into facts. Nothing is shared across responses, so
    ``context_store`` is not used."""
    from factgraph.stages.fact_coverage import evidence_probabilities
    from factgraph.stages.sentence_coverage import covering_evidence, sentence_evidence
    from factgraph.stages.text_units import split_facts

    params: dict[str, Any] = {}  # the Evaluator records the method, options and models
    if session.embeddings is None:
        raise UserInputError("the sentences judge needs an embedding model (--embed-model minilm)")
    docs = doc_keys(inp.documents)
    response = Statement(id="r", text=inp.response, origin=Origin.response,
                         source_id=inp.response_id)
    facts = given_fact_statements(inp) if inp.facts else [  # given: the documents are evidence
        Statement(id=f"{key}.s{n}", text=text, origin=Origin.context, source_id=doc.id)
        for key, doc in docs.items()
        for n, text in enumerate(split_facts(doc.text, options.fact_unit), 1)]
    graph = FactGraph(query=inp.query, statements=[response, *facts])
    if not facts:
        return incomplete(inp.id, "e2e", graph, session, params, inp,
                          "the background texts have no sentence")
    ev = sentence_evidence(session, [f.text for f in facts], inp.response,
                           options.evidence_sentences)
    cheap = [covering_evidence(w, e, None, options.words_cutoff, options.similarity_cutoff)
             for w, e in zip(ev.words, ev.similarity, strict=True)]
    asked = [k for k, (by, w, e) in enumerate(zip(cheap, ev.words, ev.similarity, strict=True))
             if by is None and options.sentence_model_check
             and (w >= options.words_floor or (e is not None and e >= options.similarity_floor))]
    probs = evidence_probabilities(session, [
        (" ".join(ev.response_sentences[i] for i in ev.nearest[k]), facts[k].text)
        for k in asked])
    p_of = dict(zip(asked, probs, strict=True))
    session.count("sentences.words", cheap.count("words"))
    session.count("sentences.embedding", cheap.count("embedding"))
    session.count("sentences.model", len(asked))
    session.count("sentences.uncovered", cheap.count(None) - len(asked))
    relations: list[Relation] = []
    judged: list[Statement] = []
    for k, f in enumerate(facts):
        f.metadata["word_share"] = round(ev.words[k], 6)
        if ev.similarity[k] is not None:
            f.metadata["similarity"] = round(float(ev.similarity[k] or 0.0), 6)
        p = p_of.get(k)
        if k in p_of:
            f.metadata["p_covered"] = None if p is None else round(p, 6)
            if p is None:
                session.count("coverage.unjudged")
                continue
        by = covering_evidence(ev.words[k], ev.similarity[k], p, options.words_cutoff,
                               options.similarity_cutoff, options.coverage_cutoff)
        if by is not None:
            relations.append(Relation(src="r", dst=f.id, label=RelationLabel.entails,
                                      probability=None if p is None else round(p, 6),
                                      method=by))
        judged.append(f)
    if not judged:
        return incomplete(inp.id, "e2e", graph, session, params, inp,
                          "no sentence got a readable yes/no answer")
    graph = FactGraph(query=inp.query, statements=[response, *judged], relations=relations)
    return assemble(eval_id=inp.id, method="e2e", graph=graph, session=session,
                    parameters=params, response_id=inp.response_id, model=inp.model)


def sentence_score(evaluation: Evaluation, words_cutoff: float, similarity_cutoff: float,
                   coverage_cutoff: float | None = None) -> float | None:
    """S of a ``coverage_judge="sentences"`` evaluation re-read at other cut-offs, from each
    fact's recorded ``word_share``, ``similarity`` and (cascade) ``p_covered`` — no model call:
    a fact is covered when ``w ≥ words_cutoff`` or ``e ≥ similarity_cutoff`` or ``P ≥
    coverage_cutoff``. Exact for the cascade's recorded band (the facts asked were those the
    run's floors chose); None without facts."""
    from factgraph.stages.sentence_coverage import covering_evidence

    facts = [s.metadata for s in evaluation.graph.statements if s.origin == Origin.context]
    if not facts:
        return None
    return sum(covering_evidence(m.get("word_share", 0.0), m.get("similarity"),
                                 m.get("p_covered"), words_cutoff, similarity_cutoff,
                                 coverage_cutoff) is not None for m in facts) / len(facts)
