"""Evaluations as database rows: stable ids, flat properties, relationship rows.

Ids are stable across runs and machines (hashes of content), so pushing the same results twice
changes nothing, and every response to the same query shares that query's context statements:

* query id = hash of the query text;
* a context statement's id = hash of (query id, source document, text) — the same background
  fact found again for another response merges into one node;
* a response statement's id = hash of (evaluation id, statement id).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from factgraph.graph import (
    analyze,
    basis_representatives,
    contradictions,
    reported_comprehensiveness,
)
from factgraph.models import Evaluation, Origin, RelationLabel, Statement


def _h(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:20]


def query_id(query: str) -> str:
    return "q-" + _h(query)


def context_statement_id(qid: str, source_id: str | None, text: str) -> str:
    return "s-" + _h(qid, source_id or "", text)


def response_id(ev: Evaluation) -> str:
    return "r-" + _h(ev.response_id or ev.id)


def statement_node_id(ev: Evaluation, qid: str, s: Statement) -> str:
    if s.origin is Origin.context:
        return context_statement_id(qid, s.source_id, s.text)
    return "s-" + _h("response", ev.id, s.id)


def _props(s: Statement) -> dict[str, Any]:
    """Flat property map: Cypher properties cannot hold maps, so metadata is JSON text."""
    return {
        "text": s.text,
        "origin": s.origin.value,
        "kind": s.kind.value,
        "source_id": s.source_id,
        "question_id": s.question_id,
        "relevance": s.relevance,
        "salience": s.salience,
        "confidence": s.confidence,
        "importance": s.importance,
    }


def evaluation_rows(ev: Evaluation) -> dict[str, list[dict[str, Any]]]:
    """Every node and relationship row one Evaluation contributes, keyed by writer step."""
    g = ev.graph
    qid = query_id(ev.query or g.query)
    rid = response_id(ev)
    ids = {s.id: statement_node_id(ev, qid, s) for s in g.statements}
    cov = analyze(g)
    docs = sorted({s.source_id or "" for s in g.statements if s.origin is Origin.context})
    rows: dict[str, list[dict[str, Any]]] = {
        "queries": [{"id": qid, "text": ev.query or g.query}],
        "documents": [{"id": f"{qid}:{d}", "query_id": qid, "source_id": d} for d in docs],
        "responses": [{"id": rid, "query_id": qid, "model": ev.model or "",
                       "response_id": ev.response_id or ev.id}],
        "evaluations": [{
            "id": ev.id, "response": rid, "props": {
                "method": ev.method, "model": ev.model or "", "query_id": qid,
                # The evaluation's own score when it has one, else the graph's S.
                "comprehensiveness": reported_comprehensiveness(ev.scores, cov),
                # response statements that contradict a background statement
                "contradicted": len(contradictions(g)),
                "scores": json.dumps(ev.scores, sort_keys=True),
                "json": ev.model_dump_json(),
                **{f"score_{k}": v for k, v in sorted(ev.scores.items()) if v is not None},
            },
        }],
        "context_statements": [], "response_statements": [],
        "entails": [], "contradicts": [], "covers": [], "misses": [],
    }
    context = Origin.context  # looked up once: enum attribute access is slow in a loop
    for s in g.statements:
        row = {"id": ids[s.id], "query_id": qid, "local_id": s.id, "props": _props(s)}
        if s.origin is context:
            row["document"] = f"{qid}:{s.source_id or ''}"
            rows["context_statements"].append(row)
        else:
            row["response"] = rid
            rows["response_statements"].append(row)
    entails, contradicts = RelationLabel.entails, RelationLabel.contradicts
    for r in g.relations:
        if r.label is not entails and r.label is not contradicts:
            continue
        key = "entails" if r.label is entails else "contradicts"
        rows[key].append({"src": ids[r.src], "dst": ids[r.dst], "probability": r.probability,
                          "method": r.method or ""})
    # One pass over statements with the engine's arrays (no per-component objects).
    a = cov.arrays
    component = a.component.tolist()
    covered, uncovered = a.is_covered.tolist(), a.is_uncovered.tolist()
    # The basis is one statement per basis component, its representative (as `analyze` lists
    # it); the other members of the component are missed, not in the basis. Rows are one per
    # database node: statements that merge into one node (same source and text) are in the
    # basis when any of them is.
    representatives = {ids[sid] for sid in basis_representatives(cov)}
    misses: dict[str, dict[str, Any]] = {}
    for position, s in enumerate(g.statements):
        c = component[position]
        if covered[c] and s.origin is context:
            # The engine's shortest explanation, stored so that `entailment_path` is a
            # lookup, not a variable-length path search (exponential on dense graphs).
            path = cov.explain(s.id) or []
            rows["covers"].append({"response": rid, "statement": ids[s.id], "evaluation": ev.id,
                                   "path": [ids[x] for x in path]})
        elif uncovered[c] and ids[s.id] not in misses:
            misses[ids[s.id]] = {"response": rid, "statement": ids[s.id], "evaluation": ev.id,
                                 "basis": ids[s.id] in representatives}
    rows["misses"] = list(misses.values())
    return rows
