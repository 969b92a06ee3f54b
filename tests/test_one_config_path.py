"""The CLI builds its configuration the way the Python API does (issue 34, item 3): through
``factgraph.api.config_from_flat``, which ``make_config`` uses too, with one precedence: flags
over ``--set`` over the ``--config`` file over ``--judge``'s options."""

from __future__ import annotations

from pathlib import Path

import pytest

from factgraph.api import make_config
from factgraph.cli.evaluate import build_config
from factgraph.cli.output import UserError
from factgraph.config import EvaluationConfig


def test_the_cli_and_the_api_build_the_same_config() -> None:
    cli = build_config({"judge": "e2e-answers", "set_values": ("coverage_cutoff=0.5",),
                        "seed": 3})
    api = make_config(judge="e2e-answers", config=EvaluationConfig(), coverage_cutoff=0.5,
                      seed=3)
    assert cli == api
    assert cli.options["coverage_judge"] == "answers" and cli.options["coverage_cutoff"] == 0.5


def test_flags_over_set_over_the_file_over_the_judge(tmp_path: Path) -> None:
    file = tmp_path / "run.toml"
    file.write_text("coverage_cutoff = 0.4\nyes_no_polarity = true\nseed = 5\n",
                    encoding="utf-8")
    judged = build_config({"judge": "e2e-answers"})
    assert judged.options["coverage_cutoff"] == 0.65
    filed = build_config({"judge": "e2e-answers", "config": str(file)})
    assert filed.options["coverage_cutoff"] == 0.4 and filed.options["yes_no_polarity"] is True
    assert filed.generation.seed == 5
    set_ = build_config({"judge": "e2e-answers", "config": str(file),
                         "set_values": ("coverage_cutoff=0.3", "seed=6")})
    assert set_.options["coverage_cutoff"] == 0.3 and set_.generation.seed == 6
    flagged = build_config({"judge": "e2e-answers", "config": str(file),
                            "set_values": ("seed=6",), "seed": 7})
    assert flagged.generation.seed == 7


def test_a_method_against_the_judge_and_an_unknown_judge_are_one_line() -> None:
    with pytest.raises(UserError, match="judge e2e-answers is a e2e judge; method 'nli' "
                                        "contradicts it"):
        build_config({"judge": "e2e-answers", "method": "nli"})
    with pytest.raises(UserError, match="--judge: unknown judge 'nope'"):
        build_config({"judge": "nope"})


def test_the_options_are_validated_once_and_handed_on_typed() -> None:
    from factgraph.methods.e2e.options import E2EOptions
    from factgraph.methods.run import Evaluator

    cfg = build_config({"judge": "e2e-evidence", "no_cache": True})
    typed = cfg.typed_options()
    assert isinstance(typed, E2EOptions) and typed.coverage_judge == "evidence"
    assert cfg.typed_options() is typed  # made when the config was validated, not again
    ev = cfg.evaluator()
    assert ev.parsed_options is typed
    assert Evaluator("e2e", options={"coverage_judge": "evidence"}).parsed_options == typed
