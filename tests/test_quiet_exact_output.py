"""Issue 35 §4, quiet and exact output: no library warnings or progress bars on stderr without
``-v``; counts print as integers and the view lists every score once; the failures file is
named only when it exists; progress on stderr (never stdout) for the long commands; "did you
mean" for a misspelt ``--set`` name; ``db push`` prints a line of text unless ``--format
json``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from factgraph.cli.main import cli
from factgraph.graph.results import load_evaluations
from factgraph.inputs import EvaluationInput
from factgraph.models import Evaluation

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "examples" / "heber_results.jsonl"


def run(*args: object, **kw: Any) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args], **kw)


def factgraph(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-m", "factgraph", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=120, env=env)


def _small_pairwise_file(path: Path) -> Path:
    """Three instances, one annotator: too few for a BCa interval (scipy warns)."""
    rows = [{"instance_id": i, "query": "q?", "gt_answer": "the reference answer about cats",
             "model1": {"model_name": "a", "response": "one cats answer " * (i + 1)},
             "model2": {"model_name": "b", "response": "two"},
             "human": [{"correctness_label": 0, "completeness_label": 1, "overall_label": 2}]}
            for i in range(3)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_library_warnings_show_only_with_verbose(tmp_path: Path) -> None:
    data = _small_pairwise_file(tmp_path / "p.jsonl")
    quiet = factgraph("meta-eval", "pairwise", str(data), "--resamples", "50", cwd=tmp_path)
    assert quiet.returncode == 0, quiet.stderr
    assert quiet.stderr == ""
    loud = factgraph("-v", "meta-eval", "pairwise", str(data), "--resamples", "50",
                     cwd=tmp_path)
    assert "DegenerateDataWarning" in loud.stderr


LOADING_BAR = """
from click.testing import CliRunner
from factgraph.cli.main import cli
CliRunner().invoke(cli, ARGS + ["schema"])
from transformers.utils import logging
for _ in logging.tqdm(range(3), desc="Loading weights"):
    pass
