"""Issue 28 §6, export from the CLI: ``factgraph export RESULTS --level L --format F`` writes
the rows ``factgraph.to_frame(load_results(RESULTS), level=L)`` gives in Python."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from factgraph.cli.export import format_for
from factgraph.cli.main import cli
from factgraph.export.frames import to_frame
from factgraph.graph.results import load_evaluations

pd = pytest.importorskip("pandas")

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "examples" / "heber_results.jsonl"
GRAPH = REPO / "examples" / "wikicontradict_heber.json"


def run(*args: object) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])


def same(got: Any, expected: Any) -> None:
    """Equal after a CSV round trip of both (types as a reader of the file sees them)."""
    def norm(frame: Any) -> Any:
        return pd.read_csv(io.StringIO(frame.to_csv(index=False)))

    pd.testing.assert_frame_equal(norm(got), norm(expected), check_dtype=False)


@pytest.mark.parametrize("level", ["evaluation", "statement", "relation"])
def test_csv_export_is_to_frame(tmp_path: Path, level: str) -> None:
    out = tmp_path / f"{level}.csv"
    res = run("export", RESULTS, "--level", level, "-o", out)
    assert res.exit_code == 0, res.output
    expected = to_frame(load_evaluations(RESULTS), level=level)  # type: ignore[arg-type]
    assert json.loads(res.stdout) == {"export": str(out), "level": level, "format": "csv",
                                      "rows": len(expected)}
    same(pd.read_csv(out), expected)
    # stdout when no file is given, the same table
    same(pd.read_csv(io.StringIO(run("export", RESULTS, "--level", level).stdout)), expected)


@pytest.mark.parametrize("level", ["evaluation", "statement", "relation"])
def test_jsonl_export_is_to_frame(level: str) -> None:
    res = run("export", RESULTS, "--level", level, "--format", "jsonl")
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in res.stdout.splitlines()]
    expected = to_frame(load_evaluations(RESULTS), level=level)  # type: ignore[arg-type]
    same(pd.DataFrame(rows), expected)
    assert len(rows) == len(expected) > 0


def test_statement_export_marks_the_basis_and_status() -> None:
    rows = [json.loads(line) for line in
            run("export", RESULTS, "--level", "statement", "--format", "jsonl").stdout.splitlines()]
    other = [r for r in rows if r["evaluation_id"] == "ans-a"]
    assert {r["status"] for r in other} == {"response", "covered", "uncovered"}
    assert sum(r["basis"] for r in other) == int(to_frame(
        [e for e in load_evaluations(RESULTS) if e.id == "ans-a"], level="statement"
    )["basis"].sum())


def test_a_bare_graph_exports_with_its_computed_score(tmp_path: Path) -> None:
    graph = tmp_path / "lighthouse.json"
    shutil.copy(GRAPH, graph)
    res = run("export", graph, "--format", "jsonl")
    (row,) = [json.loads(line) for line in res.stdout.splitlines()]
    assert (row["id"], row["method"]) == ("lighthouse", "graph")
    assert row["comprehensiveness"] == pytest.approx(1 / 7)


def test_format_comes_from_the_suffix(tmp_path: Path) -> None:
    assert [format_for(p, None) for p in ("a.csv", "a.jsonl", "a.parquet", "a.PQ", "a.txt",
                                          None)] == ["csv", "jsonl", "parquet", "parquet",
                                                     "csv", "csv"]
    assert format_for("a.csv", "jsonl") == "jsonl"
    out = tmp_path / "rows.jsonl"
    assert run("export", RESULTS, "-o", out).exit_code == 0
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == \
        ["ans-a", "ans-b", "ans-c", "other"]


def test_parquet(tmp_path: Path) -> None:
    stdout = run("export", RESULTS, "--format", "parquet")
    assert stdout.exit_code == 2 and "give -o FILE" in stdout.output
    out = tmp_path / "rows.parquet"
    res = run("export", RESULTS, "--level", "statement", "-o", out)
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        assert res.exit_code == 2 and "pip install" in res.output and "pyarrow" in res.output
        assert not out.exists()
        return
    assert res.exit_code == 0, res.output
    same(pd.read_parquet(out), to_frame(load_evaluations(RESULTS), level="statement"))


def test_a_bad_results_file_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(RESULTS.read_text().splitlines()[0] + "\n{broken\n", encoding="utf-8")
    res = run("export", bad, "-o", tmp_path / "x.csv")
    assert res.exit_code == 2 and f"{bad}:2: invalid JSON" in res.output
    assert not (tmp_path / "x.csv").exists()  # nothing half-written
