"""docs/extending.md's method example runs as written: its blocks become a package, installed
the way pip installs one (a dist-info folder with the entry point of its pyproject.toml), found
through the ``factgraph.methods`` entry-point group and evaluated on a scripted model; its
judge example is a valid judge of the judges table."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

import factgraph
from factgraph.backends.base import ChatMessage, GenerationParams
from factgraph.backends.scripted import ScriptedTextBackend
from factgraph.methods import METHODS

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "extending.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def _section(name: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(f"<!-- section: {name} -->")
    end = text.find("<!-- section:", start + 1)
    return text[start:end if end > 0 else None]


def _blocks(section: str, marker: str) -> dict[str, str]:
    """The section's fenced blocks whose first line is ``# MARKER: NAME``, by NAME."""
    out = {}
    for _, body in FENCE.findall(_section(section)):
        first, _, rest = body.partition("\n")
        if first.startswith(f"# {marker}: "):
            out[first[len(marker) + 4:].strip()] = rest if marker == "file" else body
    return out


def _install(folder: Path) -> Path:
    """The package of the method section in ``folder``, with the dist-info pip would write."""
    files = _blocks("method", "file")
    assert {"pyproject.toml", "exact_match/__init__.py", "exact_match/facts.toml"} <= set(files)
    for name, body in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(body, encoding="utf-8")
    project = tomllib.loads(files["pyproject.toml"])["project"]
    dist = folder / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\n"
                                   f"Version: {project['version']}\n", encoding="utf-8")
    groups = project["entry-points"]
    (dist / "entry_points.txt").write_text("".join(
        f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items())
        for group, eps in groups.items()), encoding="utf-8")
    return folder


@pytest.fixture
def installed(tmp_path: Path) -> Iterator[Path]:
    folder = _install(tmp_path)
    sys.path.insert(0, str(folder))
    METHODS.refresh()
    try:
        yield folder
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == "exact_match" or m.startswith("exact_match.")]:
            del sys.modules[name]
        METHODS.refresh()


FACTS = {"Mara Voss was born in Bergen in 1871.": ["Mara Voss was born in Bergen.",
                                                   "Mara Voss was born in 1871."],
         "Mara Voss painted ships in the harbour.": ["Mara Voss painted ships."]}


def _model(messages: Sequence[ChatMessage], params: GenerationParams) -> str:
    assert params.json_schema is not None and "facts" in params.json_schema["properties"]
    text = messages[-1].content.split("TEXT:\n", 1)[1].strip()
    return json.dumps({"facts": FACTS[text]})


def test_the_documented_method_installs_through_its_entry_point_and_runs(
        installed: Path) -> None:
    assert "exact-match" in METHODS and METHODS["exact-match"].name == "exact-match"
    ev = factgraph.evaluate("Where was Mara Voss born?",
                            "Mara Voss was born in Bergen. She painted.",
                            list(FACTS), method="exact-match", max_facts=5, cache=False,
                            model=ScriptedTextBackend(_model))
    assert ev.method == "exact-match" and ev.parameters["max_facts"] == 5
    covered = {r.dst for r in ev.graph.relations}
    assert covered == {"doc1.1"}  # born in Bergen: stated; 1871 and the ships: not
    assert ev.scores["comprehensiveness"] == pytest.approx(1 / 3)
    only_one = factgraph.evaluate("Where was Mara Voss born?", "Mara Voss was born in Bergen.",
                                  list(FACTS), method="exact-match", max_facts=1, cache=False,
                                  model=ScriptedTextBackend(_model))
    assert only_one.scores["comprehensiveness"] == pytest.approx(1 / 2)
    with pytest.raises(factgraph.ConfigError, match="does not apply to method exact-match"):
        factgraph.evaluate("q", "r", method="exact-match", t_rel=3.0, cache=False,
                           model=ScriptedTextBackend(_model))
    METHODS.refresh()


def test_the_installed_method_gets_its_cli_choice_and_flags(installed: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(installed), str(REPO)])}
    res = subprocess.run([sys.executable, "-m", "factgraph", "evaluate", "--help"], env=env,
                         capture_output=True, text=True, timeout=120, check=True)
    assert "exact-match" in res.stdout
    flat = " ".join(res.stdout.split())
    assert "--max-facts INTEGER [exact-match] Facts kept per background text." in flat
    assert "--ignore-case / --no-ignore-case" in flat
    bad = subprocess.run([sys.executable, "-m", "factgraph", "evaluate", "--method",
                          "exact-match", "--t-rel", "3", "--query", "q", "--response",
                          str(REPO / "README.md")], env=env, capture_output=True, text=True,
                         timeout=120)
    assert bad.returncode == 2
    assert "--t-rel does not apply to --method exact-match (it takes: --max-facts, " \
           "--ignore-case)" in bad.stderr


def test_the_documented_judge_is_a_valid_judge(monkeypatch: pytest.MonkeyPatch) -> None:
    from factgraph.api import make_config
    from factgraph.methods import judges

    [block] = _blocks("judge", "judge").values()
    (judge,) = eval(block, {"NamedJudge": judges.NamedJudge})
    monkeypatch.setitem(judges.JUDGES, judge.name, judge)
    cfg = make_config(judge=judge.name)
    assert cfg.method == judge.method and cfg.options == judge.options
    ev = cfg.evaluator()
    assert ev.parsed_options.coverage_cutoff == judge.options["coverage_cutoff"]
