"""The method registry is the one source of truth (issue 29): every registered method runs on a
scripted model through the same path a user takes, and the config's names, the CLI's choices
and flags and meta-eval's eligibility all come from it."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from method_contract import obliging_session
from pydantic import BaseModel, ConfigDict, Field

import factgraph
from factgraph.cli.main import cli
from factgraph.config import DEFAULT_METHOD, ConfigError, EvaluationConfig
from factgraph.graph import analyze
from factgraph.inputs import Document, EvaluationInput
from factgraph.methods import METHODS, MethodSpec, register_method
from factgraph.methods.registry import option_fields
from factgraph.methods.run import Backends
from factgraph.models import Evaluation, FactGraph, Origin, Statement
from factgraph.stages.session import ModelSession

INPUT = EvaluationInput(
    id="voss", query="Where was Mara Voss born?",
    response="Mara Voss was born in Bergen in 1871. [d1]",
    documents=[Document(id="d1", text="Mara Voss was born in Bergen in 1871."),
               Document(id="d2", text="Mara Voss painted the harbour of Bergen.")])


def _fixture_options(method: str, folder: Path) -> dict[str, Any]:
    """The files a method cannot run without (a method not named here runs on its defaults:
    a new method that needs files adds its own line)."""
    aspects = folder / "aspects.json"
    aspects.write_text(json.dumps([{"id": "1", "text": "birthplace"}]), encoding="utf-8")
    qrels = folder / "qrels.txt"
    qrels.write_text("1 1 d1 1\n", encoding="utf-8")
    nuggets = folder / "nuggets.json"
    nuggets.write_text(json.dumps([{"id": "born", "question": "Where was Mara Voss born?",
                                    "answers": [{"text": "Bergen", "docs": ["d1"]}]}]),
                       encoding="utf-8")
    return {"icat-m": {"aspects": str(aspects), "qrels": str(qrels), "topic": "1"},
            "icat-s": {"aspects": str(aspects)},
            "argue": {"nuggets": str(nuggets)}}.get(method, {})


@pytest.mark.parametrize("method", list(METHODS))
def test_every_registered_method_runs_on_the_scripted_model(method: str, tmp_path: Path) -> None:
    """Through the Python API (config → registry → Evaluator): an Evaluation of that method,
    with its main score, a graph whose edges join its statements, options recorded under
    their flat names, and an exact JSON round trip."""
    spec = METHODS[method]
    session = obliging_session()
    ev = factgraph.evaluate(INPUT.query, INPUT.response, INPUT.documents, method=method,
                            backends=Backends(text=session.text, nli=session.nli), cache=False,
                            input_id=INPUT.id, **_fixture_options(method, tmp_path))
    assert ev.method == method and ev.id == INPUT.id
    assert spec.main_score in ev.scores
    ids = {s.id for s in ev.graph.statements}
    assert ev.graph.statements and all(r.src in ids and r.dst in ids for r in ev.graph.relations)
    analyze(ev.graph)  # the graph engine reads it
    recorded = set(ev.parameters) - {"method", "models", "generation", "judge"}
    assert recorded <= set(option_fields(spec.options)), recorded - set(option_fields(
        spec.options))
    assert Evaluation.model_validate_json(ev.model_dump_json()) == ev


@pytest.mark.parametrize("method", list(METHODS))
def test_the_config_and_the_cli_take_exactly_the_methods_options(method: str) -> None:
    """Every option of a method is a config name and a CLI flag marked with the method; an
    option only another method takes is an error naming what this method takes."""
    from factgraph.cli.evaluate import METHOD_NAMES, OPTION_FLAGS

    assert method in METHOD_NAMES
    fields = option_fields(METHODS[method].options)
    flags = {f.option for f in OPTION_FLAGS if method in f.methods and not f.hidden}
    assert flags == set(fields)
    for name, info in fields.items():
        if info.default is None:
            continue
        given = {name: info.default}
        if method == "e2e" and name != "coverage_judge":  # a judge's option needs its judge
            from factgraph.methods.e2e.kinds import JUDGE_OPTIONS

            judge = next(j for j, o in JUDGE_OPTIONS.items() if name in o.model_fields)
            given = {"coverage_judge": judge, **given}
        assert EvaluationConfig.from_flat({"method": method, **given}).options == given
    others = {n for m in METHODS for n in option_fields(METHODS[m].options)} - set(fields)
    for name in sorted(others)[:3]:
        with pytest.raises(ConfigError, match=f"does not apply to method {method}"):
            EvaluationConfig.from_flat({"method": method, name: 1})


def test_the_issue_example_is_refused_naming_what_e2e_takes() -> None:
    res = CliRunner().invoke(cli, ["evaluate", "--method", "e2e", "--prune-top-k", "3",
                                   "--t-conf", "4", "--query", "q", "--response", "README.md"])
    assert res.exit_code == 2
    assert "--prune-top-k, --t-conf does not apply to --method e2e" in res.output
    assert "--coverage-judge" in res.output and "--prune-top-k is a flag of nli" in res.output


def test_a_judge_takes_only_its_own_options_and_records_its_tuned_cutoff() -> None:
    from factgraph.methods.e2e.options import E2EOptions

    with pytest.raises(ConfigError, match="'max_facts_per_text' does not apply to "
                                          "coverage_judge 'answers'"):
        EvaluationConfig.from_flat({"method": "e2e", "coverage_judge": "answers",
                                    "max_facts_per_text": 3})
    for judge, cutoff in (("per-fact", 0.3), ("answers", 0.7), ("sentences", 0.9)):
        opts = E2EOptions(coverage_judge=judge)
        assert opts.judge.coverage_cutoff == opts.coverage_cutoff == cutoff
        assert opts.flat()["coverage_cutoff"] == cutoff
        assert type(opts.judge).model_fields["coverage_cutoff"].default == cutoff


def test_one_meaning_per_flag_and_the_old_spelling_for_the_chosen_method() -> None:
    from factgraph.cli.evaluate import build_config

    assert build_config({"method": "prf", "prf_beta": 0.7}).options == {"beta": 0.7}
    assert build_config({"method": "icat-a", "icat_beta": 2.0}).options == {"beta": 2.0}
    assert build_config({"method": "prf", "beta": 0.7}).options == {"beta": 0.7}  # --beta
    assert build_config({"method": "icat-s", "corpus": "c.jsonl"}).options == {
        "corpus": "c.jsonl"}
    res = CliRunner().invoke(cli, ["evaluate", "--method", "prf", "--icat-beta", "2",
                                   "--query", "q", "--response", "README.md"])
    assert res.exit_code == 2 and "--icat-beta does not apply to --method prf" in res.output
    assert "--prf-beta" in res.output
    help_text = CliRunner().invoke(cli, ["evaluate", "--help"]).output
    assert "--icat-beta" in help_text and "--prf-beta" in help_text
    assert "--coverage-judge" in help_text  # an option with no flag before issue 29



@pytest.mark.parametrize(("command", "method"), [
    ("evaluate", "prf"), ("evaluate", "e2e"), ("batch", "icat-a"),
    ("meta-eval wikicontradict", "e2e"), ("meta-eval pairwise", "nli")])
def test_method_help_lists_only_that_methods_flags(command: str, method: str) -> None:
    """``--method X --help`` shows X's option flags and the command's own, no other method's;
    plain ``--help`` shows them all."""
    from factgraph.cli.evaluate import OPTION_FLAGS

    visible = [f for f in OPTION_FLAGS if not f.hidden]
    mine = {f.flag_name for f in visible if method in f.methods}
    others = {f.flag_name for f in visible} - mine
    assert mine and others
    res = CliRunner().invoke(cli, [*command.split(), "--method", method, "--help"])
    assert res.exit_code == 0, res.output
    shown = set(re.findall(r"(?m)^\s+(?:-\w, )?(--[\w-]+)", res.output))
    assert mine <= shown and not others & shown
    assert {"--method", "--model", "--help"} <= shown  # the command's own flags stay
    everything = CliRunner().invoke(cli, [*command.split(), "--help"]).output
    assert all(f in everything for f in mine | others)

def test_meta_eval_eligibility_comes_from_the_registry(tmp_path: Path) -> None:
    spec = MethodSpec(name="toy-meta", options=_ToyOptions, run=_run_toy, meta_evaluable=False)
    register_method(spec)
    try:
        assert "toy-meta" in METHODS and not METHODS["toy-meta"].meta_evaluable
        assert EvaluationConfig.from_flat({"method": "toy-meta"}).method == "toy-meta"
        from factgraph.cli.meta_eval import require_meta_evaluable
        from factgraph.cli.output import UserError

        with pytest.raises(UserError, match="--method toy-meta: x ") as refused:
            require_meta_evaluable("toy-meta", "x")
        # the methods the registry marks meta-evaluable, the default one first
        listed = re.split(r", | or ", str(refused.value).split("toy-meta: x ", 1)[1])
        meta = [m for m in METHODS if METHODS[m].meta_evaluable]
        assert sorted(listed) == sorted(meta) and "toy-meta" not in listed
        assert listed[0] == DEFAULT_METHOD
        for name in meta:
            require_meta_evaluable(name, "x")
    finally:
        METHODS.unregister("toy-meta")
    assert "toy-meta" not in METHODS


class _ToyOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    word: str = Field("Bergen", description="The word to look for.")


def _run_toy(inp: EvaluationInput, session: ModelSession, options: _ToyOptions) -> Evaluation:
    graph = FactGraph(query=inp.query, statements=[
        Statement(id="r", text=inp.response, origin=Origin.response)])
    return Evaluation(id=inp.id, method="toy-meta", parameters=options.model_dump(),
                      scores={"comprehensiveness": float(options.word in inp.response)},
                      graph=graph)


def test_a_registered_method_runs_and_its_name_cannot_be_taken_twice() -> None:
    spec = register_method(MethodSpec(name="toy-meta", options=_ToyOptions, run=_run_toy))
    try:
        with pytest.raises(ValueError, match="already exists"):
            register_method(spec)
        ev = factgraph.evaluate(INPUT.query, INPUT.response, INPUT.documents,
                                method="toy-meta", word="Oslo", cache=False)
        assert ev.scores["comprehensiveness"] == 0.0
        # the Evaluator stamps the method, its options, models and generation settings
        assert ev.parameters == {"method": "toy-meta", "word": "Oslo",
                                 "models": {"text": None, "nli": None, "embeddings": None},
                                 "generation": ev.parameters["generation"]}
        assert ev.parameters["generation"]["seed"] == 0
        with pytest.raises(ConfigError, match="does not apply to method toy-meta"):
            factgraph.evaluate(INPUT.query, INPUT.response, method="toy-meta", t_rel=3)
    finally:
        METHODS.unregister("toy-meta")


def test_the_python_api_default_method_is_one_config_default() -> None:
    """``method=None`` never overrides: a config's method stays, and without a config the
    API's base (nli) is merged like any other config."""
    from factgraph.api import make_config

    e2e = EvaluationConfig.from_flat({"method": "e2e", "coverage_judge": "list"})
    assert make_config(config=e2e).method == "e2e"
    assert make_config(config=e2e, coverage_cutoff=0.4).options == {
        "coverage_judge": "list", "coverage_cutoff": 0.4}
    assert make_config(method="qa", config=EvaluationConfig.from_flat({"method": "e2e"})
                       ).method == "qa"  # what is given wins over the config
    assert make_config().method == "nli"
    assert make_config(judge="e2e-list").method == "e2e"
    session = ModelSession()
    ev = factgraph.evaluator(config=e2e, backends=Backends(text=session.text))
    assert ev.method == "e2e"


