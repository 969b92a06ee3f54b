"""The list judge (``coverage_judge="list"``, Dejl et al. 2025, §3.3): one call lists the
covered and uncovered facts with their source texts; each listed fact is a context statement,
entailed by the response when covered."""

from __future__ import annotations

from typing import Any

from factgraph.inputs import Document, EvaluationInput
from factgraph.methods.assemble import assemble
from factgraph.methods.context import ContextStore, background_texts, incomplete
from factgraph.methods.e2e.options import E2EOptions
from factgraph.methods.given_facts import refuse_given_facts
from factgraph.models import Evaluation, FactGraph, Origin, Relation, RelationLabel, Statement
from factgraph.stages.e2e import e2e_coverage
from factgraph.stages.session import ModelSession


def run_list(inp: EvaluationInput, session: ModelSession, options: E2EOptions,
             context_store: ContextStore | None = None) -> Evaluation:
    """The whole response is one response statement; the judge's covered and uncovered facts
    are context statements, the covered ones entailed by it."""
    refuse_given_facts(inp, "coverage_judge 'list'", "use 'evidence', 'sentences', "
                                                     "'per-fact' or 'auto'")
    params: dict[str, Any] = {}  # the Evaluator records the method, options and models
    texts, docs = background_texts(session, inp, options)
    shown = [Document(id=d.id, text=texts[k], title=d.title) for k, d in docs.items()]
    reply = e2e_coverage(session, inp.query, inp.response, shown)
    response = Statement(id="r", text=inp.response, origin=Origin.response,
                         source_id=inp.response_id)
    graph = FactGraph(query=inp.query, statements=[response])
    if reply is None:
        return incomplete(inp.id, "e2e", graph, session, params, inp,
                          "the coverage judge's reply could not be read")
    trace = session.trace_for("e2e", "coverage")
    response.trace_id = trace
    statements = [response]
    relations: list[Relation] = []
    for label, facts in (("covered", reply.covered), ("uncovered", reply.uncovered)):
        for n, fact in enumerate(facts, 1):
            sid = f"{label[0]}{n}"
            sources = [inp.documents[s - 1].id for s in fact.sources]
            statements.append(Statement(
                id=sid, text=fact.statement, origin=Origin.context,
                source_id=sources[0] if sources else None, trace_id=trace,
                metadata={"sources": sources, "judged": label}))
            if label == "covered":
                relations.append(Relation(src="r", dst=sid, label=RelationLabel.entails,
                                          probability=1.0, method="e2e", trace_id=trace))
    graph = FactGraph(query=inp.query, statements=statements, relations=relations)
    return assemble(eval_id=inp.id, method="e2e", graph=graph, session=session,
                    parameters=params, response_id=inp.response_id, model=inp.model)