logging.get_logger("transformers.modeling_utils").warning("a library warning")
"""


@pytest.mark.parametrize("verbose", [False, True])
def test_transformers_loading_bar_only_with_verbose(tmp_path: Path, verbose: bool) -> None:
    pytest.importorskip("transformers", reason="transformers is not installed")
    script = LOADING_BAR.replace("ARGS", '["-v"]' if verbose else "[]")
    from factgraph.cli.quiet import QUIET_ENVIRONMENT

    env = {**os.environ, "PYTHONPATH": str(REPO)}
    for name in QUIET_ENVIRONMENT:  # an in-process CLI run of another test may have set them
        env.pop(name, None)
    out = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, text=True,
                         capture_output=True, timeout=120, env=env)
    assert out.returncode == 0, out.stderr
    assert ("Loading weights" in out.stderr) is verbose
    assert ("a library warning" in out.stderr) is verbose


def test_counts_print_as_integers(capsys: pytest.CaptureFixture[str]) -> None:
    from factgraph.cli.evaluate import _print_scores
    from factgraph.cli.output import format_score

    assert format_score("n_covered", 15.0) == "15"
    assert format_score("comprehensiveness", 1.0) == "1.0000"
    assert format_score("comprehensiveness", None) == "undefined"
    ev = load_evaluations(str(RESULTS))[0]
    ev.scores.update({"n_covered": 15.0, "n_uncovered": 3.0})
    _print_scores(ev, None)
    out = capsys.readouterr().out
    assert "n_covered: 15\n" in out and "n_uncovered: 3\n" in out
    assert "15.0000" not in out


def test_the_view_lists_every_score_once() -> None:
    from factgraph.graph import analyze
    from factgraph.methods.assemble import comprehensiveness_scores
    from factgraph.viz.view import view_data

    ev = load_evaluations(str(RESULTS))[0]
    ev.scores.update(comprehensiveness_scores(analyze(ev.graph)))
    scores = view_data(ev)["scores"]
    assert {"covered", "uncovered", "basis"} <= set(scores)
    assert not {"n_covered", "n_uncovered", "n_basis"} & set(scores)
    # a count that says something else than the graph's (ICAT's covered aspects) stays
    ev.scores["n_covered"] = 99.0
    assert view_data(ev)["scores"]["n_covered"] == 99.0


class _Evaluator:
    """Evaluates by copying an example Evaluation; fails the ids given."""

    def __init__(self, failing: set[str]) -> None:
        self.failing = failing
        self.context_store = type("Store", (), {"hits": 0})()
        self.example = load_evaluations(str(RESULTS))[0]

    def __call__(self, inp: EvaluationInput) -> Evaluation:
        if inp.id in self.failing:
            raise ValueError("this input fails")
        return self.example.model_copy(update={"id": inp.id})


def _batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failing: set[str],
           *flags: str) -> tuple[Result, Path]:
    import factgraph.cli.evaluate as evaluate

    monkeypatch.setattr(evaluate, "build_evaluator", lambda kw: _Evaluator(failing))
    inputs = tmp_path / "in.jsonl"
    inputs.write_text("".join(json.dumps({"id": i, "query": "q", "response": "r",
                                          "documents": ["a reference"]}) + "\n"
                              for i in ("a", "b")), encoding="utf-8")
    out = tmp_path / "out.jsonl"
    return run("batch", inputs, "-o", out, *flags), out


def test_the_failures_file_is_named_only_when_it_exists(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    res, out = _batch(tmp_path, monkeypatch, set())
    assert res.exit_code == 0, res.output
    assert "2 evaluated, 0 already done, 0 failed\n" in res.stdout
    assert "failures.jsonl" not in res.output
    (tmp_path / "again").mkdir()
    res, out = _batch(tmp_path / "again", monkeypatch, {"b"})
    assert res.exit_code == 1
    assert f"1 failed (see {out}.failures.jsonl)" in res.stdout
    assert Path(f"{out}.failures.jsonl").exists()


def test_batch_progress_goes_to_stderr(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # rich draws as on a terminal
    monkeypatch.setenv("TTY_INTERACTIVE", "1")
    res, _ = _batch(tmp_path, monkeypatch, set(), "--progress", "--format", "json")
    assert res.exit_code == 0, res.output
    assert "evaluating" in res.stderr
    assert json.loads(res.stdout)["ran"] == 2  # stdout holds the summary alone


def test_meta_eval_and_index_build_show_progress(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    monkeypatch.setenv("TTY_INTERACTIVE", "1")
    data = _small_pairwise_file(tmp_path / "p.jsonl")
    res = run("meta-eval", "pairwise", data, "--resamples", "20", "--progress",
              "--format", "json")
    assert res.exit_code == 0, res.output
    assert "bootstrapping 20 resamples over 3 instances" in res.stderr
    assert json.loads(res.stdout)["instances"] == 3
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"id": "d1", "text": "one passage of text"}) + "\n",
                      encoding="utf-8")
    pytest.importorskip("bm25s", reason="bm25s is not installed (extra: retrieval)")
    res = run("index", "build", corpus, "--index-dir", tmp_path / "idx", "--progress",
              "--format", "json")
    assert res.exit_code == 0, res.output
    assert "indexing 1 documents (bm25)" in res.stderr
    assert json.loads(res.stdout)["n_documents"] == 1


def test_a_misspelt_set_name_says_did_you_mean(tmp_path: Path) -> None:
    response = tmp_path / "r.txt"
    response.write_text("an answer", encoding="utf-8")
    res = run("evaluate", "--query", "q", "--response", response, "--set", "words_cutof=0.4")
    assert res.exit_code == 2
    assert "unknown option words_cutof of --method e2e: did you mean words_cutoff?" \
        in res.output
    # a name another method takes still says whose it is
    res = run("evaluate", "--query", "q", "--response", response, "--set", "prune_top_k=3")
    assert res.exit_code == 2 and "prune_top_k is an option of nli" in res.output
