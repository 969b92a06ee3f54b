"""Q&A-based comprehensiveness (Dejl et al. 2025, §3.2): mine questions → refine + relevance →
answers with confidence (``c ≥ T_conf``) → compare answers within each question (exact, pint,
model)."""

from __future__ import annotations

from typing import Any

from factgraph.inputs import EvaluationInput
from factgraph.methods.assemble import assemble
from factgraph.methods.context import (
    RESPONSE,
    ContextStore,
    background_texts,
    incomplete,
)
from factgraph.methods.given_facts import refuse_given_facts
from factgraph.methods.qa_spec import QAOptions
from factgraph.models import Evaluation, FactGraph, Origin, Statement, StatementKind
from factgraph.stages.answers import answer_questions
from factgraph.stages.compare import AnswerNode, compare_answers
from factgraph.stages.questions import mine_questions, refine_questions
from factgraph.stages.session import ModelSession


def run_qa(inp: EvaluationInput, session: ModelSession, options: QAOptions,
           context_store: ContextStore | None = None) -> Evaluation:
    """Q&A-based comprehensiveness (Dejl et al. 2025, §3.2). ``context_store`` is accepted for a
    uniform signature; questions depend on the response, so nothing is shared."""
    refuse_given_facts(inp, "--method qa", "use method e2e or prf (--method e2e, or "
                                    "method='e2e' in Python)")
    params: dict[str, Any] = {}  # the Evaluator records the method, options and models
    texts, docs = background_texts(session, inp, options)
    all_texts = {RESPONSE: inp.response, **texts}
    mined = mine_questions(session, all_texts)
    pool = [q for qs in mined.values() if qs for q in qs]
    questions, q_scores = refine_questions(session, inp.query, pool, options.t_rel)
    graph = FactGraph(query=inp.query)
    if mined[RESPONSE] is None and not pool:
        return incomplete(inp.id, "qa", graph, session, params, inp,
                          "no questions could be mined from any text")
    if not questions:
        return incomplete(inp.id, "qa", graph, session, params, inp,
                          f"none of the {len(pool)} mined questions reached relevance "
                          f"T_rel = {options.t_rel}")
    answers = answer_questions(session, all_texts, questions, options.t_conf)
    if answers[RESPONSE] is None:
        return incomplete(inp.id, "qa", graph, session, params, inp,
                          "the response's answers could not be read")
    statements: list[Statement] = []
    nodes: list[AnswerNode] = []
    for key, items in answers.items():
        tag = "r" if key == RESPONSE else key
        trace = session.trace_for("answers", key)
        counters: dict[int, int] = {}
        for a in items or []:
            counters[a.question] = counters.get(a.question, 0) + 1
            sid = f"q{a.question + 1}.{tag}.{counters[a.question]}"
            statements.append(Statement(
                id=sid, text=a.answer, origin=Origin.response if key == RESPONSE
                else Origin.context, source_id=inp.response_id if key == RESPONSE
                else docs[key].id, kind=StatementKind.answer, question_id=f"q{a.question + 1}",
                confidence=a.confidence, trace_id=trace,
                metadata={"question": questions[a.question]}))
            nodes.append(AnswerNode(id=sid, question=a.question, text=a.answer,
                                    from_response=key == RESPONSE))
    relations = compare_answers(session, nodes, questions, use_pint=options.use_pint)
    graph = FactGraph(query=inp.query, statements=statements, relations=relations,
                      metadata={"questions": [{"id": f"q{i + 1}", "text": q, "relevance": s}
                                              for i, (q, s) in enumerate(zip(
                                                  questions, q_scores, strict=True))]})
    return assemble(eval_id=inp.id, method="qa", graph=graph, session=session,
                    parameters=params, response_id=inp.response_id, model=inp.model)
