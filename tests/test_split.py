"""The shipped WikiContradict dev / test split: disjoint by question, complete, reproducible."""

from __future__ import annotations

from pathlib import Path

import pytest

from factgraph.datasets.wikicontradict import (
    WikiContradictRow,
    load_items,
    load_split,
    make_split,
    split_items,
)
from factgraph.io import read_jsonl

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "wikicontradict" / \
    "wiki_contradict_simple_humaneval.jsonl"


def test_make_split_keeps_every_question_on_one_side() -> None:
    questions = [f"q{n % 7}" for n in range(35)]  # 7 questions, 5 rows each, interleaved
    sp = make_split(questions, seed=3, dev_questions=2)
    assert set(sp.dev_rows).isdisjoint(sp.test_rows)
    assert sorted(sp.dev_rows + sp.test_rows) == list(range(35))
    assert set(sp.dev_questions).isdisjoint(sp.test_questions)
    assert len(sp.dev_questions) == 2 and len(sp.test_questions) == 5
    for n in sp.dev_rows:
        assert questions[n] in sp.dev_questions
    for n in sp.test_rows:
        assert questions[n] in sp.test_questions
    assert make_split(questions, seed=3, dev_questions=2) == sp
    assert make_split(questions, seed=4, dev_questions=2).dev_questions != sp.dev_questions or \
        make_split(questions, seed=5, dev_questions=2).dev_questions != sp.dev_questions


def test_shipped_split_is_disjoint_by_question() -> None:
    sp = load_split()
    assert set(sp.dev_questions).isdisjoint(sp.test_questions)
    assert set(sp.dev_rows).isdisjoint(sp.test_rows)
    assert sorted(sp.dev_rows + sp.test_rows) == list(range(240))


@pytest.mark.skipif(not DATA.exists(), reason=f"WikiContradict data not at {DATA}")
def test_shipped_split_matches_the_data_and_its_seed() -> None:
    questions = [row.question for _, row in read_jsonl(DATA, WikiContradictRow)]
    shipped = load_split()
    assert make_split(questions, seed=shipped.seed,
                      dev_questions=len(shipped.dev_questions)) == shipped
    items = load_items(DATA)
    dev, test = split_items(items, "dev"), split_items(items, "test")
    assert len(dev) + len(test) == 1200
    dev_q = {it.input.query for it in dev}
    test_q = {it.input.query for it in test}
    assert dev_q.isdisjoint(test_q)
    # all five answers of every row, all rows of every question, on one side
    assert {it.input.id for it in dev}.isdisjoint({it.input.id for it in test})
    for side in (dev, test):
        rows = {it.row for it in side}
        assert len(side) == 5 * len(rows)
    assert sum(it.same_contexts for it in items) == 35 * 5


def test_split_refuses_a_different_file() -> None:
    from factgraph.datasets.wikicontradict import LabelledInput
    from factgraph.inputs import Document, EvaluationInput

    items = [LabelledInput(input=EvaluationInput(id=f"wc{r}-a0", query="q", response="r",
                                                 documents=[Document(id="c", text="t")]),
                           label="Correct", row=r) for r in range(10)]
    with pytest.raises(ValueError, match="covers 240 rows"):
        split_items(items, "test")
    assert split_items(items, "all") == items
