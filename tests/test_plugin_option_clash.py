"""An installed method whose option takes a flag that already means something else (issue 34,
item 4): the flag is skipped with one warning, ``factgraph evaluate`` keeps working for every
method, and the option stays settable with ``--set``."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict, Field

from factgraph.cli.method_flags import option_flags
from factgraph.methods import METHODS, MethodSpec, register_method
from factgraph.models import Evaluation

REPO = Path(__file__).resolve().parent.parent

PLUGIN = '''
from pydantic import BaseModel, ConfigDict, Field

from factgraph.methods import MethodSpec
from factgraph.models import Evaluation, FactGraph, Origin, Statement


class ClashOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    t_rel: float = Field(0.5, description="The share of words the response must hold.")
    word: str = Field("Bergen", description="The word to look for.")


def run(inp, session, options):
    graph = FactGraph(query=inp.query, statements=[
        Statement(id="r", text=inp.response, origin=Origin.response)])
    found = float(options.word in inp.response and options.t_rel < 1)
    return Evaluation(id=inp.id, method="clash", parameters=options.model_dump(),
                      scores={"comprehensiveness": found}, graph=graph)


METHOD = MethodSpec(name="clash", options=ClashOptions, run=run,
                    description="Says whether the response names a word.")
'''


def _install(folder: Path) -> Path:
    """A package ``clash_plugin`` with the dist-info pip would write: its method ``clash``
    declares ``t_rel`` (nli's flag) with another meaning."""
    (folder / "clash_plugin.py").write_text(PLUGIN, encoding="utf-8")
    dist = folder / "clash_plugin-0.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: clash-plugin\nVersion: 0.1.0\n",
                                   encoding="utf-8")
    (dist / "entry_points.txt").write_text("[factgraph.methods]\nclash = clash_plugin:METHOD\n",
                                           encoding="utf-8")
    return folder


def _factgraph(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)])}
    return subprocess.run([sys.executable, "-m", "factgraph", *args], env=env, cwd=folder,
                          capture_output=True, text=True, timeout=120)


def test_a_plugin_option_clash_leaves_evaluate_working(tmp_path: Path) -> None:
    folder = _install(tmp_path)
    help_run = _factgraph(folder, "evaluate", "--help")
    assert help_run.returncode == 0, help_run.stderr
    assert "clash" in help_run.stdout  # the plugin's method is a choice
    flat = " ".join(help_run.stdout.split())
    assert "--t-rel FLOAT [nli, qa] Relevance" in flat  # no "clash" among its methods
    assert "--word TEXT [clash] The word to look for." in flat
    warnings = [line for line in help_run.stderr.splitlines() if "gets no flag" in line]
    assert len(warnings) == 1, help_run.stderr
    assert "method clash: option 't_rel' gets no flag: --t-rel is the flag of option " \
           "'t_rel' of nli, qa" in warnings[0] and "--set t_rel=VALUE" in warnings[0]

    (folder / "answer.txt").write_text("Mara Voss was born in Bergen.", encoding="utf-8")
    common = ("--query", "Where was Mara Voss born?", "--response", "answer.txt",
              "--no-cache", "--format", "json")
    ran = _factgraph(folder, "evaluate", "--method", "clash", "--set", "t_rel=0.9",
                     "--word", "Bergen", "--out", "ev.json", *common)
    assert ran.returncode == 0, ran.stderr
    ev = Evaluation.model_validate_json((folder / "ev.json").read_text(encoding="utf-8"))
    assert ev.parameters["t_rel"] == 0.9 and ev.scores["comprehensiveness"] == 1.0
    above = _factgraph(folder, "evaluate", "--method", "clash", "--set", "t_rel=1.5",
                       "--out", "above.json", *common)
    assert above.returncode == 0, above.stderr
    assert json.loads((folder / "above.json").read_text())["scores"]["comprehensiveness"] == 0.0
    # the flag stays nli's: given to the plugin's method it does not apply
    refused = _factgraph(folder, "evaluate", "--method", "clash", "--t-rel", "0.9", *common)
    assert refused.returncode == 2
    assert "--t-rel does not apply to --method clash" in refused.stderr


class _ReservedOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")

    limit: int = Field(3, description="Words looked at.")
    t_rel: float = Field(0.5, description="Another meaning than nli's.")


def _run_reserved(inp: object, session: object, options: _ReservedOptions) -> Evaluation:
    raise AssertionError("not run")


def test_each_clashing_option_is_one_warning_and_the_other_flags_stay(
        caplog: pytest.LogCaptureFixture) -> None:
    before = [(f.flag, f.option, tuple(f.methods)) for f in option_flags(frozenset({"limit"}))]
    register_method(MethodSpec(name="toy-reserved", options=_ReservedOptions,
                               run=_run_reserved))
    try:
        with caplog.at_level(logging.WARNING, logger="factgraph.cli.method_flags"):
            after = [(f.flag, f.option, tuple(f.methods))
                     for f in option_flags(frozenset({"limit"}))]
    finally:
        METHODS.unregister("toy-reserved")
    assert after == before  # no flag of the new method, none of the others changed
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 2
    assert "option 'limit' gets no flag: --limit is one of the commands' own flags" in said[0]
    assert "[options] table" in said[0]
    assert "option 't_rel' gets no flag" in said[1] and "--set t_rel=VALUE" in said[1]
