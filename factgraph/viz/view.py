"""The interactive view of one fact graph (or Evaluation): data, and the HTML file."""

from __future__ import annotations

import html
from typing import Any

from factgraph.graph import analyze, contradictions, reported_comprehensiveness
from factgraph.graph.reasons import Reasons, reasons
from factgraph.models import Evaluation, FactGraph, Origin
from factgraph.viz.safe_html import (
    content_security_policy,
    fill_template,
    json_for_script,
    read_asset,
)

PALETTE = {
    "response": {"label": "response statement", "color": "#4e79a7", "border": "#2c4a6b"},
    "covered": {"label": "covered context", "color": "#8cd17d", "border": "#3b7d2c"},
    "uncovered": {"label": "uncovered context", "color": "#ff9d9a", "border": "#b5302d"},
    "basis": {"label": "uncovered basis (add these)", "color": "#e15759", "border": "#7a1412"},
    # not a coverage status: the thick border of a response statement that contradicts a
    # background statement (the "wrong" half)
    "contradicted": {"label": "response statement contradicting the background (thick red "
                              "border)", "color": "#4e79a7", "border": "#d62728"},
}
EDGE_STYLES = {
    "entails": {"label": "entails (source → target)", "color": "#59a14f"},
    "contradicts": {"label": "contradicts", "color": "#e15759", "dashes": True},
    "neutral": {"label": "neutral", "color": "#bab0ac", "dashes": True},
    "covers": {"label": "covers aspect", "color": "#76b7b2"},
}
# What a highlighted edge means (vis-network recolours the edges of the selected statement
# and of the one under the pointer; view.js draws a covering path itself).
EDGE_HIGHLIGHTS = {
    "selected": {"label": "black edge: a relation of the selected statement", "color": "#111111"},
    "hover": {"label": "grey edge: a relation of the statement under the pointer",
              "color": "#888888"},
    "path": {"label": "thick orange edge: the entailment path that covers the selected "
                      "statement", "color": "#f28e2b"},
}
CLUSTER_THRESHOLD = 500


def _short(text: str, n: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def view_data(
    obj: Evaluation | FactGraph, cluster_threshold: int = CLUSTER_THRESHOLD
) -> dict[str, Any]:
    """Everything the page draws, as JSON-able data (statuses and paths from the engine)."""
    ev = obj if isinstance(obj, Evaluation) else None
    graph = obj.graph if isinstance(obj, Evaluation) else obj
    cov = analyze(graph)
    why = reasons(cov)
    trace_model = {t.id: t.model for t in ev.traces} if ev else {}
    comp_status: dict[str, str] = {}
    components: list[dict[str, Any]] = []
    for comp in cov.components():
        status = "response" if comp.status == "response" else (
            "basis" if comp.basis else comp.status)
        comp_status[comp.id] = comp.status
        components.append({"id": comp.id, "members": list(comp.members), "text": comp.text,
                           "label": _short(comp.text, 40), "status": status})
    comp_by_stmt: dict[str, dict[str, Any]] = {
        m: c for c in components for m in c["members"]
    }
    statements = []
    paths: dict[str, list[str]] = {}
    for s in graph.statements:
        info = comp_by_stmt[s.id]
        status = "response" if s.origin is Origin.response else info["status"]
        if status == "response" and s.origin is Origin.context:
            status = "covered"
        statements.append({
            "id": s.id, "text": s.text, "label": _short(s.text), "origin": s.origin.value,
            "kind": s.kind.value, "source_id": s.source_id, "relevance": s.relevance,
            "confidence": s.confidence, "trace_id": s.trace_id,
            "trace_model": trace_model.get(s.trace_id or ""), "status": status,
            "component": info["id"], "component_size": len(info["members"]),
            # why a context statement is covered, contradicted or missing (factgraph.graph.reasons)
            "why": None if (reason := why.of(s.id)) is None else reason.record(),
        })
        if s.origin is Origin.context:
            path = cov.explain(s.id)
            if path:
                paths[s.id] = path
    sources = sorted({s.source_id or "" for s in graph.statements})
    scores: dict[str, Any] = dict(ev.scores) if ev else {}
    scores["comprehensiveness"] = reported_comprehensiveness(scores, cov)
    found = contradictions(graph)
    counts = {"covered": cov.n_covered, "uncovered": cov.n_uncovered, "basis": cov.n_basis}
    for name, count in counts.items():  # every score once: n_covered is the graph's covered
        if scores.get(f"n_{name}") == count:
            del scores[f"n_{name}"]
    scores.update({**counts, "contradicted": len(found)})
    return {
        "query": graph.query,
        "title": f"{ev.model or ev.method} · {ev.id}" if ev else "fact graph",
        "scores": scores,
        "statements": statements,
        "relations": [{"src": r.src, "dst": r.dst, "label": r.label.value,
                       "probability": r.probability, "method": r.method}
                      for r in graph.relations],
        "components": components,
        "component_status": comp_status,
        "paths": paths,
        "basis": [{"id": c.representative, "text": c.text} for c in cov.basis()],
        # response statements that contradict a background statement, with those statements
        "contradictions": [{"id": c.statement_id, "text": c.text,
                            "contradicts": [{"id": f.statement_id, "text": f.text,
                                             "source_id": f.source_id,
                                             "probability": f.probability,
                                             "why": _pair_record(why, c.statement_id,
                                                                 f.statement_id)}
                                            for f in c.contradicts]} for c in found],
        "sources": [{"id": s, "label": s or "(no source)"} for s in sources],
        "palette": PALETTE,
        "edge_styles": EDGE_STYLES,
        "edge_highlights": EDGE_HIGHLIGHTS,
        "cluster_threshold": cluster_threshold,
    }


def _pair_record(why: Reasons, response_id: str, context_id: str) -> dict[str, Any] | None:
    reason = why.pair(response_id, context_id)
    return None if reason is None else reason.record()


def render_view(obj: Evaluation | FactGraph, cluster_threshold: int = CLUSTER_THRESHOLD) -> str:
    """One self-contained HTML page: vis-network, styles, data and app inlined."""
    data = view_data(obj, cluster_threshold)
    vis = read_asset("vendor", "vis-network.min.js")
    app = read_asset("view.js")
    page = read_asset("view.html")
    title = f"factgraph — {_short(data['query'] or data['title'], 80)}"
    return fill_template(page, {
        "__CSP__": html.escape(content_security_policy([vis, app]), quote=True),
        "__TITLE__": html.escape(title),
        "__CSS__": read_asset("view.css"),
        "__DATA__": json_for_script(data),
        "__VIS__": vis,
        "__APP__": app,
    })
