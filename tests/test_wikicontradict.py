"""WikiContradict as meta-evaluation items: loading, footnote-6 labels, sampling, scoring."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from factgraph.datasets.wikicontradict import load_items, sample_items, score_results
from factgraph.inputs import EvaluationInput
from factgraph.models import Evaluation, FactGraph

HUMANEVAL = "wikicontradict/wiki_contradict_simple_humaneval.jsonl"


def test_real_file_gives_1200_labelled_answers(shared_data: Path) -> None:
    rows = [json.loads(line) for line in (shared_data / HUMANEVAL).read_text().splitlines()]
    items = load_items(shared_data / HUMANEVAL)
    assert len(items) == 5 * len(rows) == 1200
    assert len({it.input.id for it in items}) == 1200
    raw = Counter(r[f"label{k}"] for r in rows for k in range(5))
    single_context_correct = sum(r[f"label{k}"] == "Correct" for r in rows for k in (1, 2))
    adjusted = Counter(it.label for it in items)
    # Footnote 6 moves every "Correct" on answers 1 and 2 to "Partially correct".
    assert adjusted["Correct"] == raw["Correct"] - single_context_correct
    assert adjusted["Partially correct"] == raw["Partially correct"] + single_context_correct
    first = items[0].input
    assert [d.id for d in first.documents] == ["context1", "context2"]
    assert first.response == rows[0]["answer0"] and first.query == rows[0]["question"]


def test_sample_is_deterministic_and_in_file_order(shared_data: Path) -> None:
    items = load_items(shared_data / HUMANEVAL)
    a, b = sample_items(items, 30, seed=3), sample_items(items, 30, seed=3)
    assert [x.input.id for x in a] == [x.input.id for x in b]
    order = {it.input.id: i for i, it in enumerate(items)}
    assert [order[x.input.id] for x in a] == sorted(order[x.input.id] for x in a)
    assert [x.input.id for x in sample_items(items, 30, seed=4)] != [x.input.id for x in a]


def _evaluation(item_id: str, score: float | None) -> Evaluation:
    return Evaluation(id=item_id, method="e2e", graph=FactGraph(query="q"),
                      scores={"comprehensiveness": score})


def test_score_results_counts_undefined_as_mismatch(shared_data: Path) -> None:
    items = load_items(shared_data / HUMANEVAL)[:5]
    scores = {"Correct": 1.0, "Partially correct": 0.5, "Incorrect": 0.0}
    results = [_evaluation(it.input.id, scores[it.label]) for it in items]
    assert score_results("e2e", items, results, n_resamples=200).lmr_strict == 1.0
    results[0] = _evaluation(items[0].input.id, None)
    summary = score_results("e2e", items, results, n_resamples=200)
    assert summary.lmr_strict == pytest.approx(4 / 5) and summary.undefined == 1
    assert summary.confusion[items[0].label].get("undefined") == 1
    with pytest.raises(ValueError, match="no result for 1 inputs"):
        score_results("e2e", items, results[1:], n_resamples=200)


def test_items_are_evaluation_inputs(shared_data: Path) -> None:
    item = load_items(shared_data / HUMANEVAL)[7]
    assert EvaluationInput.model_validate_json(item.input.model_dump_json()) == item.input
