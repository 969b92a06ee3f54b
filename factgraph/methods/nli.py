"""NLI-based comprehensiveness (Dejl et al. 2025, §3.1): atomize → revise → relevance filter
(context only, ``r ≥ T_rel``) → NLI pairs (with the levers of ``factgraph.stages.nli_relations``).

The context side (atoms, relevance, context→context relations) is built once per query and
texts when a :class:`~factgraph.methods.context.ContextStore` is shared.
"""

from __future__ import annotations

import logging
from typing import Any

from factgraph.inputs import EvaluationInput
from factgraph.methods.assemble import assemble
from factgraph.methods.context import (
    RESPONSE,
    ContextPart,
    ContextStore,
    background_texts,
    content_hash,
    context_part,
    counts_since,
    incomplete,
    session_models,
)
from factgraph.methods.given_facts import refuse_given_facts
from factgraph.methods.nli_spec import NLIOptions
from factgraph.models import Evaluation, FactGraph, Origin, Statement
from factgraph.stages.atomize import atomize
from factgraph.stages.nli_relations import PairPolicy, judge_pairs
from factgraph.stages.relevance import keep_relevant, rate_relevance
from factgraph.stages.revise import revise
from factgraph.stages.session import ModelSession

log = logging.getLogger(__name__)


def _build_context_part(session: ModelSession, inp: EvaluationInput,
                        options: NLIOptions, policy: PairPolicy) -> ContextPart:
    before_traces, before_failures = len(session.traces), len(session.failures)
    before_counts = dict(session.counts)
    texts, docs = background_texts(session, inp, options)
    atoms = atomize(session, texts, stage="atomize")
    for key, value in atoms.items():
        if value is None:
            session.count("atomize.unreadable_texts")
            log.warning("background text %s could not be atomized; it adds no statements",
                        docs[key].id)
    usable = {k: v for k, v in atoms.items() if v}
    if options.revise and usable:
        usable = revise(session, usable, texts)
    statements: list[Statement] = []
    for key, items in usable.items():
        for n, text in enumerate(items, 1):
            statements.append(Statement(
                id=f"{key}.{n}", text=text, origin=Origin.context, source_id=docs[key].id,
                trace_id=session.trace_for("revise", key) or session.trace_for("atomize", key)))
    if statements:
        scores = rate_relevance(session, inp.query, [s.text for s in statements])
        for s, r in zip(statements, scores, strict=True):
            s.relevance = None if r is None else round(r, 6)
        if options.relevance_filter:
            keep = keep_relevant(scores, options.t_rel)
            session.count("relevance.dropped", keep.count(False))
            statements = [s for s, k in zip(statements, keep, strict=True) if k]
    texts_by_id = {s.id: s.text for s in statements}
    ctx = [s.id for s in statements]
    relations, stats = judge_pairs(session, texts_by_id, [], ctx, policy, stage="nli.context")
    _count_pairs(session, "nli.context", stats)
    return ContextPart(statements=statements, relations=relations,
                       traces=session.traces[before_traces:],
                       failures=session.failures[before_failures:],
                       counts=counts_since(session, before_counts))


def _count_pairs(session: ModelSession, stage: str, stats: Any) -> None:
    for name in ("candidates", "pruned", "skipped_implied", "skipped_inert", "judged", "capped"):
        session.count(f"{stage}.{name}", getattr(stats, name))


def run_nli(inp: EvaluationInput, session: ModelSession, options: NLIOptions,
            context_store: ContextStore | None = None) -> Evaluation:
    """NLI-based comprehensiveness (Dejl et al. 2025, §3.1)."""
    refuse_given_facts(inp, "--method nli", "use method e2e or prf (--method e2e, or "
                                    "method='e2e' in Python)")
    params: dict[str, Any] = {}  # the Evaluator records the method, options and models
    policy = PairPolicy(prune_top_k=options.prune_top_k,
                        prune_min_similarity=options.prune_min_similarity,
                        skip_implied=options.skip_implied, skip_inert=options.skip_inert,
                        entail_cutoff=options.nli_cutoff)
    key = content_hash({"query": inp.query, "docs": [(d.id, d.text) for d in inp.documents],
                        "options": NLIOptions.own_values(options),
                        "models": session_models(session),
                        "gen": session.params.model_dump(mode="json")})
    part = context_part(session, context_store, key,
                        lambda: _build_context_part(session, inp, options, policy))
    response_atoms = atomize(session, {RESPONSE: inp.response}, stage="atomize")[RESPONSE]
    statements = list(part.statements)
    graph = FactGraph(query=inp.query, statements=statements, relations=list(part.relations))
    if response_atoms is None:
        return incomplete(inp.id, "nli", graph, session, params, inp,
                          "the response could not be split into statements")
    if options.revise and response_atoms:
        response_atoms = revise(session, {RESPONSE: response_atoms},
                                {RESPONSE: inp.response})[RESPONSE]
    rtrace = session.trace_for("revise", RESPONSE) or session.trace_for("atomize", RESPONSE)
    resp = [Statement(id=f"r{n}", text=t, origin=Origin.response, source_id=inp.response_id,
                      trace_id=rtrace) for n, t in enumerate(response_atoms, 1)]
    texts_by_id = {s.id: s.text for s in [*resp, *statements]}
    relations, stats = judge_pairs(
        session, texts_by_id, [s.id for s in resp], [s.id for s in statements], policy,
        known=part.relations, include_context_pairs=False, stage="nli.response")
    _count_pairs(session, "nli.response", stats)
    graph = FactGraph(query=inp.query, statements=[*resp, *statements],
                      relations=[*relations, *part.relations])
    return assemble(eval_id=inp.id, method="nli", graph=graph, session=session,
                    parameters=params, response_id=inp.response_id, model=inp.model)