def test_no_method_flag_takes_a_keyword_or_spelling_of_its_command() -> None:
    """The names a method flag may not take are read off each command as it is built
    (``MethodFlagsCommand``), not kept by hand: every command that takes the method flags is
    one, and none of its method flags shares a keyword or a spelling with its own params.
    Its own params are named arguments of its function, so the ``**kw`` that build_config
    reads holds only run and method flags."""
    import inspect

    import click

    from factgraph.cli.evaluate import run_options
    from factgraph.cli.method_flags import MethodFlagsCommand, MethodOption
    from factgraph.cli.run_flags import param_names

    ctx = click.Context(cli)
    commands = [cli.get_command(ctx, "evaluate"), cli.get_command(ctx, "batch")]
    meta = cli.get_command(ctx, "meta-eval")
    assert isinstance(meta, click.Group)
    commands += [meta.get_command(ctx, name) for name in ("wikicontradict", "pairwise", "facts")]
    for command in commands:
        assert isinstance(command, MethodFlagsCommand)
        own = [p for p in command.params if not isinstance(p, MethodOption)]
        flags = [p for p in command.params if isinstance(p, MethodOption)]
        assert own and flags
        taken = {n for p in own for n in (p.name, *p.opts, *p.secondary_opts)}
        assert not [p.name for p in flags
                    if taken & {p.name, *p.opts, *p.secondary_opts}], command.name
        named = inspect.signature(command.callback).parameters  # type: ignore[arg-type]
        shared = param_names(run_options())
        assert [p.name for p in own if p.name not in shared | {"help"}
                and p.name not in named] == [], command.name
