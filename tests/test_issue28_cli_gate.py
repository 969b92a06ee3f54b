"""Issue 28 §6, a gate for CI: ``factgraph evaluate | batch --fail-under S`` exits 1 listing
the ids below S, and ``factgraph.testing.assert_comprehensive`` fails a test with the basis
facts the answer misses. The commands run for real against a scripted OpenAI-compatible
server (tests.fake_openai); ``evaluate | batch`` keep their old ``--output table|json``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from factgraph.cli.main import cli
from factgraph.graph import analyze
from factgraph.graph.results import load_evaluations, load_graph
from factgraph.io import read_jsonl
from factgraph.models import Evaluation, FactGraph, Origin, Statement
from factgraph.testing import assert_comprehensive, gate_failures, main_score
from tests.fake_openai import serve
from tests.pipeline_support import PromptRouter
from tests.test_cli_pipelines import e2e_by_marker

REPO = Path(__file__).resolve().parents[1]
GRAPH = REPO / "examples" / "wikicontradict_heber.json"
RESULTS = REPO / "examples" / "heber_results.jsonl"
DOCS = [{"id": "d1", "text": "first text"}, {"id": "d2", "text": "second text"}]


def run(*args: object) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])


def write_inputs(path: Path, markers: list[str]) -> Path:
    """Inputs whose scripted e2e judge gives S = 1 (BOTH), 0.5 (ONE) or 0 (NONE)."""
    lines = [{"id": f"q{i}", "query": "q?", "response": f"answer {m}", "documents": DOCS}
             for i, m in enumerate(markers)]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    return path


def test_batch_fail_under_exits_1_listing_the_ids_below(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    inputs = write_inputs(tmp_path / "inputs.jsonl", ["BOTH", "ONE", "NONE"])
    with serve(PromptRouter({"e2e": e2e_by_marker})) as (url, _):
        common = ["--method", "e2e", "--set", "coverage_judge=list", "--model", f"openai:m@{url}",
                  "--no-cache"]
        res = run("batch", inputs, "-o", tmp_path / "r.jsonl", *common, "--fail-under", "0.6")
        assert res.exit_code == 1, res.output
        assert ("--fail-under 0.6: 2 of 3 evaluation(s) below or undefined: "
                "q1 (comprehensiveness 0.5000), q2 (comprehensiveness 0.0000)") in res.output
        assert "q0 (" not in res.output
        # every result is still written: the gate judges, it does not drop
        assert [ev.id for _, ev in read_jsonl(tmp_path / "r.jsonl", Evaluation)] == \
            ["q0", "q1", "q2"]
        # a gate every score clears passes; --format json carries its record
        res = run("batch", inputs, "--output", tmp_path / "r2.jsonl", *common,
                  "--fail-under", "0", "--format", "json")
        assert res.exit_code == 0, res.output
        assert json.loads(res.stdout)["gate"] == {"fail_under": 0.0, "checked": 3,
                                                  "passed": True, "failed": []}
        # the old spelling of the format still works beside -o FILE
        res = run("batch", inputs, "-o", tmp_path / "r3.jsonl", *common, "--output", "json",
                  "--fail-under", "0.75")
        assert res.exit_code == 1
        assert [f["id"] for f in json.loads(res.stdout)["gate"]["failed"]] == ["q1", "q2"]
        # --resume: the gate covers the inputs already done as well
        res = run("batch", inputs, "-o", tmp_path / "r.jsonl", *common, "--resume",
                  "--fail-under", "0.25", "--format", "json")
        assert res.exit_code == 1
        gate = json.loads(res.stdout)["gate"]
        assert (gate["checked"], [f["id"] for f in gate["failed"]]) == (3, ["q2"])
        unknown = run("batch", inputs, "-o", tmp_path / "r.jsonl", *common, "--resume",
                      "--fail-under", "0.5", "--fail-score", "icat")
        assert unknown.exit_code == 2 and "--fail-score icat: no such score" in unknown.output
    missing = run("batch", inputs, "--method", "e2e")
    assert missing.exit_code == 2 and "Missing option '-o' / '--output'" in missing.output


def test_evaluate_fail_under_names_the_missing_facts(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    response = tmp_path / "answer.txt"
    response.write_text("answer ONE", encoding="utf-8")
    docs = []
    for d in DOCS:
        (tmp_path / f"{d['id']}.txt").write_text(d["text"], encoding="utf-8")
        docs += ["--context", tmp_path / f"{d['id']}.txt"]
    with serve(PromptRouter({"e2e": e2e_by_marker})) as (url, _):
        args = ["evaluate", "--method", "e2e", "--set", "coverage_judge=list", "--model",
                f"openai:m@{url}", "--no-cache",
                "--query", "q?", "--response", response, *docs]
        res = run(*args, "-o", tmp_path / "run.json", "--fail-under", "0.9")
        assert res.exit_code == 1, res.output
        assert "--fail-under 0.9: comprehensiveness 0.5000 < 0.9 for 'input'" in res.output
        assert "the answer misses 1 basis fact(s), the fewest to add:" in res.output
        ev = Evaluation.model_validate_json((tmp_path / "run.json").read_text())
        (basis,) = analyze(ev.graph).basis()
        assert f"[{basis.representative}] {basis.text}" in res.output
        ok = run(*args, "--output", tmp_path / "ok.json", "--format", "json",
                 "--fail-under", "0.5")
        assert ok.exit_code == 0, ok.output
        assert json.loads(ok.stdout)["gate"]["passed"] is True
        assert (tmp_path / "ok.json").exists()


def test_assert_comprehensive_lists_the_basis_facts() -> None:
    graph = load_graph(GRAPH)
    with pytest.raises(AssertionError) as err:
        assert_comprehensive(graph, 0.5)
    message = str(err.value)
    assert message.startswith("comprehensiveness 0.1429 < 0.5 (1 covered / 7 context "
                              "components)")
    assert analyze(graph).basis()
    for comp in analyze(graph).basis():
        assert f"[{comp.representative}] {comp.text}" in message
    assert "the answer misses 5 basis fact(s)" in message
    assert "[r1] Bishop Heber did not meet D'Oyly in Patna in the 1840s. — contradicts [c1c]" \
        in message
    assert_comprehensive(graph, 0.14)  # at or above the minimum: passes


def test_assert_comprehensive_over_results_names_each_failure() -> None:
    evaluations = load_evaluations(RESULTS)
    with pytest.raises(AssertionError) as err:
        assert_comprehensive(evaluations, 0.2)
    message = str(err.value)
    assert message.splitlines()[0] == "2 of 4 evaluation(s) below 0.2:"
    assert "for 'ans-b'" in message and "for 'other'" in message
    assert "for 'ans-a'" not in message
    assert_comprehensive([e for e in evaluations if e.id in ("ans-a", "ans-c")], 0.2)


def test_an_undefined_score_fails_the_gate() -> None:
    only_response = FactGraph(statements=[Statement(id="r1", text="x", origin=Origin.response)])
    ev = Evaluation(id="e", method="nli", graph=only_response,
                    scores={"comprehensiveness": None})
    (failure,) = gate_failures([ev], 0.0)
    assert (failure.id, failure.value, failure.describe()) == \
        ("e", None, "e (comprehensiveness undefined)")
    with pytest.raises(AssertionError, match="comprehensiveness undefined < 0"):
        assert_comprehensive(ev, 0.0)


def test_each_method_is_gated_on_its_main_score() -> None:
    assert [main_score(m) for m in ("nli", "e2e", "icat-s", "prf", "argue", "graph")] == \
        ["comprehensiveness", "comprehensiveness", "icat", "f1", "recall", "comprehensiveness"]
    icat = Evaluation(id="i", method="icat-s", scores={"icat": 0.4, "s_fact": 0.9})
    assert [f.describe() for f in gate_failures([icat], 0.5)] == ["i (icat 0.4000)"]
    assert gate_failures([icat], 0.5, score="s_fact") == []
