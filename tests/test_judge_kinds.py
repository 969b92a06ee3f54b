"""The registry of e2e judge kinds (``factgraph.methods.e2e.kinds``): the worked example of
docs/extending.md ("A judge kind") runs as written — one module and one registration — and
the kinds' registry is what the options, the flags and ``run_e2e`` read."""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest

import factgraph
from factgraph.methods.e2e.kinds import (
    BUILTIN_JUDGE_KINDS,
    JUDGE_OPTIONS,
    JudgeKind,
    JudgeOptions,
    get_judge_kind,
    judge_kind_names,
    register_judge_kind,
    unregister_judge_kind,
)
from factgraph.methods.e2e.options import E2EOptions

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "extending.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def _blocks(marker: str) -> dict[str, str]:
    """The judge-kind section's fenced blocks whose first line is ``# MARKER: NAME``."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("<!-- section: judge-kind -->")
    end = text.find("<!-- section:", start + 1)
    out = {}
    for _, body in FENCE.findall(text[start:end if end > 0 else None]):
        first, _, rest = body.partition("\n")
        if first.startswith(f"# {marker}: "):
            out[first[len(marker) + 4:].strip()] = rest
    return out


def _entry_points() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("<!-- section: judge-kind -->"):]
    toml = next(body for lang, body in FENCE.findall(section) if lang == "toml")
    eps: dict[str, str] = tomllib.loads(toml)["project"]["entry-points"]["factgraph.judge_kinds"]
    return eps


@pytest.fixture
def module_dir(tmp_path: Path) -> Iterator[Path]:
    """The example's module, written where it can be imported (and forgotten afterwards)."""
    files = _blocks("file")
    assert list(files) == ["verbatim_judge.py"]
    (tmp_path / "verbatim_judge.py").write_text(files["verbatim_judge.py"], encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    try:
        yield tmp_path
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("verbatim_judge", None)
        if "verbatim" in judge_kind_names():
            unregister_judge_kind("verbatim")


def test_the_documented_judge_kind_is_one_module_and_one_registration(
        module_dir: Path) -> None:
    [run] = _blocks("run").values()
    out = io.StringIO()
    namespace: dict[str, Any] = {"__name__": "judge_kind_example"}
    with contextlib.redirect_stdout(out):
        exec(compile(run, str(DOC), "exec"), namespace)
    ev = namespace["ev"]
    assert ev.method == "e2e" and ev.parameters["coverage_judge"] == "verbatim"
    assert ev.parameters["verbatim_min_words"] == 3
    assert ev.parameters["models"] == {"text": None, "nli": None, "embeddings": None}
    facts = {s.id: s.text for s in ev.graph.statements if s.origin == "context"}
    assert facts == {"doc1.s1": "Mara Voss was born in Bergen.",
                     "doc1.s2": "She studied in Paris.",
                     "doc2.s1": "Mara Voss was born in 1871."}
    assert {(r.src, r.dst, r.method) for r in ev.graph.relations} == {
        ("r", "doc1.s1", "verbatim")}
    assert ev.scores["comprehensiveness"] == pytest.approx(1 / 3)
    assert {v.statement_id: v.label for v in ev.verdicts}["doc1.s1"] == "covered"
    assert out.getvalue().split() == [str(1 / 3), "verbatim"]

    # registered: a choice of --coverage-judge with its help, its option a flat name
    fields = E2EOptions.flat_fields()
    assert "verbatim" in fields["coverage_judge"].annotation.__args__
    assert "covered when the response states them word for word ('verbatim')" in str(
        fields["coverage_judge"].description)
    assert "verbatim_min_words" in fields and JUDGE_OPTIONS["verbatim"].__name__ == \
        "VerbatimJudge"
    opts = E2EOptions(coverage_judge="verbatim", verbatim_min_words=5)
    assert opts.flat() == {"summarize_over_chars": None, "coverage_judge": "verbatim",
                           "verbatim_min_words": 5}
    assert E2EOptions.model_validate(opts.model_dump()) == opts
    with pytest.raises(factgraph.ConfigError,
                       match="'max_facts_per_text' does not apply to coverage_judge 'verbatim'"):
        factgraph.evaluate("q", "r", ["d."], method="e2e", coverage_judge="verbatim",
                           max_facts_per_text=3)
    with pytest.raises(factgraph.ConfigError, match="does not apply to coverage_judge 'answers'"):
        factgraph.evaluate("q", "r", ["d."], method="e2e", coverage_judge="answers",
                           verbatim_min_words=3)
    # the error names the judge that takes the option ('auto' takes no judge's own options)
    with pytest.raises(factgraph.ConfigError, match="coverage_judge 'verbatim' takes it: name it"):
        factgraph.evaluate("q", "r", ["d."], method="e2e", verbatim_min_words=3)

    unregister_judge_kind("verbatim")
    assert "verbatim" not in judge_kind_names() and "verbatim" not in E2EOptions.flat_fields()
    with pytest.raises(ValueError, match="unknown coverage_judge 'verbatim'"):
        E2EOptions(coverage_judge="verbatim")


def test_an_installed_judge_kind_gets_its_cli_choice_and_flag(module_dir: Path) -> None:
    dist = module_dir / "verbatim_judge-0.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: verbatim-judge\n"
                                   "Version: 0.1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[factgraph.judge_kinds]\n" + "".join(
        f"{k} = {v}\n" for k, v in _entry_points().items()), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(module_dir), str(REPO)])}
    res = subprocess.run([sys.executable, "-m", "factgraph", "evaluate", "--help"], env=env,
                         capture_output=True, text=True, timeout=120, check=True)
    flat = " ".join(res.stdout.split())
    assert "--verbatim-min-words INTEGER [e2e] E2E verbatim: a sentence of fewer words is not " \
           "a fact." in flat
    last_builtin = list(BUILTIN_JUDGE_KINDS)[-1]
    assert f"|{last_builtin}|verbatim]" in flat  # the choices of --coverage-judge, in order


def test_a_taken_name_or_an_untagged_model_is_refused() -> None:
    answers = get_judge_kind("answers")
    with pytest.raises(ValueError, match="judge kind 'answers' already exists"):
        register_judge_kind(answers)

    class Untagged(JudgeOptions):
        coverage_judge: Literal["other"] = "other"

    with pytest.raises(TypeError, match=r"coverage_judge: Literal\['toy'\] = 'toy'"):
        register_judge_kind(JudgeKind(name="toy", options=Untagged, run=answers.run))
    assert "toy" not in judge_kind_names()
    with pytest.raises(ValueError, match="was not added with register_judge_kind"):
        unregister_judge_kind("answers")


def test_the_builtin_kinds_are_the_choices_and_each_is_tagged() -> None:
    names = judge_kind_names()
    assert names[:len(BUILTIN_JUDGE_KINDS)] == list(BUILTIN_JUDGE_KINDS)
    choices = E2EOptions.flat_fields()["coverage_judge"].annotation.__args__
    assert list(choices) == names
    for name in BUILTIN_JUDGE_KINDS:
        kind = get_judge_kind(name)
        assert kind.name == name and kind.help.endswith(")")
        assert E2EOptions(coverage_judge=name).judge.coverage_judge == name
        assert type(E2EOptions(coverage_judge=name).judge) is kind.options
    with pytest.raises(ValueError, match="unknown coverage_judge 'nope'; known: auto, list, "
                                         "per-fact"):
        get_judge_kind("nope")
