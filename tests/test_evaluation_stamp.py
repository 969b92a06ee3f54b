"""The Evaluator stamps every Evaluation in one place (issue 34, item 2): the method, its flat
options, the models by role and the generation settings; a method returns only what it alone
knows (a judge's choice, its calibration)."""

from __future__ import annotations

from pathlib import Path

import pytest
from method_contract import obliging_session
from test_method_registry import INPUT, _fixture_options, _run_toy, _ToyOptions

import factgraph
from factgraph.inputs import EvaluationInput
from factgraph.methods import METHODS, MethodSpec, register_method
from factgraph.methods.registry import option_fields
from factgraph.methods.run import Backends
from factgraph.models import Evaluation
from factgraph.stages.session import ModelSession


@pytest.mark.parametrize("method", list(METHODS))
def test_every_method_is_stamped_with_its_name_options_models_and_generation(
        method: str, tmp_path: Path) -> None:
    session = obliging_session()
    ev = factgraph.evaluate(INPUT.query, INPUT.response, INPUT.documents, method=method,
                            backends=Backends(text=session.text, nli=session.nli),
                            cache=False, seed=5, max_tokens=300,
                            **_fixture_options(method, tmp_path))
    p = ev.parameters
    assert p["method"] == method
    assert p["models"] == {"text": "scripted", "nli": "scripted-nli", "embeddings": None}
    assert p["generation"]["seed"] == 5 and p["generation"]["max_tokens"] == 300
    names = option_fields(METHODS[method].options)
    recorded = [k for k in p if k in names]
    assert recorded, "no option recorded"
    if method != "e2e":  # e2e records its judge's options, not every judge's
        assert set(recorded) == set(names)
    for name, value in _fixture_options(method, tmp_path).items():
        assert p[name] == value


def _run_reporting(inp: EvaluationInput, session: ModelSession, options: _ToyOptions
                   ) -> Evaluation:
    """The registry test's toy method, recording only what it alone knows."""
    ev = _run_toy(inp, session, options)
    return ev.model_copy(update={"method": "toy-stamped", "parameters": {"judge": "by-eye"}})


def test_a_method_that_records_nothing_is_stamped_and_keeps_what_it_knows() -> None:
    register_method(MethodSpec(name="toy-stamped", options=_ToyOptions, run=_run_reporting))
    try:
        ev = factgraph.evaluate(INPUT.query, INPUT.response, INPUT.documents,
                                method="toy-stamped", word="Oslo", cache=False)
    finally:
        METHODS.unregister("toy-stamped")
    assert list(ev.parameters) == ["method", "word", "models", "generation", "judge"]
    assert ev.parameters["method"] == "toy-stamped" and ev.parameters["word"] == "Oslo"
    assert ev.parameters["judge"] == "by-eye"


def test_auto_records_the_judge_it_ran_not_its_own_options() -> None:
    """The auto judge's choice is what only the method knows: the chosen judge's name and
    options are recorded, auto's own option (long_form_min_words) is not."""
    reference = "Hoover Dam holds back Lake Mead. It was finished in 1936."
    ev = factgraph.evaluate("What is Hoover Dam?", "Hoover Dam holds back Lake Mead.",
                            [reference], method="e2e", cache=False)
    p = ev.parameters
    assert p["judge"] == "e2e-evidence" and p["coverage_judge"] == "evidence"
    assert "long_form_min_words" not in p
    assert p["calibration"]["name"] == "evidence-v3"  # the judge's own record wins
    assert p["method"] == "e2e" and set(p["models"]) == {"text", "nli", "embeddings"}
