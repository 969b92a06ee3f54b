"""The WikiContradict meta-evaluation reproduces the published label match rates exactly."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from factgraph.cli.main import cli
from factgraph.errors import InputError
from factgraph.evaluation.meta_eval import load_judgements, summarize_judgements

EXPECTED_MATCHES = {
    "gpt-oss-120b": 907,
    "gpt-oss-20b": 945,
    "llama-3.3-70b-instruct": 977,
    "llama-4-maverick-17b-128e-instruct-fp8": 967,
    "Qwen2.5-72B-Instruct": 963,
}


@pytest.fixture
def judgements_file(shared_data: Path) -> Path:
    path = shared_data / "wikicontradict" / "ibm_e2e_judgements.jsonl.gz"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    return path


def test_library_reproduces_matches(judgements_file: Path) -> None:
    summaries = summarize_judgements(load_judgements(judgements_file), n_resamples=200)
    assert {s.judge: s.matches for s in summaries} == EXPECTED_MATCHES
    assert all(s.n == 1200 for s in summaries)


def test_cli_json_reproduces_matches_and_notebook_ci(judgements_file: Path) -> None:
    res = CliRunner().invoke(cli, ["meta-eval", "judgements", str(judgements_file),
                                   "--output", "json"])
    assert res.exit_code == 0, res.output
    data = {d["judge"]: d for d in json.loads(res.stdout)}
    assert {j: d["matches"] for j, d in data.items()} == EXPECTED_MATCHES
    # The paper's notebook: gpt-oss-120b 0.755833 (0.730833-0.779167), BCa, 10k resamples.
    low, high = data["gpt-oss-120b"]["lmr_strict_ci"]
    assert data["gpt-oss-120b"]["lmr_strict"] == pytest.approx(0.755833, abs=1e-6)
    assert low == pytest.approx(0.730833, abs=0.003) and high == pytest.approx(0.779167, abs=0.003)
    # Moderate mapping as recorded alongside (README of the data).
    assert data["gpt-oss-120b"]["lmr_moderate"] == pytest.approx(0.651667, abs=1e-6)
    assert data["gpt-oss-120b"]["no_statements"] == 137


def test_undefined_empty_rows_lower_the_match_count(judgements_file: Path) -> None:
    rows = [r for r in load_judgements(judgements_file) if r.judge == "gpt-oss-120b"]
    zero = summarize_judgements(rows, empty_score=0.0, n_resamples=100)[0]
    undefined = summarize_judgements(rows, empty_score=None, n_resamples=100)[0]
    # Empty rows that matched only because IBM scored them 0.0 ("Incorrect") now mismatch.
    assert undefined.matches < zero.matches


def _row(**kw: object) -> dict[str, object]:
    base: dict[str, object] = {"judge": "j", "row": 0, "answer_index": 3,
                               "human_label": "Correct", "covered": [], "uncovered": []}
    base.update(kw)
    return base


def test_rules_on_handmade_rows(tmp_path: Path) -> None:
    st = {"statement": "x", "context_indices": [1]}
    rows = [
        _row(covered=[st, st]),                                   # S=1, C -> match
        _row(answer_index=1, covered=[st, st]),                   # C on answer1 -> PC: mismatch
        _row(answer_index=2, covered=[st], uncovered=[st]),       # PC (adjusted) vs S=.5 match
        _row(human_label="Incorrect"),                            # empty -> 0 -> I: match
        _row(human_label="Partially correct", covered=[st], uncovered=[st] * 4),  # S=.2 match
    ]
    path = tmp_path / "j.jsonl.gz"
    with gzip.open(path, "wt") as f:
        f.write("\n".join(json.dumps(r) for r in rows) + "\n")
    s = summarize_judgements(load_judgements(path), n_resamples=100)[0]
    assert (s.n, s.matches, s.no_statements) == (5, 4, 1)
    # Moderate: S=.2 is "Incorrect" (strict inequality), so that row no longer matches.
    assert s.matches_moderate == 3


def test_bad_row_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text(json.dumps(_row()) + "\n" + json.dumps(_row(answer_index=9)) + "\n")
    with pytest.raises(InputError, match=r"j.jsonl:2: answer_index"):
        load_judgements(path)


def test_kappa_and_balanced_accuracy_equal_sklearn_per_judge(judgements_file: Path) -> None:
    sk = pytest.importorskip("sklearn.metrics", reason="scikit-learn is the reference")
    from factgraph.evaluation.meta_eval import row_score
    from factgraph.metrics.lmr import adjusted_human_label, strict_label

    rows = load_judgements(judgements_file)
    summaries = {s.judge: s for s in summarize_judgements(rows, n_resamples=0)}
    assert summaries
    for judge, s in summaries.items():
        mine = [r for r in rows if r.judge == judge]
        y_true = [adjusted_human_label(r.human_label, r.answer_index) for r in mine]
        y_pred = [strict_label(row_score(r)) for r in mine]  # type: ignore[arg-type]
        assert s.agreement is not None
        assert abs(s.agreement.kappa - sk.cohen_kappa_score(y_true, y_pred)) <= 1e-9  # type: ignore[operator]
        assert abs(s.agreement.balanced_accuracy  # type: ignore[operator]
                   - sk.balanced_accuracy_score(y_true, y_pred)) <= 1e-9
        assert s.agreement.majority_baseline == pytest.approx(924 / 1200)
    # what the issue measured: the constant beats some judges on LMR, none on kappa
    assert min(s.agreement.kappa for s in summaries.values()) > 0.39  # type: ignore[union-attr,operator,type-var]
    assert summaries["llama-4-maverick-17b-128e-instruct-fp8"].agreement.kappa == pytest.approx(  # type: ignore[union-attr]
        0.454, abs=5e-4)


def test_cli_writes_judge_cards_on_the_test_split(judgements_file: Path, tmp_path: Path) -> None:
    from factgraph.datasets.wikicontradict import load_split
    from factgraph.evaluation.meta_eval import read_judge_card

    res = CliRunner().invoke(cli, ["meta-eval", "judgements", str(judgements_file), "--split",
                                   "test", "--resamples", "200", "--judge-cards",
                                   str(tmp_path / "cards"), "--output", "json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert {d["n"] for d in data} == {len(load_split().test_rows) * 5}
    card = read_judge_card(tmp_path / "cards" / "gpt-oss-120b.json")
    assert card.split == "test" and card.n == 800 and card.model == "gpt-oss-120b"
    assert card.kappa_ci is not None and card.kappa_ci[0] <= card.kappa <= card.kappa_ci[1]  # type: ignore[operator]
    assert "κ" in card.one_line() and "n=800" in card.one_line()


def test_bad_judge_card_is_one_line(tmp_path: Path) -> None:
    from factgraph.evaluation.meta_eval import read_judge_card

    bad = tmp_path / "card.json"
    bad.write_text('{"method": "e2e"}')
    with pytest.raises(InputError, match=r"card.json: (split|n): Field required"):
        read_judge_card(bad)


HOSTILE = "qwen</p><script>alert(1)</script>"


def _hostile_card(tmp_path: Path) -> Path:
    from factgraph.evaluation.meta_eval import JudgeCard, write_judge_card
    from factgraph.metrics.agreement import agreement
    from factgraph.metrics.lmr import LABELS

    y_true = ["Partially correct", "Incorrect", "Correct", "Partially correct"] * 5
    y_pred = ["Partially correct", "Incorrect", "Partially correct", "Correct"] * 5
    card = JudgeCard.from_agreement(method="e2e", model=HOSTILE, options={}, split="test",
                                    a=agreement(y_true, y_pred, LABELS, n_resamples=200))
    path = tmp_path / "card.json"
    write_judge_card(card, path)
    return path


def test_view_and_report_show_the_judge_card_escaped(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parents[1] / "examples" / "heber_results.jsonl"
    card = _hostile_card(tmp_path)
    res = CliRunner().invoke(cli, ["report", str(examples), "-o", str(tmp_path / "r.html"),
                                   "--judge-card", str(card)])
    assert res.exit_code == 0, res.output
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert page.count("judge card: e2e (qwen&lt;/p&gt;&lt;script&gt;") == 2  # beside both tables
    assert "<script>alert(1)</script>" not in page
    views = list((tmp_path / "r_views").glob("*.html"))
    assert views and all("judge card: e2e" in v.read_text(encoding="utf-8") for v in views)
    first_id = json.loads(examples.read_text().splitlines()[0])["id"]
    res = CliRunner().invoke(cli, ["view", str(examples), "--id", first_id, "-o",
                                   str(tmp_path / "v.html"), "--judge-card", str(card)])
    assert res.exit_code == 0, res.output
    view = (tmp_path / "v.html").read_text(encoding="utf-8")
    assert "fg-judge-card" in view and "<script>alert(1)</script>" not in view
    # without a card the page has none
    CliRunner().invoke(cli, ["view", str(examples), "--id", first_id, "-o",
                             str(tmp_path / "plain.html")])
    assert "fg-judge-card" not in (tmp_path / "plain.html").read_text(encoding="utf-8")


def test_bad_judge_card_on_the_cli_is_exit_2(tmp_path: Path) -> None:
    examples = Path(__file__).resolve().parents[1] / "examples" / "heber_results.jsonl"
    bad = tmp_path / "card.json"
    bad.write_text("{not json")
    res = CliRunner().invoke(cli, ["report", str(examples), "-o", str(tmp_path / "r.html"),
                                   "--judge-card", str(bad)])
    assert res.exit_code == 2 and "card.json:1: not JSON" in res.output
    assert not (tmp_path / "r.html").exists()


def test_wikicontradict_judge_card_and_batch_carry_it(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    from factgraph.evaluation.meta_eval import read_judge_card
    from tests.fake_openai import serve
    from tests.pipeline_support import PromptRouter
    from tests.test_cli_pipelines import e2e_by_marker, wikicontradict_file

    data = wikicontradict_file(tmp_path / "wc.jsonl")
    card_path = tmp_path / "wc.card.json"
    inputs = tmp_path / "in.jsonl"
    inputs.write_text(json.dumps({"id": "x", "query": "q?", "response": "answer ONE",
                                  "documents": [{"id": "d1", "text": "c1"},
                                                {"id": "d2", "text": "c2"}]}) + "\n")
    with serve(PromptRouter({"e2e": e2e_by_marker})) as (url, _):
        res = CliRunner().invoke(cli, [
            "meta-eval", "wikicontradict", "--data", str(data), "--results",
            str(tmp_path / "r.jsonl"), "--judge", "e2e-list", "--model", f"openai:m@{url}",
            "--no-cache", "--resamples", "200", "--judge-card", str(card_path)])
        assert res.exit_code == 0, res.output
        assert "kappa" in res.output and "majority baseline" in res.output
        card = read_judge_card(card_path)
        assert (card.method, card.model, card.split, card.n) == ("e2e", "openai:m", "all", 10)
        assert card.lmr_strict == pytest.approx(0.7)
        res = CliRunner().invoke(cli, ["batch", str(inputs), "-o", str(tmp_path / "b.jsonl"),
                                       "--judge", "e2e-list", "--model", f"openai:m@{url}",
                                       "--no-cache", "--judge-card", str(card_path)])
        assert res.exit_code == 0, res.output
        assert "judge card: e2e" in res.output
    from factgraph.io import read_jsonl
    from factgraph.models import Evaluation

    evs = [ev for _, ev in read_jsonl(tmp_path / "b.jsonl", Evaluation)]
    assert evs[0].metadata["judge_card"]["n"] == 10
