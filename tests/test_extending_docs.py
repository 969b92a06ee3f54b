"""docs/extending.md's method example runs as written: its blocks become a package, installed
the way pip installs one (a dist-info folder with the entry point of its pyproject.toml), found
through the ``factgraph.methods`` entry-point group and evaluated on a scripted model; its
judge example is a valid judge of the judges table."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

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


def _install(folder: Path, backends: dict[str, str] | None = None) -> Path:
    """The package of the method section in ``folder``, with the dist-info pip would write
    (``backends``: entry points of the ``factgraph.backends`` group added to it). The user's
    prompt directory of the section (``my-prompts/``) is not part of the package."""
    files = {k: v for k, v in _blocks("method", "file").items()
             if not k.startswith("my-prompts/")}
    assert {"pyproject.toml", "exact_match/__init__.py", "exact_match/facts.toml"} <= set(files)
    for name, body in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(body, encoding="utf-8")
    project = tomllib.loads(files["pyproject.toml"])["project"]
    dist = folder / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\n"
                                   f"Version: {project['version']}\n", encoding="utf-8")
    groups = {**project["entry-points"], **({"factgraph.backends": backends} if backends else {})}
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


# a scripted text engine for the CLI in a subprocess: every chat it is sent goes to a JSONL file
SCRIPT_ENGINE = f"""
import json, os
from factgraph.backends.factory import Engine
from factgraph.backends.scripted import ScriptedTextBackend

FACTS = {FACTS!r}


def reply(messages, params):
    with open(os.environ["EXACT_MATCH_CALLS"], "a", encoding="utf-8") as f:
        f.write(json.dumps([m.content for m in messages]) + "\\n")
    return json.dumps({{"facts": FACTS[messages[-1].content.split("TEXT:\\n", 1)[1].strip()]}})


ENGINE = Engine("script", "text", lambda rest: ScriptedTextBackend(reply, model=rest),
                "a scripted model: script:NAME")
"""


def test_prompts_dir_replaces_the_installed_methods_own_prompt(tmp_path: Path) -> None:
    folder = _install(tmp_path / "site", backends={"script": "exact_match_script:ENGINE"})
    (folder / "exact_match_script.py").write_text(SCRIPT_ENGINE, encoding="utf-8")
    own = _blocks("method", "file")["my-prompts/exact_match/facts.toml"]
    prompts = tmp_path / "my-prompts" / "exact_match"
    prompts.mkdir(parents=True)
    (prompts / "facts.toml").write_text(own, encoding="utf-8")
    (tmp_path / "answer.txt").write_text("Mara Voss was born in Bergen.", encoding="utf-8")
    for n, text in enumerate(FACTS, 1):
        (tmp_path / f"doc{n}.txt").write_text(text, encoding="utf-8")

    def evaluate(*extra: str) -> tuple[list[list[str]], dict[str, Any]]:
        calls, out = tmp_path / "calls.jsonl", tmp_path / "out.json"
        calls.unlink(missing_ok=True)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)]),
               "EXACT_MATCH_CALLS": str(calls)}
        env.pop("FACTGRAPH_PROMPTS", None)
        res = subprocess.run(
            [sys.executable, "-m", "factgraph", "evaluate", "--method", "exact-match",
             "--model", "script:m", "--no-cache", "--query", "Where was Mara Voss born?",
             "--response", "answer.txt", "--context", "doc1.txt", "--context", "doc2.txt",
             "-o", str(out), *extra], cwd=tmp_path, env=env, capture_output=True, text=True,
            timeout=120)
        assert res.returncode == 0, res.stderr
        return ([json.loads(line) for line in calls.read_text(encoding="utf-8").splitlines()],
                json.loads(out.read_text(encoding="utf-8")))

    packaged_calls, packaged = evaluate()
    own_calls, replaced = evaluate("--prompts", "my-prompts")
    packaged_system = tomllib.loads(_blocks("method", "file")["exact_match/facts.toml"])["system"]
    own_system = tomllib.loads(own)["system"]
    assert len(own_calls) == len(packaged_calls) == 2
    assert {c[0] for c in packaged_calls} == {packaged_system.strip()}
    assert {c[0] for c in own_calls} == {own_system.strip()}  # the user's text reached the model
    assert [c[1:] for c in own_calls] == [c[1:] for c in packaged_calls]
    digest = "sha256:" + hashlib.sha256((prompts / "facts.toml").read_bytes()).hexdigest()
    assert replaced["parameters"]["prompts"] == {"exact_match:facts": digest}
    assert "prompts" not in packaged["parameters"]
    assert replaced["scores"] == packaged["scores"]

    # checked against the installed package's own prompt, like a built-in one
    (prompts / "facts.toml").write_text(own.replace("$text", "$txt"), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(folder), str(REPO)])}
    bad = subprocess.run(
        [sys.executable, "-m", "factgraph", "evaluate", "--method", "exact-match", "--model",
         "script:m", "--no-cache", "--query", "q", "--response", "answer.txt", "--prompts",
         "my-prompts"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2
    assert bad.stderr.strip().endswith(
        "facts.toml: user: unknown field(s) $txt; leaves out $text (the exact_match:facts "
        "prompt fills in $query, $text)")
