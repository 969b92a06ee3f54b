"""Named judges come from the ``factgraph.judges`` entry-point group too (issue 34, item 5): an
installed package's judge is listed by ``factgraph judges`` and runs with ``--judge NAME``; from
Python, :func:`register_judge` adds one and a taken name is refused."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from factgraph.methods.judges import (
    BUILTIN_JUDGES,
    JUDGES,
    NamedJudge,
    get_judge,
    register_judge,
    unregister_judge,
)
from factgraph.models import Evaluation

REPO = Path(__file__).resolve().parent.parent

PLUGIN = '''
from factgraph.methods.judges import NamedJudge

STRICT = NamedJudge(
    name="e2e-evidence-strict", method="e2e",
    options={"coverage_judge": "evidence", "coverage_cutoff": 0.9},
    needs_model=False, inputs="long-form",
    description="The evidence judge with a strict cut-off.")
'''


def _install(folder: Path) -> Path:
    """A package ``strict_judge`` with the dist-info pip would write, declaring one judge."""
    (folder / "strict_judge.py").write_text(PLUGIN, encoding="utf-8")
    dist = folder / "strict_judge-0.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: strict-judge\nVersion: 0.1.0\n",
                                   encoding="utf-8")
    (dist / "entry_points.txt").write_text(
        "[factgraph.judges]\ne2e-evidence-strict = strict_judge:STRICT\n", encoding="utf-8")
    return folder


def _factgraph(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)])}
    return subprocess.run([sys.executable, "-m", "factgraph", *args], env=env, cwd=folder,
                          capture_output=True, text=True, timeout=120)


def test_an_installed_judge_is_listed_and_runs(tmp_path: Path) -> None:
    folder = _install(tmp_path)
    listed = _factgraph(folder, "judges", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    names = [row["name"] for row in json.loads(listed.stdout)]
    assert names == [*(j.name for j in BUILTIN_JUDGES), "e2e-evidence-strict"]

    (folder / "answer.txt").write_text("Mara Voss was born in Bergen in 1901.", encoding="utf-8")
    (folder / "reference.txt").write_text("Mara Voss was born in Bergen. She was a painter.",
                                          encoding="utf-8")
    ran = _factgraph(folder, "evaluate", "--judge", "e2e-evidence-strict",
                     "--query", "Who was Mara Voss?", "--response", "answer.txt",
                     "--context", "reference.txt", "--no-cache", "--out", "ev.json")
    assert ran.returncode == 0, ran.stderr
    ev = Evaluation.model_validate_json((folder / "ev.json").read_text(encoding="utf-8"))
    assert ev.method == "e2e"
    assert ev.parameters["coverage_judge"] == "evidence"
    assert ev.parameters["coverage_cutoff"] == 0.9


def test_a_judge_registered_from_python_is_found_and_a_taken_name_refused() -> None:
    toy = NamedJudge(name="toy-judge", method="nli", inputs="short answer",
                     description="A toy.")
    register_judge(toy)
    try:
        assert get_judge("toy-judge") is toy and list(JUDGES)[-1] == "toy-judge"
        with pytest.raises(ValueError, match="a judge named 'toy-judge' is already registered"):
            register_judge(toy.model_copy(update={"description": "another"}))
    finally:
        unregister_judge("toy-judge")
    assert "toy-judge" not in JUDGES
    with pytest.raises(ValueError, match="unknown judge 'toy-judge'"):
        get_judge("toy-judge")


def test_a_cards_note_is_shown_beside_its_agreement() -> None:
    """`factgraph judges` must not show an in-sample number bare: the cascade's card says its
    rows are in-sample for the fitted model combination, and the listing carries that."""
    from click.testing import CliRunner

    from factgraph.cli.main import cli

    res = CliRunner().invoke(cli, ["judges", "--format", "json"])
    assert res.exit_code == 0, res.output
    listed = {j["name"]: j for j in json.loads(res.output)}
    measured = listed["e2e-evidence-cascade"]["measured"]
    assert measured and "in-sample" in measured[0]["note"]
    table = CliRunner().invoke(cli, ["judges"]).output
    assert "in-sample" in " ".join(table.split())
