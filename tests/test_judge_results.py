"""The README's small-model judge rows re-score from the shipped results files: re-reading the
recorded probabilities (no model) with the cut-off tuned on the shipped dev answers gives the
κ, balanced accuracy and n of the judge card the table is built from."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from benchmarks.judges import main as judges_main

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "judges"
CARDS = ROOT / "docs" / "judge_cards"


@pytest.mark.parametrize(("judge", "n", "dev_n", "card"), [
    ("e2e-answers-several", 160, 80, "13-e2e-answers-several.json"),
    ("e2e-answers-polarity", 160, 80, "14-e2e-answers-polarity.json"),
    ("e2e-answers", 160, 80, "15-e2e-answers.json"),
    ("e2e-per-fact", 160, 20, "16-e2e-per-fact.json"),
    ("nli-tuned", 30, 20, "31-nli-tuned.json"),  # dev: one file per candidate cut-off
    ("qa", 30, 0, "35-qa.json"),  # nothing to tune: no dev answers
])
def test_shipped_results_reproduce_the_judge_card(judge: str, n: int, dev_n: int, card: str,
                                                  shared_data: Path, tmp_path: Path) -> None:
    shipped_files = sorted(RESULTS.glob(f"{judge}-*.jsonl.gz"))
    assert any(f.name == f"{judge}-test.jsonl.gz" for f in shipped_files)
    for src in shipped_files:
        (tmp_path / src.name[:-3]).write_bytes(gzip.decompress(src.read_bytes()))
    rc = judges_main(["--model", "none:none", "--judges", judge, "--n", str(n),
                      "--dev-n", str(dev_n), "--per-question", "5", "--runs", str(tmp_path),
                      "--data", str(shared_data / "wikicontradict"
                                    / "wiki_contradict_simple_humaneval.jsonl"),
                      "--score-only", "--resamples", "200"])
    assert rc == 0
    got = json.loads((tmp_path / f"{judge}.card.json").read_text())
    shipped = json.loads((CARDS / card).read_text())
    assert got["n"] == shipped["n"] == n
    assert got["options"] == shipped["options"]
    for key in ("kappa", "balanced_accuracy", "lmr_strict", "majority_baseline"):
        assert got[key] == pytest.approx(shipped[key], abs=1e-12), key


def test_the_answer_judge_on_ten_answers_per_test_question_reproduces_its_card(
        shared_data: Path, tmp_path: Path) -> None:
    """The README's 320-answer row: the default answer judge on 10 answers per test question
    (a superset of the 160-answer row's answers), cut-off tuned on the 160 dev answers."""
    judge = "e2e-answers-several"
    for src, dst in [(f"{judge}-dev", f"{judge}-dev"), (f"{judge}-test320", f"{judge}-test")]:
        (tmp_path / f"{dst}.jsonl").write_bytes(
            gzip.decompress((RESULTS / f"{src}.jsonl.gz").read_bytes()))
    rc = judges_main(["--model", "none:none", "--judges", judge, "--n", "320",
                      "--dev-n", "160", "--per-question", "10", "--runs", str(tmp_path),
                      "--data", str(shared_data / "wikicontradict"
                                    / "wiki_contradict_simple_humaneval.jsonl"),
                      "--score-only", "--resamples", "200"])
    assert rc == 0
    got = json.loads((tmp_path / f"{judge}.card.json").read_text())
    shipped = json.loads((CARDS / "12-e2e-answers-several-320.json").read_text())
    assert got["n"] == shipped["n"] == 320
    assert got["options"] == shipped["options"]
    for key in ("kappa", "balanced_accuracy", "lmr_strict", "majority_baseline"):
        assert got[key] == pytest.approx(shipped[key], abs=1e-12), key


@pytest.mark.parametrize(("judge", "per_question", "n", "cutoff", "kappa", "balanced_accuracy"), [
    ("e2e-answers", 5, 80, 0.65, 0.303, 0.631),
    ("e2e-answers", 10, 160, 0.7, 0.262, 0.579),
    ("e2e-answers-resp", 5, 80, 0.65, 0.252, 0.546),  # response_answers: left off
    ("e2e-answers-resp", 10, 160, 0.7, 0.256, 0.543),
    ("e2e-answers-polarity", 5, 80, 0.7, 0.339, 0.692),  # yes_no_polarity: the default
    ("e2e-answers-polarity", 10, 160, 0.7, 0.314, 0.656),
    ("e2e-answers-several", 5, 80, 0.7, 0.424, 0.728),  # several_answers_check: the default
    ("e2e-answers-several", 10, 160, 0.7, 0.379, 0.661),
])
def test_shipped_dev_answers_give_the_documented_dev_numbers(
        judge: str, per_question: int, n: int, cutoff: float, kappa: float,
        balanced_accuracy: float, shared_data: Path) -> None:
    """docs/judges.md's dev comparison of the answer judge's variants: the cut-off tuned on the
    shipped dev answers (the first 80 = 5 per dev question, and all 160 = 10 per question), and
    κ / balanced accuracy there."""
    from benchmarks.judges import ordered_items, tune_cutoff
    from factgraph.datasets.wikicontradict import load_items, predicted_label, split_items
    from factgraph.methods.e2e.fact_questions import per_fact_score
    from factgraph.metrics.agreement import balanced_accuracy as ba
    from factgraph.metrics.agreement import cohen_kappa
    from factgraph.models import Evaluation

    items = load_items(shared_data / "wikicontradict" / "wiki_contradict_simple_humaneval.jsonl")
    dev = ordered_items(split_items(items, "dev"), per_question, 16)[:n]
    lines = gzip.decompress((RESULTS / f"{judge}-dev.jsonl.gz").read_bytes()).splitlines()
    by_id = {e.id: e for e in (Evaluation.model_validate_json(line) for line in lines
                               if line.strip())}
    assert {it.input.id for it in dev} <= set(by_id)
    evs = [by_id[it.input.id] for it in dev]
    assert tune_cutoff(dev, evs) == cutoff
    human = [it.label for it in dev]
    judged = [predicted_label(per_fact_score(e, cutoff)) for e in evs]
    assert cohen_kappa(human, judged) == pytest.approx(kappa, abs=5e-4)
    assert ba(human, judged) == pytest.approx(balanced_accuracy, abs=5e-4)
