"""Where the explorer reads evaluations from: a results file (in memory) or the fact database.

Both sources answer the same questions with the same models, so every page is drawn by one
code path. The database source runs only the fixed, parameterised, read-only Cypher below and
the named queries of ``cypher/queries`` (never text from a request).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from pydantic import BaseModel

from factgraph.graph import contradictions, reported_comprehensiveness
from factgraph.models import Evaluation
from factgraph.store.base import GraphStore
from factgraph.store.queries import NamedQuery, named_queries, query_values, stored_values
from factgraph.store.records import query_id
from factgraph.store.registry import store_names


class QuerySummary(BaseModel):
    id: str
    text: str
    responses: int
    models: list[str]


class EvaluationSummary(BaseModel):
    id: str
    model: str
    method: str
    query_id: str
    query: str
    response_id: str
    comprehensiveness: float | None
    # response statements that contradict a background statement; None when not known (an
    # evaluation pushed to the database before the count was stored)
    contradicted: int | None = None


class Keyed:
    """An evaluation and a fingerprint that changes whenever its stored content changes
    (pages drawn from it are cached under the fingerprint). From the database the JSON is
    parsed only when a page needs the evaluation itself, not when its page is cached."""

    def __init__(self, fingerprint: str, evaluation: Evaluation | None = None,
                 text: str | None = None) -> None:
        if evaluation is None and text is None:
            raise ValueError("Keyed needs an evaluation or its JSON text")
        self.fingerprint = fingerprint
        self._evaluation = evaluation
        self._text = text

    @property
    def evaluation(self) -> Evaluation:
        if self._evaluation is None:
            assert self._text is not None
            self._evaluation = Evaluation.model_validate_json(self._text)
            self._text = None
        return self._evaluation


class NamedQueryUnavailable(RuntimeError):
    """Named queries run against the fact database only."""


class Source(Protocol):
    label: str
    database: bool  # whether named queries can run

    def queries(self) -> list[QuerySummary]: ...

    def summaries(self, model: str | None = None) -> list[EvaluationSummary]: ...

    def evaluations_for(self, qid: str) -> list[Keyed]: ...

    def evaluation(self, evaluation_id: str) -> Keyed | None: ...

    def named_queries(self) -> dict[str, NamedQuery]: ...

    def run_named(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]: ...

    def stored_values(self, known: Mapping[str, str],
                      limit: int | None = None) -> dict[str, list[Any]]: ...


def _summary(ev: Evaluation) -> EvaluationSummary:
    query = ev.query or ev.graph.query
    return EvaluationSummary(id=ev.id, model=ev.model or "", method=ev.method,
                             query_id=query_id(query), query=query,
                             response_id=ev.response_id or ev.id,
                             comprehensiveness=reported_comprehensiveness(ev.scores, ev.graph),
                             contradicted=len(contradictions(ev.graph)))


class ResultsSource:
    """Evaluations from a results file, held in memory."""

    def __init__(self, evaluations: Sequence[Evaluation], label: str = "results") -> None:
        self.label = label
        self.database = False
        self._by_id = {ev.id: ev for ev in evaluations}
        self._by_query: dict[str, list[Evaluation]] = defaultdict(list)
        self._summaries = [_summary(ev) for ev in evaluations]
        for ev, s in zip(evaluations, self._summaries, strict=True):
            self._by_query[s.query_id].append(ev)

    def queries(self) -> list[QuerySummary]:
        out = []
        for qid, evs in self._by_query.items():
            out.append(QuerySummary(id=qid, text=evs[0].query or evs[0].graph.query,
                                    responses=len({e.response_id or e.id for e in evs}),
                                    models=sorted({e.model or "" for e in evs})))
        return sorted(out, key=lambda q: (q.text, q.id))

    def summaries(self, model: str | None = None) -> list[EvaluationSummary]:
        return [s for s in self._summaries if model is None or s.model == model]

    def evaluations_for(self, qid: str) -> list[Keyed]:
        return [Keyed(f"file:{ev.id}", evaluation=ev) for ev in self._by_query.get(qid, [])]

    def evaluation(self, evaluation_id: str) -> Keyed | None:
        ev = self._by_id.get(evaluation_id)
        return None if ev is None else Keyed(f"file:{ev.id}", evaluation=ev)

    def named_queries(self) -> dict[str, NamedQuery]:
        return named_queries()

    def run_named(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        raise NamedQueryUnavailable(
            "named queries run against the fact database: push the results "
            f"(factgraph db push) and start factgraph explore --store {'|'.join(store_names())}")

    def stored_values(self, known: Mapping[str, str],
                      limit: int | None = None) -> dict[str, list[Any]]:
        """Nothing is stored in a database here (named queries do not run over a file)."""
        return {}


# The database source's own reads: fixed text, values only as parameters.
QUERIES_CYPHER = (
    "MATCH (q:Query) OPTIONAL MATCH (q)-[:HAS_RESPONSE]->(r:Response) "
    "RETURN q.id AS id, q.text AS text, count(r) AS responses, "
    "collect(DISTINCT r.model) AS models ORDER BY text, id")
SUMMARIES_CYPHER = (
    "MATCH (e:Evaluation)-[:EVALUATES]->(r:Response) "
    "WHERE $model IS NULL OR r.model = $model "
    "MATCH (q:Query {id: r.query_id}) "
    "RETURN e.id AS id, r.model AS model, e.method AS method, q.id AS query_id, "
    "q.text AS query, r.response_id AS response_id, e.comprehensiveness AS comprehensiveness, "
    "e.contradicted AS contradicted "
    "ORDER BY query, model, id")
EVALUATIONS_FOR_CYPHER = (
    "MATCH (:Query {id: $qid})-[:HAS_RESPONSE]->(:Response)<-[:EVALUATES]-(e:Evaluation) "
    "RETURN e.json AS json ORDER BY e.id")
EVALUATION_CYPHER = "MATCH (e:Evaluation {id: $id}) RETURN e.json AS json"


class StoreSource:
    """Evaluations in the fact database (FalkorDB or Neo4j), read-only."""

    def __init__(self, store: GraphStore, label: str | None = None) -> None:
        self.store = store
        self.label = label or store.backend
        self.database = True

    @staticmethod
    def _keyed(text: str) -> Keyed:
        """The stored JSON, fingerprinted by its digest. Parsed Evaluations are not kept:
        hundreds of thousands of live objects make every full garbage collection slow
        (measured: +100-250 ms on some pages); the app caches drawn pages, plain strings."""
        return Keyed("db:" + hashlib.sha256(text.encode("utf-8")).hexdigest(), text=text)

    def queries(self) -> list[QuerySummary]:
        rows = self.store.run(QUERIES_CYPHER)
        return [QuerySummary(id=r["id"], text=r["text"] or "", responses=r["responses"],
                             models=sorted(m or "" for m in r["models"] or [])) for r in rows]

    def summaries(self, model: str | None = None) -> list[EvaluationSummary]:
        rows = self.store.run(SUMMARIES_CYPHER, {"model": model})
        return [EvaluationSummary(**{**r, "model": r["model"] or "", "query": r["query"] or ""})
                for r in rows]

    def evaluations_for(self, qid: str) -> list[Keyed]:
        rows = self.store.run(EVALUATIONS_FOR_CYPHER, {"qid": qid})
        return [self._keyed(r["json"]) for r in rows]

    def evaluation(self, evaluation_id: str) -> Keyed | None:
        rows = self.store.run(EVALUATION_CYPHER, {"id": evaluation_id})
        return self._keyed(rows[0]["json"]) if rows else None

    def named_queries(self) -> dict[str, NamedQuery]:
        return named_queries()

    def run_named(self, name: str, params: Mapping[str, Any]) -> list[dict[str, Any]]:
        """A named query by name, read-only; only its declared parameters are passed."""
        q = named_queries()[name]  # KeyError: not a named query
        return list(self.store.run(q.cypher, query_values(q, params), write=False))

    def stored_values(self, known: Mapping[str, str],
                      limit: int | None = None) -> dict[str, list[Any]]:
        """Per key of ``known`` (a named query's ``known`` header: parameter -> its fixed
        read-only query), the values the database holds; at most ``limit`` each."""
        return stored_values(lambda cypher, params: self.store.run(cypher, params, write=False),
                             known, limit)
