"""What the per-fact and answers judges share: the context facts (or the texts' answers to the
query) are extracted once per query and texts, never shown the response, grounded in their
text; then one yes/no question per fact, its probability read from the first token's
log-probabilities; a fact is covered when ``P(yes) ≥ coverage_cutoff``.

``coverage_judge="answers"`` is the same with the query itself as the only question (the Q&A
method of §3.2 narrowed to the query): the facts are the answers each text gives to the query,
as short phrases, and the question per answer is "does the response give this answer to the
query?"; on by default, bare yes / no answers share one polarity question per response
(``yes_no_polarity``) and a response covers a second of the texts' differing answers to a
one-answer query only if it gives more than one (``several_answers_check``: two one-token
questions per response). Options for the answers that per-text reading misses (measured on
dev, off by default): ``answer_joint`` (all texts in one call) and ``response_answers`` (the
response's own answers, added when a text supports them; ``factgraph.stages.response_answers``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from factgraph.inputs import EvaluationInput
from factgraph.methods.assemble import assemble
from factgraph.methods.context import (
    ContextPart,
    ContextStore,
    background_texts,
    content_hash,
    context_part,
    counts_since,
    doc_keys,
    incomplete,
    session_models,
)
from factgraph.methods.e2e.options import E2EOptions
from factgraph.methods.given_facts import given_fact_statements
from factgraph.models import (
    Evaluation,
    FactGraph,
    Origin,
    Relation,
    RelationLabel,
    Statement,
    StatementKind,
)
from factgraph.stages.answer_match import answer_stated, bare_yes_no
from factgraph.stages.context_facts import extract_context_facts
from factgraph.stages.fact_coverage import (
    coverage_probabilities,
    one_answer_query_probability,
    polarity_probabilities,
    several_answers_probability,
)
from factgraph.stages.response_answers import response_answers
from factgraph.stages.session import ModelSession


def facts_part(session: ModelSession, inp: EvaluationInput,
               options: E2EOptions) -> ContextPart:
    """The context facts (or the texts' answers to the query) as statements, with the texts
    they were read from: the response-independent part of a per-fact evaluation."""
    if inp.facts:  # given facts: nothing to extract (the documents are evidence only)
        return ContextPart(statements=given_fact_statements(inp), relations=[], traces=[],
                           failures=[], counts={})
    before_traces, before_failures = len(session.traces), len(session.failures)
    before_counts = dict(session.counts)
    texts, docs = background_texts(session, inp, options)
    answers = options.coverage_judge == "answers"
    stage = "query_answers" if answers else "facts"
    facts = extract_context_facts(
        session, inp.query, texts,
        options.max_answers_per_text if answers else options.max_facts_per_text,
        options.grounding_min_overlap, stage=stage, kind="answers" if answers else "facts",
        quote=answers and options.answer_quote, joint=answers and options.answer_joint)
    # An answer is a short phrase: it is read together with the query (kind answer, q1).
    statements = [Statement(
        id=f"{'a' if answers else 'f'}{n}", text=f.text, origin=Origin.context,
        source_id=docs[f.sources[0]].id,
        kind=StatementKind.answer if answers else StatementKind.atom,
        question_id="q1" if answers else None,
        trace_id=session.trace_for(stage, f.sources[0]),
        metadata={"sources": [docs[k].id for k in f.sources],
                  **({"question": inp.query} if answers else {})})
        for n, f in enumerate(facts or [], 1)]
    counts = counts_since(session, before_counts)
    if facts is None:
        counts["facts.unreadable"] = 1
    return ContextPart(statements=statements, relations=[], texts=dict(texts),
                       traces=session.traces[before_traces:],
                       failures=session.failures[before_failures:], counts=counts)


def per_fact_score(evaluation: Evaluation, cutoff: float) -> float | None:
    """S of a per-fact evaluation re-read at another cut-off, from its recorded probabilities
    (no model call): ``S = |{f : P_f ≥ cutoff}| / |{f : P_f known}|``; None without facts."""
    probs = [s.metadata.get("p_covered") for s in evaluation.graph.statements
             if s.origin == Origin.context]
    known = [p for p in probs if p is not None]
    if not known:
        return None
    return sum(p >= cutoff for p in known) / len(known)


def _how_judged(fact: str, response: str, options: E2EOptions
                ) -> Literal["words", "polarity", "model"]:
    """How a per-fact / answer judge decides one fact: the word check (answers stated word for
    word), the response's polarity (bare yes / no answers), or one model question."""
    if options.coverage_judge != "answers":
        return "model"
    if options.answer_match == "words-or-model" and answer_stated(fact, response):
        return "words"
    if options.yes_no_polarity and bare_yes_no(fact):
        return "polarity"
    return "model"


def _supported_response_answers(session: ModelSession, inp: EvaluationInput,
                                options: E2EOptions, texts: dict[str, str],
                                facts: list[Statement]) -> list[Statement]:
    """Answer statements for the response's answers that a background text supports and the
    texts' own answers lack (``stages/response_answers``), covered by the response; ``texts``
    are the (possibly summarised) texts the answers were read from."""
    docs = doc_keys(inp.documents)
    read = response_answers(session, inp.query, inp.response, texts,
                            [f.text for f in facts], options.max_answers_per_text,
                            options.grounding_min_overlap)
    if read is None:
        session.count("response_answers.unreadable")
        return []
    out: list[Statement] = []
    for a in read:
        keys = a.supporting(options.response_answer_cutoff)
        if not keys:
            session.count("response_answers.unsupported")
            continue
        out.append(Statement(
            id=f"a{len(facts) + len(out) + 1}", text=a.text, origin=Origin.context,
            source_id=docs[keys[0]].id, kind=StatementKind.answer, question_id="q1",
            trace_id=session.trace_for("response_answers", "response"),
            metadata={"sources": [docs[k].id for k in keys], "question": inp.query,
                      "found_in": "response", "p_covered": 1.0, "matched": "response",
                      "p_supported": {docs[k].id: p for k, p in a.p_supported.items()}}))
    session.count("response_answers.supported", len(out))
    return out


def _one_answer_unless_several(session: ModelSession, inp: EvaluationInput,
                               options: E2EOptions, how: Sequence[str],
                               probs: list[float | None], response: Statement
                               ) -> list[float | None]:
    """The several-answers check (``several_answers_check``): to a query with one true
    answer, the answers the texts give are rivals, so covering two of them needs a response
    that gives more than one answer; to a query that asks for a list they are parts of one
    reply. When two or more answers reach ``coverage_cutoff`` (and not all of them come from
    the polarity question, whose "both" already says this), two one-token questions:
    ``o = P(the query asks for one answer, not a list)`` and ``q = P(the response gives more
    than one different answer)``. The most probable answer keeps ``P``, every other gets
    ``P · (1 − o · (1 − q))`` — ``P · q`` for a one-answer query, ``P`` for a list. The re-read
    S at any cut-off ≥ ``coverage_cutoff`` is exact (``per_fact_score``). ``o`` and ``q`` are
    kept on the response statement (``p_one_answer_query``, ``p_several``)."""
    reached = [k for k, p in enumerate(probs) if p is not None and p >= options.coverage_cutoff]
    if len(reached) < 2 or all(how[k] == "polarity" for k in reached):
        return probs
    o = one_answer_query_probability(session, inp.query)
    q = several_answers_probability(session, inp.query, inp.response)
    if o is None or q is None:
        session.count("several_answers.unreadable")
        return probs
    response.metadata["p_one_answer_query"] = round(o, 6)
    response.metadata["p_several"] = round(q, 6)
    keep = 1.0 - o * (1.0 - q)
    top = max(reached, key=lambda k: probs[k] or 0.0)  # ties: the first answer
    return [p if p is None or k == top else p * keep for k, p in enumerate(probs)]


def run_fact_questions(inp: EvaluationInput, session: ModelSession, options: E2EOptions,
                       context_store: ContextStore | None = None) -> Evaluation:
    """Per-fact end-to-end coverage: facts (or the texts' answers to the query) once per
    (query, texts), one question per fact."""
    params: dict[str, Any] = {}  # the Evaluator records the method, options and models
    answers = options.coverage_judge == "answers"
    key = content_hash({"per-fact": True, "query": inp.query,
                        "docs": [(d.id, d.text) for d in inp.documents],
                        "facts": [(f.id, f.text) for f in inp.facts],
                        "options": {k: v for k, v in E2EOptions.flat(options).items()
                                    if k in ("summarize_over_chars", "max_facts_per_text",
                                             "max_answers_per_text", "answer_quote",
                                             "answer_joint", "coverage_judge",
                                             "grounding_min_overlap")},
                        "models": session_models(session),
                        "gen": session.params.model_dump(mode="json")})
    part = context_part(session, context_store, key,
                        lambda: facts_part(session, inp, options))
    response = Statement(id="r", text=inp.response, origin=Origin.response,
                         source_id=inp.response_id)
    facts = [s.model_copy(deep=True) for s in part.statements]
    graph = FactGraph(query=inp.query, statements=[response, *facts])
    if part.counts.get("facts.unreadable"):
        return incomplete(inp.id, "e2e", graph, session, params, inp,
                          "no background text's facts could be read")
    if not facts:
        return incomplete(inp.id, "e2e", graph, session, params, inp,
                          "the background texts gave no answer to the query" if answers else
                          "the background texts gave no fact that bears on the query")
    found: list[Statement] = []
    if answers and options.response_answers:
        found = _supported_response_answers(session, inp, options, part.texts, facts)
    # Cheapest check first (as the Q&A method's exact match): an answer stated word for word
    # is covered without asking the model; with ``yes_no_polarity`` the bare yes / no answers
    # left share one polarity question for the response; every other fact gets its own.
    how = [_how_judged(f.text, inp.response, options) for f in facts]
    if answers:
        session.count("coverage.stated", how.count("words"))
    polarity = (polarity_probabilities(session, inp.query, inp.response)
                if "polarity" in how else None)
    asked = iter(coverage_probabilities(
        session, inp.response, [f.text for f, h in zip(facts, how, strict=True) if h == "model"],
        samples=options.coverage_samples, query=inp.query if answers else None))
    probs = [1.0 if h == "words" else next(asked) if h == "model" else
             None if polarity is None else polarity[bare_yes_no(f.text) or ""]
             for f, h in zip(facts, how, strict=True)]
    stated = probs
    if answers and options.several_answers_check:
        probs = _one_answer_unless_several(session, inp, options, how, probs, response)
    judged: list[Statement] = []
    relations: list[Relation] = []
    for f, h, p, p0 in zip(facts, how, probs, stated, strict=True):
        f.metadata["p_covered"] = None if p is None else round(p, 6)
        if p != p0:  # lowered by the several-answers check: keep what the response states
            f.metadata["p_stated"] = None if p0 is None else round(p0, 6)
        if answers:
            f.metadata["matched"] = h
        if p is None:
            continue
        judged.append(f)
        if p >= options.coverage_cutoff:
            relations.append(Relation(src="r", dst=f.id, label=RelationLabel.entails,
                                      probability=round(p, 6),
                                      method=options.coverage_judge if h == "model" else h))
    unjudged = len(facts) - len(judged)
    if unjudged:
        session.count("coverage.unjudged", unjudged)
    for f in found:  # the response's own answer, attested by a text: covered
        judged.append(f)
        relations.append(Relation(src="r", dst=f.id, label=RelationLabel.entails,
                                  probability=1.0, method="response-answer"))
    if not judged:
        return incomplete(inp.id, "e2e", graph, session, params, inp,
                          "no fact got a readable yes/no answer")
    graph = FactGraph(query=inp.query, statements=[response, *judged], relations=relations)
    return assemble(eval_id=inp.id, method="e2e", graph=graph, session=session,
                    parameters=params, response_id=inp.response_id, model=inp.model)

