"""The worked examples of docs/extending.md for a store, a model backend and your own prompts,
executed as written: a fenced block right below ``<!-- extending-test: NAME -->`` runs (python),
or is written to a file (``<!-- extending-test: file PATH -->``), and what it printed and
built is checked."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from factgraph.cli.main import cli
from factgraph.graph.results import load_evaluations

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "extending.md"
MARKER = re.compile(r"^<!-- extending-test: (\w+)\s*(\S*)\s*-->$")


@dataclass
class Block:
    name: str
    argument: str
    lang: str
    code: str


def marked_blocks() -> list[Block]:
    lines = DOC.read_text(encoding="utf-8").splitlines()
    out = []
    for i, line in enumerate(lines[:-1]):
        m = MARKER.match(line)
        fence = re.match(r"^```(\w+)$", lines[i + 1])
        if not m or not fence:
            continue
        end = lines.index("```", i + 2)
        out.append(Block(m.group(1), m.group(2), fence.group(1),
                         "\n".join(lines[i + 2:end]) + "\n"))
    return out


def block(name: str) -> Block:
    found = [b for b in marked_blocks() if b.name == name and b.lang == "python"]
    assert len(found) == 1, f"docs/extending.md has {len(found)} python blocks marked {name}"
    return found[0]


def execute(code: str) -> tuple[dict[str, Any], str]:
    namespace: dict[str, Any] = {"__name__": "extending_example"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, str(DOC), "exec"), namespace)
    return namespace, out.getvalue()


def test_the_store_example_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    from factgraph.store.registry import unregister_store

    monkeypatch.chdir(REPO)
    try:
        ns, printed = execute(block("store").code)
        store, summary = ns["store"], ns["summary"]
        n = len(load_evaluations("examples/heber_results.jsonl"))
        assert summary.evaluations == n and store.rows == summary.rows > 0
        assert store.statements == summary.batches
        assert printed == f"{n} evaluations: {store.rows} rows in {store.statements} writes\n"
        # the CLI takes the registered store, with nothing else changed
        help_text = CliRunner().invoke(cli, ["db", "push", "--help"]).output
        assert "dryrun" in help_text
        res = CliRunner().invoke(cli, ["db", "push", "examples/heber_results.jsonl",
                                       "--store", "dryrun", "--format", "json"])
        assert res.exit_code == 0, res.output
        assert json.loads(res.stdout)["rows"] == summary.rows
    finally:
        unregister_store("dryrun")


def test_the_backend_example_runs() -> None:
    from factgraph.backends.factory import unregister_engine

    try:
        ns, printed = execute(block("backend").code)
        assert ns["labels"] == ["entails", "neutral"]
        assert printed == "['entails', 'neutral']\n"
        assert ns["judge"].model == "containment"
    finally:
        unregister_engine("nli", "words")


def test_the_prompts_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    files = [b for b in marked_blocks() if b.name == "file"]
    assert [b.argument for b in files] == ["my-prompts/nli.toml"]
    for b in files:
        Path(b.argument).parent.mkdir(parents=True, exist_ok=True)
        Path(b.argument).write_text(b.code, encoding="utf-8")
    ns, printed = execute(block("prompts").code)
    digest = "sha256:" + hashlib.sha256(Path("my-prompts/nli.toml").read_bytes()).hexdigest()
    assert ns["prompts"].recorded() == {"nli": digest}
    assert printed.splitlines() == [str({"nli": digest}),
                                    "You are a strict fact checker. Compare a PREMISE with a "
                                    "HYPOTHESIS, using only the PREMISE."]
    assert ns["chat"][-1].content == ("PREMISE: The bridge opened in 1932.\n"
                                      "HYPOTHESIS: The bridge opened.")
