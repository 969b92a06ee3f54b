"""Pairwise meta-evaluation (RAGChecker's protocol): statistics against scipy, the reader's
errors, and the reference points on the shipped dev file."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from factgraph.datasets.pairwise import load_pairwise
from factgraph.errors import InputError
from factgraph.evaluation.pairwise import (
    annotator_agreement,
    content_word_recall,
    kendall_tau_b,
    pairwise_accuracy,
    pearson,
    preference_agreement,
    response_length,
    spearman,
)
from tests.pipeline_support import invoke

values = st.lists(st.sampled_from([-2.0, -1.0, -0.5, 0.0, 0.25, 1.0, 2.0, 3.5]),
                  min_size=2, max_size=40)


def _same(a: float, b: float) -> bool:
    return (math.isnan(a) and math.isnan(b)) or abs(a - b) < 1e-9


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_correlations_equal_scipys(data: st.DataObject) -> None:
    x = np.array(data.draw(values))
    y = np.array(data.draw(st.lists(st.sampled_from([-2.0, -1.0, 0.0, 1.0, 2.0, 0.7]),
                                    min_size=len(x), max_size=len(x))))
    constant = np.all(x == x[0]) or np.all(y == y[0])
    want_r = math.nan if constant else stats.pearsonr(x, y).statistic
    want_rho = math.nan if constant else stats.spearmanr(x, y).statistic
    want_tau = math.nan if constant else stats.kendalltau(x, y, variant="b").statistic
    assert _same(pearson(x, y), want_r)
    assert _same(spearman(x, y), want_rho)
    assert _same(kendall_tau_b(x, y), want_tau)


@given(values, st.lists(st.sampled_from([-2, -1, 0, 1, 2]), min_size=2, max_size=40))
def test_pairwise_accuracy_by_definition(diff: list[float], label: list[int]) -> None:
    n = min(len(diff), len(label))
    d, lab = np.array(diff[:n]), np.array(label[:n], dtype=float)
    decided = [(a, b) for a, b in zip(d, lab, strict=True) if b != 0]
    got = pairwise_accuracy(d, lab)
    if not decided:
        assert math.isnan(got)
        return
    want = sum(0.5 if a == 0 else float((a > 0) == (b > 0)) for a, b in decided) / len(decided)
    assert got == pytest.approx(want)


def test_rows_repeat_the_difference_per_annotator_and_skip_undefined() -> None:
    scores = [(0.2, 0.6), (0.5, 0.1), (None, 0.3), (0.4, 0.4)]
    labels = [[1, 2], [-1, -1], [2, 2], [0, 1]]
    a = preference_agreement("s", scores, labels, n_resamples=0)
    x = [0.4, 0.4, -0.4, -0.4, 0.0, 0.0]
    y = [1, 2, -1, -1, 0, 1]
    assert a.undefined == 1 and a.instances == 3 and a.rows == 6
    assert a.pearson == pytest.approx(stats.pearsonr(x, y).statistic)
    assert a.spearman == pytest.approx(stats.spearmanr(x, y).statistic)
    assert a.decided_rows == 5
    assert a.pairwise_accuracy == pytest.approx((1 + 1 + 1 + 1 + 0.5) / 5)


def test_bca_interval_resamples_instances_and_holds_the_point() -> None:
    rng = np.random.default_rng(3)
    true = rng.normal(size=60)
    scores = [(0.0, float(t + rng.normal(scale=0.5))) for t in true]
    labels = [[int(np.clip(round(t), -2, 2))] * 2 for t in true]
    a = preference_agreement("s", scores, labels, n_resamples=500)
    for name in ("pearson", "spearman", "kendall_tau_b", "pairwise_accuracy"):
        lo, hi = getattr(a, f"{name}_ci")
        assert lo < getattr(a, name) < hi


def test_annotator_agreement_is_order_free() -> None:
    labels = [[1, 2], [0, -1], [-2, -2], [1, 0], [2, 1]]
    a = annotator_agreement(labels, n_resamples=0)
    b = annotator_agreement([[y, x] for x, y in labels], n_resamples=0)
    assert a.pearson == pytest.approx(b.pearson)
    assert a.pairwise_accuracy == pytest.approx(b.pairwise_accuracy)
    assert a.pearson == pytest.approx(stats.pearsonr([1, 0, -2, 1, 2], [2, -1, -2, 0, 1])[0])


def test_baselines_by_their_definitions() -> None:
    ref = "The Dam of the river, built in 1900, holds the lake and the dam is tall."
    # content tokens: dam river built 1900 holds lake dam tall (8; "dam" twice)
    assert content_word_recall(ref, "A dam was built") == pytest.approx(3 / 8)
    assert content_word_recall("the of and", "x") is None
    assert response_length("It's 3 words, isn't it?") == 7.0


def _row(**over: object) -> dict[str, object]:
    row: dict[str, object] = {
        "instance_id": 1, "query": "q?", "gt_answer": "ref",
        "model1": {"model_name": "a", "response": "one"},
        "model2": {"model_name": "b", "response": "two"},
        "human": [{"correctness_label": 0, "completeness_label": 1, "overall_label": 2}]}
    row.update(over)
    return row


def test_reader_names_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    bad = _row(instance_id=2, human=[{"correctness_label": 0, "completeness_label": 3,
                                      "overall_label": 0}])
    path.write_text(json.dumps(_row()) + "\n" + json.dumps(bad) + "\n", encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_pairwise(path)
    assert ":2:" in str(e.value) or "line 2" in str(e.value)
    assert "completeness_label" in str(e.value)
    path.write_text(json.dumps(_row()) + "\n" + json.dumps(_row()) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="appears twice"):
        load_pairwise(path)


def test_cli_bad_row_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "p.jsonl"
    path.write_text(json.dumps(_row(model1={"model_name": "a"})) + "\n", encoding="utf-8")
    res = invoke("meta-eval", "pairwise", str(path))
    assert res.exit_code == 2
    assert "model1.response" in res.output and len(res.output.strip().splitlines()) == 1


def test_schema_of_the_format() -> None:
    res = invoke("schema", "pairwise")
    schema = json.loads(res.output)
    assert {"query", "model1", "model2", "human"} <= set(schema["required"])


def _dev(shared_data: Path) -> Path:
    path = shared_data / "ragchecker" / "meta_eval_dev.jsonl.gz"
    if not path.exists():
        pytest.skip("the RAGChecker dev file is absent")
    return path


def test_reference_points_on_the_dev_file(shared_data: Path) -> None:
    """The issue's numbers, to the second decimal: RAGChecker's recorded scores, the
    annotators, and the two model-free baselines (Pearson / Spearman x100)."""
    res = invoke("meta-eval", "pairwise", str(_dev(shared_data)), "--resamples", "0",
                 "--format", "json")
    rows = {r["scorer"]: r for r in json.loads(res.output)["rows"]}
    want = {"RAGChecker (recorded)": (55.02, 53.32), "annotator vs annotator": (74.31, 69.83),
            "content-word recall of the reference (no model)": (63.33, 59.44),
            "response length (no model)": (22.89, 29.57)}
    for name, (r, rho) in want.items():
        assert round(100 * rows[name]["pearson"], 2) == r, name
        assert round(100 * rows[name]["spearman"], 2) == rho, name
        assert rows[name]["undefined"] == 0


def test_dev_file_reads(shared_data: Path) -> None:
    rows = load_pairwise(_dev(shared_data))
    assert len(rows) == 84 and all(len(r.human) == 2 for r in rows)
    with gzip.open(_dev(shared_data), "rt", encoding="utf-8") as f:
        assert sum(1 for _ in f) == 84


LONGFORM = Path(__file__).resolve().parent.parent / "benchmarks" / "results" / "longform"
CARDS = Path(__file__).resolve().parent.parent / "docs" / "judge_cards" / "long-form"


@pytest.mark.parametrize("judge", ["e2e-sentences-model-free", "e2e-sentences-cascade",
                                   "e2e-evidence", "e2e-evidence-cascade"])
def test_shipped_results_rescore_to_their_cards(shared_data: Path, judge: str) -> None:
    """The shipped dev results, scored again without a model, give the card's figures."""
    results = LONGFORM / f"{judge}-dev.jsonl.gz"
    card = json.loads((CARDS / f"{judge}.json").read_text(encoding="utf-8"))
    res = invoke("meta-eval", "pairwise", str(_dev(shared_data)), "--results", str(results),
                 "--judge", judge, "--score-only", "--resamples", "0", "--format", "json")
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    want = card["report"]
    assert got["instances"] == want["instances"] > 0
    rows = {r["scorer"]: r for r in got["rows"]}
    assert want["rows"]
    for row in want["rows"]:
        for stat in ("pearson", "spearman", "kendall_tau_b", "pairwise_accuracy"):
            assert rows[row["scorer"]][stat] == pytest.approx(row[stat], abs=1e-12), stat
        assert rows[row["scorer"]]["undefined"] == row["undefined"]
