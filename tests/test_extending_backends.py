"""A model backend is added in one place (issue 29): an engine registered by this test, and
nothing else changed, is accepted in specs by the loaders, the Python API and the CLI's
``--model`` / ``--nli-model``, and gets ``--concurrency`` when it takes it."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import factgraph
from factgraph.backends.base import NLIResult
from factgraph.backends.cache import CachedTextBackend
from factgraph.backends.factory import (
    BackendSpecError,
    Engine,
    load_nli_backend,
    load_text_backend,
    register_engine,
    unregister_engine,
)
from factgraph.backends.scripted import ScriptedTextBackend
from factgraph.cli.main import cli
from factgraph.config import EvaluationConfig
from tests.test_python_api import DOCS, QUERY, RESPONSE, router


class ToyText(ScriptedTextBackend):
    """The Python API tests' scripted model, loaded from a ``toy:NAME`` spec."""

    engine = "toy"
    loaded: list[dict[str, Any]] = []  # noqa: RUF012 - what each load was given

    def __init__(self, rest: str, **kwargs: Any) -> None:
        super().__init__(router(), model=rest)
        ToyText.loaded.append({"model": rest, **kwargs})


class ToyNLI:
    """An NLI engine that finds every pair neutral."""

    engine = "toy-nli"

    def __init__(self, rest: str) -> None:
        self.model = rest
        self.pairs = 0

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[NLIResult]:
        self.pairs += len(pairs)
        return [NLIResult(entailment=0.0, neutral=1.0, contradiction=0.0, source="parsed_label")
                for _ in pairs]


@pytest.fixture
def toy_engines() -> Iterator[None]:
    ToyText.loaded.clear()
    register_engine(Engine("toy", "text", ToyText, "a scripted toy: toy:NAME",
                           concurrency="max_concurrency"))
    register_engine(Engine("toy-nli", "nli", ToyNLI, "a neutral toy judge: toy-nli:NAME"))
    try:
        yield
    finally:
        unregister_engine("text", "toy")
        unregister_engine("nli", "toy-nli")


def test_the_loaders_take_a_registered_engine(toy_engines: None) -> None:
    cached = load_text_backend("toy:m")
    assert isinstance(cached, CachedTextBackend) and isinstance(cached.inner, ToyText)
    assert isinstance(load_text_backend("toy:m", cache=False), ToyText)
    nli = load_nli_backend("toy-nli:j")
    assert isinstance(nli, ToyNLI) and nli.model == "j"
    with pytest.raises(BackendSpecError, match=r"unknown text engine 'toys' \(text engines: "
                                               r"vllm, transformers, openai, toy\)"):
        load_text_backend("toys:m")
    with pytest.raises(BackendSpecError, match=r"engines: .*toy, toy-nli"):
        load_text_backend("toy")


def test_a_registered_engine_evaluates_like_the_backend_object(toy_engines: None) -> None:
    by_spec = factgraph.evaluate(QUERY, RESPONSE, DOCS, method="nli", model="toy:m",
                                 cache=False)
    by_object = factgraph.evaluate(QUERY, RESPONSE, DOCS, method="nli",
                                   model=ToyText("m"), cache=False)
    assert by_spec.scores == by_object.scores
    assert by_spec.graph == by_object.graph
    assert by_spec.parameters["models"]["text"] == "m"


def test_the_cli_takes_a_registered_engine(toy_engines: None, tmp_path: Path) -> None:
    (tmp_path / "r.txt").write_text(RESPONSE, encoding="utf-8")
    docs = tmp_path / "docs.jsonl"
    docs.write_text("".join(json.dumps(d) + "\n" for d in DOCS), encoding="utf-8")
    res = CliRunner().invoke(cli, [
        "evaluate", "--method", "nli", "--query", QUERY, "--response", str(tmp_path / "r.txt"),
        "--context", str(docs), "--model", "toy:m", "--nli-model", "toy-nli:j", "--no-cache",
        "--concurrency", "3", "--format", "json"])
    assert res.exit_code == 0, res.output
    ev = json.loads(res.stdout)
    # the toy judge finds nothing entailed: no response statement covers a context one
    assert ev["scores"]["comprehensiveness"] == 0.0
    assert ToyText.loaded == [{"model": "m", "max_concurrency": 3}]


def test_concurrency_goes_only_to_an_engine_that_takes_it(toy_engines: None) -> None:
    EvaluationConfig(model="toy:m", concurrency=2, cache=False).backends()
    register_engine(Engine("toy", "text", ToyText, "no concurrency"), replace=True)
    EvaluationConfig(model="toy:m", concurrency=2, cache=False).backends()
    assert ToyText.loaded == [{"model": "m", "max_concurrency": 2}, {"model": "m"}]


ENTRY_POINT_ENGINE = Engine("plugged", "nli", ToyNLI, "from an entry point")


def test_an_engine_from_an_entry_point_is_loaded_on_first_lookup(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    from factgraph.backends import factory

    def entry_points(group: str) -> list[importlib.metadata.EntryPoint]:
        assert group == "factgraph.backends"
        return [importlib.metadata.EntryPoint(
            "plugged", "tests.test_extending_backends:ENTRY_POINT_ENGINE", group)]

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(factory._ENGINES, "_entry_points_read", False)
    try:
        judge = load_nli_backend("plugged:j")  # (the entry point imports this module anew)
        assert type(judge).__name__ == "ToyNLI" and judge.model == "j"
    finally:
        unregister_engine("nli", "plugged")
