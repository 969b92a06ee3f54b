"""The run flags come from the settings models (issue 34, second pass): every setting of
:mod:`factgraph.config` is a flag of ``evaluate`` and ``batch``, a setting added to a model
gets one, and a method option cannot take a run flag's name or a command's own."""

from __future__ import annotations

import logging
import re

import click
import pytest
from click.testing import CliRunner
from pydantic import BaseModel, ConfigDict, Field

from factgraph.cli import run_flags
from factgraph.cli.main import cli
from factgraph.cli.method_flags import MethodFlagsCommand, MethodOption, flag_options, option_flags
from factgraph.config import SECTIONS, EvaluationConfig, GenerationSettings, LimitSettings
from factgraph.methods import METHODS, MethodSpec, register_method
from factgraph.models import Evaluation


def _shown(*args: str) -> set[str]:
    res = CliRunner().invoke(cli, [*args, "--help"])
    assert res.exit_code == 0, res.output
    return set(re.findall(r"(?m)^\s+(?:-\w, )?(--[\w-]+)", res.output))


@pytest.mark.parametrize("command", ["evaluate", "batch"])
def test_every_setting_of_the_settings_models_is_a_flag(command: str) -> None:
    shown = _shown(command)
    settings = [*GenerationSettings.model_fields, *LimitSettings.model_fields,
                *(n for n in EvaluationConfig.model_fields
                  if n not in SECTIONS and n not in run_flags.DECLARED)]
    assert {"max_tokens", "seed", "max_pairs", "model", "base_url"} <= set(settings)
    missing = [n for n in settings if "--" + n.replace("_", "-") not in shown]
    assert not missing
    # the settings the commands spell themselves keep their flags
    assert {"--method", "--prompts", "--cache", "--no-cache", "--config", "--set"} <= shown


def test_a_setting_added_to_a_settings_model_gets_a_flag(
        monkeypatch: pytest.MonkeyPatch) -> None:
    class MoreGeneration(GenerationSettings):
        top_p: float = Field(1.0, gt=0.0, le=1.0, description="Nucleus sampling mass.")

    monkeypatch.setattr(run_flags, "GenerationSettings", MoreGeneration)

    def nothing(**kw: object) -> None:
        return None

    for decorate in run_flags.setting_options(run_flags.section_settings()):
        nothing = decorate(nothing)
    command = click.command()(nothing)
    top_p = next(p for p in command.params if p.name == "top_p")
    assert top_p.opts == ["--top-p"] and top_p.type is click.FLOAT and top_p.default is None
    assert getattr(top_p, "help", None) == "Nucleus sampling mass. [default: 1.0]"
    assert "top_p" in run_flags.setting_keywords()


def test_the_generated_flags_fill_the_settings_as_before(tmp_path: object) -> None:
    """A flag sets its setting; a flag not given leaves the config file's value."""
    from pathlib import Path

    from factgraph.cli.evaluate import build_config

    assert isinstance(tmp_path, Path)
    config_file = tmp_path / "run.toml"
    config_file.write_text('method = "nli"\nseed = 7\n[limits]\nmax_pairs = 500\n',
                           encoding="utf-8")
    kw: dict[str, object] = {name: None for name in run_flags.setting_keywords()}
    kw.update(config=str(config_file), no_cache=False, max_tokens=64, temperature=0.5,
              max_statements=9, nli_model="cross-encoder:/m")
    config = build_config(kw)
    assert (config.generation.max_tokens, config.generation.seed,
            config.generation.temperature) == (64, 7, 0.5)
    assert (config.limits.max_pairs, config.limits.max_statements) == (500, 9)
    assert config.nli_model == "cross-encoder:/m" and config.cache is True


class _Clashing(BaseModel):
    model_config = ConfigDict(extra="forbid")

    max_tokens: int = Field(5, description="Words per fact, not the generation cap.")
    limit: int = Field(3, description="Words looked at.")
    word: str = Field("Bergen", description="The word to look for.")


def _run(inp: object, session: object, options: _Clashing) -> Evaluation:
    raise AssertionError("not run")


def test_a_method_option_named_like_a_run_flag_or_a_commands_flag_gets_no_flag(
        caplog: pytest.LogCaptureFixture) -> None:
    from factgraph.cli.evaluate import run_options

    reserved = run_flags.param_names(run_options())
    assert {"max_tokens", "--max-tokens", "cache_path", "--no-cache", "set_values"} <= reserved
    register_method(MethodSpec(name="toy-clash", options=_Clashing, run=_run))
    try:
        with caplog.at_level(logging.WARNING, logger="factgraph.cli.method_flags"):
            flags = option_flags(reserved)
            mine = {f.option for f in flags if "toy-clash" in f.methods}
            assert mine == {"limit", "word"}  # max_tokens is the run flag's

            @click.command("facts", cls=MethodFlagsCommand)
            @click.option("--limit", type=int, default=None)
            @flag_options(flags)
            def facts(**kw: object) -> None:
                return None

            @click.command("evaluate", cls=MethodFlagsCommand)
            @flag_options(flags)
            def evaluate(**kw: object) -> None:
                return None
    finally:
        METHODS.unregister("toy-clash")
    in_facts = {p.name for p in facts.params if isinstance(p, MethodOption)}
    assert "limit" not in in_facts and "word" in in_facts  # the command's own --limit stays
    assert next(p for p in facts.params if p.name == "limit").type is click.INT
    assert "limit" in {p.name for p in evaluate.params}  # a command without one: the flag
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2, said
    assert "option 'max_tokens' gets no flag: --max-tokens is one of the commands' own " \
           "flags" in said[0]
    assert "option 'limit' gets no flag: --limit is one of the own flags of " \
           "`factgraph facts`" in said[1] and "--set limit=VALUE" in said[1]
