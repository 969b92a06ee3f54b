"""NLI-, Q&A- and end-to-end comprehensiveness with a real small model on one WikiContradict
row (excluded from the default run: ``-m model``).

A llama.cpp server runs the GGUF from ``scripts/assemble-models.sh``; the real ``openai:``
backend talks to it. A ≤1.5B model is no reference judge, so the graph's structure and the
score's range are asserted, and that the model followed the prompts well enough to produce
statements — not the score's value.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from factgraph.graph import analyze
from factgraph.models import Evaluation, FactGraph
from tests.llama_server import llama_server, small_gguf

HUMANEVAL = "wikicontradict/wiki_contradict_simple_humaneval.jsonl"


@pytest.fixture(scope="module")
def server_spec(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    gguf = small_gguf()
    with llama_server(gguf, tmp_path_factory.mktemp("llama") / "server.log") as spec:
        yield spec


def assert_well_formed(ev: Evaluation) -> None:
    graph = FactGraph.model_validate_json(ev.graph.model_dump_json())
    ids = {s.id for s in graph.statements}
    assert len(ids) == len(graph.statements)
    assert all(r.src in ids and r.dst in ids for r in graph.relations)
    assert any(s.origin == "response" for s in graph.statements), "no response statement"
    assert any(s.origin == "context" for s in graph.statements), "no context statement"
    score = ev.scores["comprehensiveness"]
    assert score is not None and 0.0 <= score <= 1.0
    result = analyze(graph)
    assert score == pytest.approx(result.score)
    assert ev.traces and all(t.raw_output is not None for t in ev.traces)


@pytest.mark.model
@pytest.mark.parametrize("method", ["e2e", "qa", "nli"])
def test_method_end_to_end_on_a_wikicontradict_row(method: str, server_spec: str,
                                                   shared_data: Path, tmp_path: Path) -> None:
    from factgraph.methods.run import Backends, Evaluator
    from factgraph.wikicontradict import load_items

    item = load_items(shared_data / HUMANEVAL)[0].input  # row 0, answer 0 (both contexts)
    backends = Backends.from_specs(server_spec, cache=str(tmp_path / "calls.sqlite"))
    ev = Evaluator(method, backends=backends)(item)
    assert ev.method == method and ev.id == item.id
    assert_well_formed(ev)
    assert not ev.limits_hit
