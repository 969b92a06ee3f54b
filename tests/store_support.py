"""Shared pieces of the database tests: a real FalkorDB server and sample evaluations."""

from __future__ import annotations

import time
from typing import Any

import pytest

from examples.heber_results import heber_evaluations
from factgraph.graph import analyze
from factgraph.models import Evaluation
from factgraph.store import push_evaluations
from factgraph.store.queries import get_query
from factgraph.store.records import context_statement_id, query_id


def sample_evaluations() -> list[Evaluation]:
    return heber_evaluations()


def q(store: Any, name: str, **params: Any) -> list[dict[str, Any]]:
    return list(store.run(get_query(name).cypher, params))


def check_named_queries(store: Any) -> None:
    """Push the samples and check every named query against the engine's own answers."""
    evs = sample_evaluations()
    push_evaluations(store, evs)
    by_id = {e.id: e for e in evs}

    # basis_for_response == the engine's basis (representatives' texts) for each response:
    # one statement per basis component, the representative (issue 28)
    for eid in ("ans-a", "ans-b", "ans-c"):
        cov = analyze(by_id[eid].graph)
        expected = sorted(c.text for c in cov.basis())
        got = sorted(r["text"] for r in q(store, "basis_for_response", response_id=eid))
        assert got == expected, eid

    # missed_by_all_responses: uncovered in all three evaluations of the shared query
    uncovered = [
        {by_id[e].graph.statement(m).text for c in analyze(by_id[e].graph).uncovered()
         for m in c.members} for e in ("ans-a", "ans-b", "ans-c")]
    expected_all = sorted(set.intersection(*uncovered))
    got_all = sorted(r["text"] for r in q(store, "missed_by_all_responses", query=evs[0].query))
    assert got_all == expected_all and got_all

    # coverage_leaderboard: mean S per model
    board = q(store, "coverage_leaderboard", method=None)
    means: dict[str, list[float]] = {}
    for e in evs:
        means.setdefault(e.model or "", []).append(e.scores["comprehensiveness"] or 0.0)
    assert {r["model"]: pytest.approx(r["mean_comprehensiveness"]) for r in board} == {
        m: pytest.approx(sum(v) / len(v)) for m, v in means.items()}
    assert board[0]["mean_comprehensiveness"] >= board[-1]["mean_comprehensiveness"]

    # covered_by_a_not_b: covered by some model-a response, missed by a model-b response
    cov_a = {by_id[e].graph.statement(m).text for e in ("ans-a", "ans-c")
             for c in analyze(by_id[e].graph).covered() for m in c.members
             if by_id[e].graph.statement(m).origin.value == "context"}
    miss_b = {by_id["ans-b"].graph.statement(m).text
              for c in analyze(by_id["ans-b"].graph).uncovered() for m in c.members}
    got_ab = {r["text"] for r in q(store, "covered_by_a_not_b", model_a="model-a",
                                   model_b="model-b")}
    assert got_ab == cov_a & miss_b and got_ab

    # contradiction_hotspots: c1c is contradicted by two responses
    hot = q(store, "contradiction_hotspots", limit=1)
    assert hot[0]["text"] == "Bishop Heber met Charles D'Oyly." and hot[0]["contradictions"] == 2

    # statement_neighbourhood within 1 and 2 hops of c2c
    qid = query_id(evs[0].query)
    c2c = context_statement_id(qid, "context2", "Charles D'Oyly left India in 1838.")
    one = q(store, "statement_neighbourhood", statement_id=c2c, k=1)
    two = q(store, "statement_neighbourhood", statement_id=c2c, k=2)
    assert {r["hops"] for r in one} == {1} and len(two) > len(one)
    assert "Charles D'Oyly retired and left India in 1838." in {r["text"] for r in one}

    # entailment_path from response ans-a to c2c: r1 -> c2c
    path = q(store, "entailment_path", response_id="ans-a", statement_id=c2c)
    assert path[0]["texts"] == ["D'Oyly left India in 1838.", "Charles D'Oyly left India in 1838."]
    assert path[0]["steps"] == 1


def connected_bolt_store(port: int, timeout_s: float = 10.0) -> Any:
    """A Neo4jStore on FalkorDB's Bolt endpoint at ``port`` once it answers (it listens a
    moment after the server starts). Keep the one driver: the endpoint mishandles reconnects."""
    from factgraph.store.neo4j_store import Neo4jStore

    deadline = time.monotonic() + timeout_s
    store = Neo4jStore(f"bolt://127.0.0.1:{port}", "neo4j", None)
    while True:
        try:
            store.run("RETURN 1 AS one")
            return store
        except Exception:
            if time.monotonic() > deadline:
                store.close()
                raise
            time.sleep(0.1)
