"""Turning a built fact graph + a model session into an Evaluation.

Every method ends here, so every Evaluation carries the same things: the graph, the scores,
per-statement verdicts, the traces of every model call, the parse failures, the caps that
bound, and per-stage counts (calls, pairs, repairs) in ``metadata["counts"]``.
"""

from __future__ import annotations

from typing import Any

from factgraph.graph import Coverage, analyze
from factgraph.models import Evaluation, FactGraph, Origin, Verdict
from factgraph.stages.session import ModelSession


def coverage_verdicts(graph: FactGraph, cov: Coverage) -> list[Verdict]:
    """covered / uncovered / basis for each context statement; evidence = the explaining path
    (covered) or the members of its component (uncovered)."""
    out: list[Verdict] = []
    for s in graph.statements:
        if s.origin != Origin.context:
            continue
        comp = cov.component_of(s.id)
        if comp.status == "covered":
            path = cov.explain(s.id) or []
            out.append(Verdict(statement_id=s.id, label="covered", evidence=path,
                               trace_id=s.trace_id))
        else:
            label = "basis" if comp.basis else "uncovered"
            out.append(Verdict(statement_id=s.id, label=label,
                               evidence=[m for m in comp.members if m != s.id],
                               trace_id=s.trace_id))
    return out


def comprehensiveness_scores(cov: Coverage) -> dict[str, float | None]:
    return {
        "comprehensiveness": cov.score,
        "n_covered": float(cov.n_covered),
        "n_uncovered": float(cov.n_uncovered),
        "n_basis": float(cov.n_basis),
    }


def assemble(
    *, eval_id: str, method: str, graph: FactGraph, session: ModelSession,
    parameters: dict[str, Any] | None = None, scores: dict[str, float | None] | None = None,
    verdicts: list[Verdict] | None = None, response_id: str | None = None,
    model: str | None = None, metadata: dict[str, Any] | None = None,
) -> Evaluation:
    """The Evaluation of one input. Without ``scores`` the comprehensiveness scores of the
    graph are used (``graph.analyze``) and verdicts derived from its coverage.
    ``parameters``: what only the method knows (a judge's choice, its calibration); the
    Evaluator adds the method, its options, the models and the generation settings
    (``factgraph.methods.run.stamp``)."""
    if scores is None:
        cov = analyze(graph)
        scores = comprehensiveness_scores(cov)
        verdicts = coverage_verdicts(graph, cov) if verdicts is None else verdicts
    meta = dict(metadata or {})
    meta["counts"] = dict(sorted(session.counts.items()))
    meta["models"] = {
        role: getattr(b, "model", None)
        for role, b in (("text", session.text), ("nli", session.nli),
                        ("embeddings", session.embeddings)) if b is not None
    }
    # One trace per call id: a cached repeat of the same call is the same record.
    traces = list({t.id: t for t in session.traces}.values())
    return Evaluation(
        id=eval_id, method=method, query=graph.query, response_id=response_id, model=model,
        parameters=parameters if parameters is not None else {}, scores=scores, graph=graph,
        verdicts=verdicts or [], traces=traces, limits_hit=list(session.limits_hit),
        parse_failures=list(session.failures), metadata=meta,
    )
