"""Issue 28 §4, one CLI grammar: ``-o/--output`` is a file and ``--format`` a format in every
command (the old ``-o FORMAT`` still works, with one deprecation warning); every reader of one
graph says the same about a results file holding several; bare graphs are read wherever
Evaluations are; ``validate`` lists every error of an object."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from factgraph.cli.main import cli
from factgraph.cli.output import resolve_output
from factgraph.graph import analyze
from factgraph.graph.results import load_evaluations, load_graph

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "examples" / "heber_results.jsonl"
GRAPH = REPO / "examples" / "wikicontradict_heber.json"


def run(*args: object) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])


def deprecations(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "deprecated" in r.getMessage()]


def test_resolve_output_reads_files_formats_and_conflicts() -> None:
    formats = ("table", "json")
    assert resolve_output((), None, formats, "table").file is None
    got = resolve_output(("json", "out/a.json"), None, formats, "table")
    assert (got.file, got.format, got.deprecated) == ("out/a.json", "json", ("json",))
    got = resolve_output(("out/a.json",), "json", formats, "table")
    assert (got.file, got.format, got.deprecated) == ("out/a.json", "json", ())
    with pytest.raises(Exception, match="two formats"):
        resolve_output(("table",), "json", formats, "table")
    with pytest.raises(Exception, match="two files"):
        resolve_output(("a.txt", "b.txt"), None, formats, "table")


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_analyze_writes_a_file_with_o(tmp_path: Path, fmt: str,
                                      caplog: pytest.LogCaptureFixture) -> None:
    out = tmp_path / "out" / f"a.{fmt}"
    res = run("analyze", GRAPH, "-o", out, "--format", fmt)
    assert res.exit_code == 0, res.output
    assert res.output == "" and deprecations(caplog) == []
    text = out.read_text(encoding="utf-8")
    if fmt == "json":
        assert json.loads(text)["n_basis"] == 5
    else:
        assert "Comprehensiveness S = 0.1429" in text and "\x1b[" not in text
        assert "[c2d] Charles D'Oyly retired and left India in 1838." in text


@pytest.mark.parametrize("spelling", ["-o", "--output"])
def test_the_old_format_spelling_still_works_with_one_warning(
        spelling: str, caplog: pytest.LogCaptureFixture) -> None:
    for command in (["analyze", GRAPH], ["explain", GRAPH, "c2c"]):
        caplog.clear()
        res = run(*command, spelling, "json")
        assert res.exit_code == 0, res.output
        assert json.loads(res.stdout)  # still the JSON format, on stdout
        assert deprecations(caplog) == ["-o/--output json is deprecated; use --format json"]
        assert all(r.levelno == logging.WARNING for r in caplog.records
                   if "deprecated" in r.getMessage())
    new = run("analyze", GRAPH, "--format", "json")
    old = run("analyze", GRAPH, "-o", "json")
    assert new.stdout == old.stdout


def test_two_formats_are_a_usage_error() -> None:
    res = run("analyze", GRAPH, "-o", "table", "--format", "json")
    assert res.exit_code == 2 and "two formats given: json and table" in res.output


def test_explain_and_validate_write_files(tmp_path: Path) -> None:
    res = run("explain", GRAPH, "c2c", "--format", "json", "-o", tmp_path / "e.json")
    assert res.exit_code == 0 and res.output == ""
    assert json.loads((tmp_path / "e.json").read_text())["covered"] is True
    res = run("validate", GRAPH, "--output", tmp_path / "v.json", "--format", "json")
    assert res.exit_code == 0 and res.output == ""
    assert json.loads((tmp_path / "v.json").read_text())["valid"] == 1
    res = run("validate", GRAPH, "-o", tmp_path / "v.txt")
    assert (tmp_path / "v.txt").read_text().startswith(f"{GRAPH}: OK (1 graph object)")


def test_basis_writes_a_file_and_documents_its_formats(tmp_path: Path) -> None:
    out = tmp_path / "basis.txt"
    res = run("basis", GRAPH, "--format", "txt", "-o", out)
    assert res.exit_code == 0 and res.output == ""
    expected = [c.text for c in analyze(load_graph(GRAPH)).basis()]
    assert out.read_text(encoding="utf-8").splitlines() == expected
    assert run("basis", GRAPH, "--format", "txt").stdout.splitlines() == expected
    help_text = " ".join(run("basis", "--help").output.split())
    assert "txt: one fact's text per line" in help_text and "-o, --output FILE" in help_text


def test_every_command_documents_o_as_a_file() -> None:
    for command in (["analyze"], ["explain"], ["validate"], ["basis"], ["view"], ["report"],
                    ["evaluate"], ["batch"], ["export"], ["cache", "stats"],
                    ["index", "build"], ["index", "info"], ["judges"],
                    ["meta-eval", "pairwise"], ["meta-eval", "wikicontradict"],
                    ["meta-eval", "judgements"], ["db", "query"], ["db", "queries"],
                    ["db", "cypher"]):
        help_text = " ".join(run(*command, "--help").output.split())
        assert "-o, --output" in help_text and "FILE" in help_text, command
        if command[0] not in ("view", "report", "basis", "export"):
            assert "--format [table|json]" in help_text, command


def test_every_reader_of_one_graph_says_the_same_about_several(tmp_path: Path) -> None:
    expected = (f"{RESULTS} holds 4 evaluations: choose one with --id (ans-a, ans-b, ans-c, "
                "other)")
    for command in (["analyze", RESULTS], ["basis", RESULTS], ["explain", RESULTS, "c1a"],
                    ["view", RESULTS, "-o", tmp_path / "v.html"]):
        res = run(*command)
        assert res.exit_code == 2, command
        assert expected in res.output and "invalid JSON" not in res.output, command
    assert not (tmp_path / "v.html").exists()


def test_id_picks_one_evaluation_of_a_results_file(tmp_path: Path) -> None:
    ev = next(e for e in load_evaluations(RESULTS) if e.id == "ans-b")
    single = tmp_path / "ans-b.json"
    single.write_text(ev.model_dump_json(), encoding="utf-8")
    for command in (["analyze", "--format", "json"], ["basis", "--format", "jsonl"]):
        from_results = run(*command, RESULTS, "--id", "ans-b")
        from_file = run(*command, single)
        assert from_results.exit_code == 0, from_results.output
        assert from_results.stdout == from_file.stdout
    assert json.loads(run("analyze", RESULTS, "--id", "ans-b", "--format", "json").stdout)[
        "n_covered"] == analyze(ev.graph).n_covered
    missing = run("analyze", RESULTS, "--id", "nope")
    assert missing.exit_code == 2 and "no evaluation with id 'nope'" in missing.output
    res = run("view", RESULTS, "--id", "ans-b", "--output", tmp_path / "v.html")
    assert res.exit_code == 0 and json.loads(res.stdout)["statements"] == len(
        ev.graph.statements)


def test_a_bare_graph_is_read_wherever_evaluations_are(tmp_path: Path) -> None:
    graph = tmp_path / "lighthouse.json"
    shutil.copy(GRAPH, graph)
    (ev,) = load_evaluations(graph)  # what report, explore and db push read
    expected_s = analyze(load_graph(GRAPH)).score
    assert (ev.id, ev.method, ev.scores) == ("lighthouse", "graph",
                                             {"comprehensiveness": expected_s})
    res = run("report", graph, "-o", tmp_path / "report.html")
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == {"report": str(tmp_path / "report.html"),
                                      "evaluations": 1, "views": 1}
    assert "lighthouse" in (tmp_path / "report.html").read_text(encoding="utf-8")
    # several bare graphs, one a line: ids name the file and the line
    line = json.dumps(json.loads(GRAPH.read_text(encoding="utf-8")))
    many = tmp_path / "graphs.jsonl"
    many.write_text(f"{line}\n{line}\n", encoding="utf-8")
    assert [e.id for e in load_evaluations(many)] == ["graphs-1", "graphs-2"]
    res = run("report", many, "-o", tmp_path / "many.html", "--no-views")
    assert res.exit_code == 0 and json.loads(res.stdout)["evaluations"] == 2
    res = run("analyze", many, "--id", "graphs-2", "--format", "json")
    assert json.loads(res.stdout)["comprehensiveness"] == expected_s


def test_explore_reads_a_bare_graph(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from factgraph.explore.app import create_app
    from factgraph.explore.sources import ResultsSource

    graph = tmp_path / "lighthouse.json"
    shutil.copy(GRAPH, graph)
    app = create_app(ResultsSource(load_evaluations(graph), label=str(graph)))
    page = TestClient(app, base_url="http://127.0.0.1").get("/")
    assert page.status_code == 200, page.text[:300]
    assert "lighthouse" in page.text or "Did Bishop Heber" in page.text


def test_validate_lists_every_error_with_the_unknown_key(tmp_path: Path) -> None:
    data = json.loads(GRAPH.read_text(encoding="utf-8"))
    data["statements"][0]["txt"] = data["statements"][0].pop("text")
    bad = tmp_path / "typo.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    res = run("validate", bad, "--format", "json")
    assert res.exit_code == 2
    report = json.loads(res.stdout)
    assert report["errors"] == [f"{bad}: statements.0.text: Field required",
                                f"{bad}: statements.0.txt: unknown key (did you mean 'text'?)"]
    assert report["valid"] == 0
    table = run("validate", bad)
    assert "2 error(s)" in table.output and "unknown key (did you mean 'text'?)" in table.output
    # an inputs JSONL: every error of every line, with its line number
    lines = [{"id": "a", "query": "q", "response": "r", "documents": [{"id": "d", "txt": "x"}]},
             {"id": "b", "query": "q", "respons": "r"}]
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    errors = json.loads(run("validate", inputs, "--format", "json").stdout)["errors"]
    assert errors == [f"{inputs}:1: documents.0.text: Field required",
                      f"{inputs}:1: documents.0.txt: unknown key (did you mean 'text'?)",
                      f"{inputs}:2: response: Field required",
                      f"{inputs}:2: respons: unknown key (did you mean 'response'?)"]


def test_the_store_default_reads_plainly() -> None:
    help_text = " ".join(run("db", "push", "--help").output.split())
    assert "[default: falkordb, or $FACTGRAPH_STORE]" in help_text
    assert "(falkordb (or" not in help_text


def test_meta_eval_and_db_write_json_files_with_o(tmp_path: Path) -> None:
    out = tmp_path / "j.json"
    res = run("judges", "--format", "json", "-o", out)
    assert res.exit_code == 0, res.output
    assert json.loads(out.read_text(encoding="utf-8"))[0]["name"]
    res = run("db", "queries", "--format", "json", "-o", tmp_path / "q.json")
    assert res.exit_code == 0, res.output
    names = [q["name"] for q in json.loads((tmp_path / "q.json").read_text(encoding="utf-8"))]
    assert "coverage_leaderboard" in names
