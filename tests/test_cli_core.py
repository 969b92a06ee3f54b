"""The core CLI on the committed example: scores, basis export, explanations, clean errors."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from factgraph.cli.main import cli


def run(*args: str) -> tuple[int, str, str]:
    res = CliRunner().invoke(cli, list(args))
    return res.exit_code, res.stdout, res.stderr


def test_analyze_json_on_example(example_graph_path: Path) -> None:
    code, out, _ = run("analyze", str(example_graph_path), "--output", "json")
    assert code == 0
    data = json.loads(out)
    # 7 context components (c1a/c1d are one SCC; c2c shares one with response r2); 1 covered.
    assert data["n_covered"] == 1 and data["n_uncovered"] == 6
    assert abs(data["comprehensiveness"] - 1 / 7) < 1e-12
    assert {r["statement_id"] for r in data["basis"]} == {"c1a", "c1b", "c2a", "c2b", "c2d"}
    covered = data["covered"][0]
    assert covered["statement_id"] == "c2c" and set(covered["members"]) == {"r2", "c2c"}


def test_analyze_table_mentions_score_and_basis(example_graph_path: Path) -> None:
    code, out, _ = run("analyze", str(example_graph_path))
    assert code == 0
    assert "0.1429" in out and "[c2d]" in out


def test_basis_formats_agree(example_graph_path: Path) -> None:
    _, jl, _ = run("basis", str(example_graph_path), "--format", "jsonl")
    _, cs, _ = run("basis", str(example_graph_path), "--format", "csv")
    _, tx, _ = run("basis", str(example_graph_path), "--format", "txt")
    ids_jsonl = [json.loads(line)["statement_id"] for line in jl.splitlines()]
    rows = list(csv.DictReader(io.StringIO(cs)))
    assert ids_jsonl == [r["statement_id"] for r in rows]
    assert len(tx.splitlines()) == len(ids_jsonl) == 5


def test_explain_gives_shortest_path(example_graph_path: Path) -> None:
    code, out, _ = run("explain", str(example_graph_path), "c2c", "--output", "json")
    assert code == 0
    data = json.loads(out)
    assert [s["statement_id"] for s in data["path"]] == ["r2", "c2c"]
    code, out, _ = run("explain", str(example_graph_path), "c1c", "--output", "json")
    assert json.loads(out)["covered"] is False  # only a contradiction reaches it


def test_bad_file_one_line_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"query": "q", "statements": [
        {"id": "a", "text": "x", "origin": "elsewhere"}]}))
    code, _, err = run("analyze", str(bad))
    assert code == 2
    assert "statements.0.origin" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    dangling = tmp_path / "dangling.json"
    dangling.write_text(json.dumps({"query": "q", "statements": [
        {"id": "a", "text": "x", "origin": "context"}],
        "relations": [{"src": "a", "dst": "zz", "label": "entails"}]}))
    code, _, err = run("analyze", str(dangling))
    assert code == 2 and "relations.0.dst" in err and "'zz'" in err
    broken = tmp_path / "broken.json"
    broken.write_text('{"query": "q",\n "statements": [,]}')
    code, _, err = run("analyze", str(broken))
    assert code == 2 and "broken.json:2" in err


def test_schema_and_module_entry_point() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "factgraph", "schema"], capture_output=True, text=True, check=True
    )
    schema = json.loads(proc.stdout)
    assert "statements" in schema["properties"] and "Statement" in schema["$defs"]
