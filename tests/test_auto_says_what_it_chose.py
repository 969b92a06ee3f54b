"""Issue 35 §2, auto says what it chose: one line per run (stderr, without -v) names the judge
``auto`` picked and why; with a text model and a long-form input it says the model is not used
and why; with no model a short answer stops at once, naming the judge, why it needs a model and
the model-free judge to name instead."""

from __future__ import annotations

import json
import logging
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
from factgraph.methods.judges import DEFAULT_JUDGES
from factgraph.models import Evaluation

REPO = Path(__file__).resolve().parents[1]
RESULTS = REPO / "examples" / "heber_results.jsonl"
LONG = {"id": "long", "query": "q", "response": "An answer judged against a reference.",
        "documents": ["The reference answer."]}
SHORT = {"id": "short", "query": "Who?", "response": "Heber.",
         "documents": ["Heber met him.", "D'Oyly met him."]}


class _Evaluator:
    """Stands in for the loaded evaluator: copies an example Evaluation per input."""

    context_store = type("Store", (), {"hits": 0})()

    def __call__(self, inp: EvaluationInput) -> Evaluation:
        return load_evaluations(str(RESULTS))[0].model_copy(update={"id": inp.id})


@pytest.fixture
def no_models(monkeypatch: pytest.MonkeyPatch) -> None:
    """No model is loaded: the evaluator of evaluate and batch is a stand-in."""
    import factgraph.cli.evaluate as evaluate

    monkeypatch.setattr(evaluate, "build_evaluator", lambda kw: _Evaluator())
    monkeypatch.setattr(evaluate, "evaluator_of", lambda config: _Evaluator())


def _inputs(tmp_path: Path, *rows: dict[str, Any]) -> Path:
    path = tmp_path / "in.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def _batch(tmp_path: Path, *rows: dict[str, Any], flags: tuple[str, ...] = ()) -> Result:
    return CliRunner().invoke(cli, ["batch", str(_inputs(tmp_path, *rows)), "-o",
                                    str(tmp_path / "out.jsonl"), "--no-cache", *flags])


LONG_FORM = DEFAULT_JUDGES["long-form"]  # e2e-evidence: no model, no embedder


def _said(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.name == "factgraph.cli.judge_choice" and r.levelno == logging.INFO]


def test_one_line_names_the_judge_and_why(tmp_path: Path, no_models: None,
                                          caplog: pytest.LogCaptureFixture) -> None:
    res = _batch(tmp_path, LONG, {**LONG, "id": "long2"})
    assert res.exit_code == 0, res.output
    assert _said(caplog) == [f"auto judge: {LONG_FORM} for 2 long-form answers "
                             "(2 judged against one text)"]


def test_a_model_left_unused_is_said(tmp_path: Path, no_models: None,
                                     caplog: pytest.LogCaptureFixture) -> None:
    res = _batch(tmp_path, LONG, flags=("--model", "openai:m@http://127.0.0.1:9/v1"))
    assert res.exit_code == 0, res.output
    (line,) = _said(caplog)
    assert line.startswith(f"auto judge: {LONG_FORM} for 1 long-form answer "
                           "(judged against one text). --model openai:m@http://127.0.0.1:9/v1 "
                           "is not used: ")
    assert f"--judge {LONG_FORM}-cascade asks it" in line  # the same judge, with the model


def test_a_model_that_is_used_is_not_called_unused(tmp_path: Path, no_models: None,
                                                   caplog: pytest.LogCaptureFixture) -> None:
    res = _batch(tmp_path, SHORT, flags=("--model", "openai:m@http://127.0.0.1:9/v1"))
    assert res.exit_code == 0, res.output
    assert _said(caplog) == ["auto judge: e2e-answers-several for 1 short answer (under 80 "
                             "words, over several texts)"]


def test_no_model_for_a_short_answer_stops_at_once(tmp_path: Path, no_models: None) -> None:
    res = _batch(tmp_path, LONG, SHORT)
    assert res.exit_code == 2
    assert res.output.strip().splitlines() == [
        "Error: auto judge: e2e-answers-several for 1 short answer (under 80 words, over "
        "several texts; id short) needs a text model (--model): it asks the model which "
        "answers the texts give and whether the response gives each. Give --model SPEC, or "
        f"--judge {LONG_FORM} to judge without a model"]
    assert not (tmp_path / "out.jsonl").exists()  # nothing ran
    # evaluate says the same
    response = tmp_path / "r.txt"
    response.write_text(SHORT["response"], encoding="utf-8")
    docs = []
    for n, text in enumerate(SHORT["documents"], 1):
        docs += ["--context", str(tmp_path / f"d{n}.txt")]
        (tmp_path / f"d{n}.txt").write_text(text, encoding="utf-8")
    res = CliRunner().invoke(cli, ["evaluate", "--query", "Who?", "--response", str(response),
                                   *docs])
    assert res.exit_code == 2
    assert "needs a text model (--model)" in res.output
    assert f"--judge {LONG_FORM}" in res.output


def test_a_named_judge_says_nothing(tmp_path: Path, no_models: None,
                                    caplog: pytest.LogCaptureFixture) -> None:
    res = _batch(tmp_path, SHORT, flags=("--judge", "e2e-sentences-model-free"))
    assert res.exit_code == 0, res.output
    assert _said(caplog) == []


def test_the_line_shows_on_stderr_without_verbose(tmp_path: Path) -> None:
    inputs = _inputs(tmp_path, LONG)
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run([sys.executable, "-m", "factgraph", "batch", str(inputs), "-o",
                          str(tmp_path / "out.jsonl"), "--no-cache"], cwd=tmp_path, env=env,
                         text=True, capture_output=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stderr.splitlines() == [
        f"INFO factgraph.cli.judge_choice: auto judge: {LONG_FORM} for 1 long-form "
        "answer (judged against one text)"]
    (ev,) = load_evaluations(str(tmp_path / "out.jsonl"))
    assert ev.parameters["judge"] == LONG_FORM  # recorded, as before


def test_meta_eval_says_it_too(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from tests.test_cli_pipelines import wikicontradict_file

    data = wikicontradict_file(tmp_path / "wc.jsonl")
    res = CliRunner().invoke(cli, ["meta-eval", "wikicontradict", "--data", str(data),
                                   "--results", str(tmp_path / "r.jsonl"), "--no-cache"])
    assert res.exit_code == 2
    assert "needs a text model (--model)" in res.output
    assert f"--judge {LONG_FORM}" in res.output
    assert not (tmp_path / "r.jsonl").exists()
