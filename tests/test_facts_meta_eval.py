"""Fact-level meta-evaluation (``factgraph meta-eval facts``): the fact-labels format and its
errors, the statistics against scikit-learn / scipy / brute force, the verdicts read from a
graph, the reference points on REALSumm's dev file, and a judged run with --resume."""

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
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    cohen_kappa_score,
    f1_score,
    precision_score,
    recall_score,
)

from factgraph.datasets.fact_labels import load_fact_labels, select_rows
from factgraph.errors import InputError
from factgraph.evaluation.fact_agreement import (
    PER_FACT,
    cluster_bca,
    cluster_cells,
    correlations,
    kendall_per_group,
    per_fact_statistics,
    statistics_of_cells,
)
from factgraph.evaluation.facts_report import fact_verdicts, facts_inputs, facts_report
from factgraph.methods.given_facts import FACT_ID
from factgraph.models import (
    Evaluation,
    FactGraph,
    Origin,
    Relation,
    RelationLabel,
    Statement,
    StatementKind,
)
from tests.pipeline_support import invoke

ROW = {"doc": "a1", "system": "s1", "summary": "The tunnel opened in 1987.",
       "scus": [{"id": "u1", "text": "The tunnel opened in 1987.", "present": True,
                 "votes": [1, 1, 0]},
                {"id": "u2", "text": "The tunnel is 4 km long.", "present": False,
                 "votes": [0, 1, 0]}]}


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


# --- the format ------------------------------------------------------------------------------

def test_reader_names_line_and_field(tmp_path: Path) -> None:
    bad = {**ROW, "scus": [{"id": "u1", "text": "x", "votes": [1]}]}
    path = _write(tmp_path / "f.jsonl", [ROW, bad])
    with pytest.raises(InputError, match=r"f.jsonl:2: scus.0.present: Field required"):
        load_fact_labels(path)
    _write(path, [ROW, ROW])
    with pytest.raises(InputError, match=r"f.jsonl:2: doc/system 'a1/s1' appears twice"):
        load_fact_labels(path)
    _write(path, [{**ROW, "scus": [ROW["scus"][0], ROW["scus"][0]]}])  # type: ignore[index]
    with pytest.raises(InputError, match=r"f.jsonl:1: scus: duplicate fact ids \['u1'\]"):
        load_fact_labels(path)
    _write(path, [{**ROW, "scus": [{**ROW["scus"][0], "votes": [2]}]}])  # type: ignore[index]
    with pytest.raises(InputError, match=r"f.jsonl:1: scus.0.votes: each vote is 0 or 1"):
        load_fact_labels(path)


def test_cli_bad_row_is_one_line(tmp_path: Path) -> None:
    path = _write(tmp_path / "f.jsonl", [{**ROW, "summary": 3}])
    res = invoke("meta-eval", "facts", str(path))
    assert res.exit_code != 0
    lines = [x for x in res.output.splitlines() if x.strip()]
    assert len(lines) == 1 and "f.jsonl:1: summary" in lines[0]


def test_schema_of_the_format() -> None:
    schema = json.loads(invoke("schema", "facts").output)
    assert {"doc", "system", "summary", "scus"} <= set(schema["required"])


def test_inputs_are_the_summaries_with_their_facts_given() -> None:
    from factgraph.datasets.fact_labels import FactLabelsRow

    row = FactLabelsRow.model_validate(ROW)
    [(rid, inp)] = facts_inputs([row])
    assert rid == inp.id == "a1/s1" and inp.query == "" and inp.response == ROW["summary"]
    assert [(f.id, f.text) for f in inp.facts] == [("u1", "The tunnel opened in 1987."),
                                                   ("u2", "The tunnel is 4 km long.")]


def test_select_rows_takes_the_first_articles_in_sorted_order() -> None:
    from factgraph.datasets.fact_labels import FactLabelsRow

    rows = [FactLabelsRow.model_validate({**ROW, "doc": d, "system": s})
            for d in ("c", "a", "b") for s in ("x", "y")]
    assert [r.row_id for r in select_rows(rows, docs=2)] == ["a/x", "a/y", "b/x", "b/y"]
    assert [r.row_id for r in select_rows(rows, docs=2, limit=3)] == ["a/x", "a/y", "b/x"]


# --- statistics ------------------------------------------------------------------------------

labels = st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=60)


def _close(a: float | None, b: float) -> bool:
    return a is not None and abs(a - b) < 1e-9


@settings(max_examples=300, deadline=None)
@given(labels)
def test_per_fact_statistics_equal_sklearns(pairs: list[tuple[bool, bool]]) -> None:
    y = [a for a, _ in pairs]
    p = [b for _, b in pairs]
    got = per_fact_statistics(y, p)
    missing_t = [not v for v in y]
    missing_p = [not v for v in p]
    assert _close(got["accuracy"], accuracy_score(y, p))
    if len(set(y)) == 2:
        assert _close(got["balanced_accuracy"], balanced_accuracy_score(y, p))
    else:
        assert got["balanced_accuracy"] is None
    if any(missing_p):
        assert _close(got["precision_missing"],
                      precision_score(missing_t, missing_p, zero_division=0))
    else:
        assert got["precision_missing"] is None
    if any(missing_t):
        assert _close(got["recall_missing"], recall_score(missing_t, missing_p))
    else:
        assert got["recall_missing"] is None
    if any(missing_t) or any(missing_p):
        assert _close(got["f1_missing"], f1_score(missing_t, missing_p))
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            kappa = cohen_kappa_score(y, p)
    if math.isfinite(kappa) and got["kappa"] is not None:
        assert _close(got["kappa"], kappa)
    else:
        assert got["kappa"] is None or not math.isfinite(kappa)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.booleans(), st.sampled_from("abcde")),
                min_size=1, max_size=50), st.lists(st.integers(0, 4), min_size=1, max_size=8))
def test_a_resample_of_clusters_is_the_statistic_of_their_facts(
        facts: list[tuple[bool, bool, str]], draw: list[int]) -> None:
    """What the vectorised bootstrap computes for one resample equals the statistics of the
    facts of the drawn clusters, concatenated (brute force)."""
    y, p, c = ([f[0] for f in facts], [f[1] for f in facts], [f[2] for f in facts])
    per = cluster_cells(y, p, c)
    names = sorted(set(c))
    idx = [d % len(names) for d in draw]
    drawn = [(a, b) for i in idx for a, b, cc in facts if cc == names[i]]
    brute = per_fact_statistics([a for a, _ in drawn], [b for _, b in drawn])
    fast = statistics_of_cells(per[np.array(idx)].sum(axis=0))
    for name, v in zip(PER_FACT, fast.tolist(), strict=True):
        assert (brute[name] is None and math.isnan(v)) or _close(brute[name], v)


def test_cluster_bca_holds_the_point_and_is_none_for_few_clusters() -> None:
    rng = np.random.default_rng(0)
    y = rng.random(400) < 0.5
    p = np.where(rng.random(400) < 0.8, y, ~y)
    c = [f"d{k % 20}" for k in range(400)]
    point = per_fact_statistics(y.tolist(), p.tolist())
    cis = cluster_bca(cluster_cells(y.tolist(), p.tolist(), c), n_resamples=500)
    for name, ci in zip(PER_FACT, cis, strict=True):
        assert ci is not None and ci[0] <= point[name] <= ci[1], name  # type: ignore[operator]
    assert cluster_bca(cluster_cells(y.tolist(), p.tolist(), ["a", "b"] * 200)) == [None] * 6


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.25, 0.5, 1.0]),
                          st.sampled_from([0.0, 0.3, 0.6, 1.0]), st.sampled_from("abc")),
                min_size=2, max_size=40))
def test_kendall_per_article_is_the_mean_of_scipys_per_group(
        rows: list[tuple[float, float, str]]) -> None:
    x, y, g = ([r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows])
    want = []
    for name in sorted(set(g)):
        xs = [a for a, _, h in rows if h == name]
        ys = [b for _, b, h in rows if h == name]
        if len(xs) >= 2 and len(set(xs)) > 1 and len(set(ys)) > 1:
            want.append(stats.kendalltau(xs, ys).statistic)
    mean, taus = kendall_per_group(x, y, g)
    assert np.allclose(taus, want)
    assert (mean is None and not want) or _close(mean, float(np.mean(want)))
    r, tau = correlations(x, y)
    if len(set(x)) > 1 and len(set(y)) > 1:
        assert _close(r, stats.pearsonr(x, y).statistic)
        assert _close(tau, stats.kendalltau(x, y).statistic)


# --- verdicts --------------------------------------------------------------------------------

def _fact(n: int, given: str) -> Statement:
    return Statement(id=f"g{n}", text=f"fact {n}", origin=Origin.context,
                     kind=StatementKind.fact, metadata={FACT_ID: given, "p_covered": n / 10})


def test_verdicts_read_coverage_and_contradiction_from_the_graph() -> None:
    r = Statement(id="r", text="the response", origin=Origin.response)
    graph = FactGraph(query="", statements=[r, _fact(1, "u1"), _fact(2, "u2"), _fact(3, "u3"),
                                            _fact(4, "u4")],
                      relations=[
                          Relation(src="r", dst="g1", label=RelationLabel.entails),
                          Relation(src="g1", dst="g4", label=RelationLabel.entails),  # a path
                          Relation(src="r", dst="g2", label=RelationLabel.entails),
                          Relation(src="r", dst="g2", label=RelationLabel.contradicts),
                      ])
    ev = Evaluation(id="a1/s1", method="e2e", graph=graph)
    got = fact_verdicts(ev)
    assert got.verdicts == {"u1": "covered", "u2": "contradicted", "u3": "missing",
                            "u4": "covered"}
    assert got.p_covered == {"u1": 0.1, "u2": 0.2, "u3": 0.3, "u4": 0.4}
    incomplete = ev.model_copy(update={"metadata": {"incomplete": "no sentence"}})
    assert fact_verdicts(incomplete).verdicts == {}


def test_report_counts_contradicted_as_not_present_and_leaves_undecided_out() -> None:
    from factgraph.datasets.fact_labels import FactLabelsRow
    from factgraph.evaluation.facts_report import JudgedFacts

    rows = [FactLabelsRow.model_validate({**ROW, "system": s}) for s in ("s1", "s2", "s3")]
    judged = {"a1/s1": JudgedFacts(verdicts={"u1": "covered", "u2": "contradicted"}),
              "a1/s2": JudgedFacts(verdicts={"u1": "contradicted", "u2": "missing"}),
              "a1/s3": JudgedFacts(verdicts={"u1": "covered"})}  # u2 undecided
    rep = facts_report(rows, judged, judge="j", n_resamples=0)
    assert rep.facts == 5 and rep.undefined == 1 and rep.summaries == 3
    me = rep.rows[0]
    assert me.scorer == "j" and me.contradicted == 2 and me.contradicted_not_present == 0.5
    # present: u1 (x3); judged present only where covered: s1/u1, s3/u1
    assert me.recall_missing == 1.0 and me.precision_missing == pytest.approx(2 / 3)
    names = [r.scorer for r in rep.rows[1:]]
    assert names[0] == "word share ≥ 0.3 (no model)" and names[2] == "people (annotator 1 vs 2)"
    assert names[1].endswith("(no model; optimistic)") and rep.rows[2].optimistic


# --- the shipped dev file ----------------------------------------------------------------------

def _dev(shared_data: Path) -> Path:
    path = shared_data / "realsumm" / "scu_presence_dev.jsonl.gz"
    if not path.exists():
        pytest.skip("the REALSumm dev file is absent")
    return path


def test_reference_points_on_the_dev_file(shared_data: Path) -> None:
    """The data README's numbers, to the third decimal: the word share at 0.3 and at its best
    cut-off (0.6), and the people's own agreement."""
    res = invoke("meta-eval", "facts", str(_dev(shared_data)), "--resamples", "0",
                 "--format", "json")
    report = json.loads(res.output)
    rows = {r["scorer"]: r for r in report["rows"]}
    assert report["facts"] == 12471 and report["summaries"] == 1200 and report["articles"] == 50
    assert round(rows["word share ≥ 0.3 (no model)"]["kappa"], 3) == 0.292
    assert round(rows["word share ≥ 0.6 (no model; optimistic)"]["kappa"], 3) == 0.486
    assert round(rows["people (annotator 1 vs 2)"]["kappa"], 3) == 0.747
    table = invoke("meta-eval", "facts", str(_dev(shared_data)), "--resamples", "0").output
    for shown in ("0.292", "0.486", "0.747"):
        assert shown in table


def test_judged_run_appends_and_resumes(shared_data: Path, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A model-free judge (the long-form judge on keyword axes instead of MiniLM) over the
    first article's first four summaries: the table holds the judge, the baselines and the
    people; --resume evaluates nothing twice; --judge-card writes the card."""
    import factgraph.cli.evaluate as cli_evaluate
    from factgraph.methods.run import Backends
    from tests.test_long_form_judge import AxisEmbeddings

    calls: list[str] = []

    def evaluator_of(config):  # type: ignore[no-untyped-def]
        ev = config.evaluator(Backends(embeddings=AxisEmbeddings()))

        def run(inp):  # type: ignore[no-untyped-def]
            calls.append(inp.id)
            return ev(inp)
        return run

    monkeypatch.setattr(cli_evaluate, "evaluator_of", evaluator_of)
    results, card = tmp_path / "r.jsonl", tmp_path / "card.json"
    args = ["meta-eval", "facts", str(_dev(shared_data)), "--judge",
            "e2e-sentences-model-free", "--results", str(results), "--articles", "1",
            "--resamples", "0"]
    res = invoke(*args, "--limit", "2", "--format", "json")
    assert res.exit_code == 0, res.output
    assert len(calls) == 2
    res = invoke(*args, "--limit", "4", "--resume", "--judge-card", str(card))
    assert res.exit_code == 0, res.output
    assert len(calls) == 4 and len(set(calls)) == 4  # the first two were not redone
    assert len(results.read_text(encoding="utf-8").splitlines()) == 4
    for shown in ("e2e-sentences-model-free", "word share ≥ 0.3", "optimistic)", "people",
                  "cost per fact", "(share covered)"):
        assert shown in res.output, shown
    written = json.loads(card.read_text(encoding="utf-8"))
    assert written["kind"] == "factgraph fact-level judge card"
    assert written["judge"] == "e2e-sentences-model-free" and written["report"]["summaries"] == 4
    with gzip.open(_dev(shared_data), "rt", encoding="utf-8") as f:
        first = sorted({json.loads(line)["doc"] for line in f})[0]
    assert all(c.startswith(f"{first}/") for c in calls)
    res = invoke(*args, "--limit", "4", "--score-only", "--format", "json")
    assert json.loads(res.output)["rows"][0]["scorer"] == "e2e-sentences-model-free"
    assert len(calls) == 4


@pytest.mark.model
def test_the_default_long_form_judge_runs_with_minilm(shared_data: Path, tmp_path: Path) -> None:
    results = tmp_path / "r.jsonl"
    res = invoke("meta-eval", "facts", str(_dev(shared_data)), "--judge",
                 "e2e-sentences-model-free", "--results", str(results), "--articles", "1",
                 "--limit", "3", "--resamples", "0", "--format", "json", "-o",
                 str(tmp_path / "report.json"))
    assert res.exit_code == 0, res.output
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    rows = {r["scorer"]: r for r in report["rows"]}
    assert rows["e2e-sentences-model-free"]["facts"] > 0


def test_expected_coverage_row_when_every_fact_has_a_probability() -> None:
    from factgraph.datasets.fact_labels import FactLabelsRow
    from factgraph.evaluation.facts_report import JudgedFacts

    rows = [FactLabelsRow.model_validate({**ROW, "system": s}) for s in ("s1", "s2", "s3")]
    judged = {f"a1/s{k}": JudgedFacts(verdicts={"u1": "covered", "u2": "missing"},
                                      p_covered={"u1": 0.9, "u2": 0.1 * k})
              for k in (1, 2, 3)}
    rep = facts_report(rows, judged, judge="j", n_resamples=0)
    names = [r.scorer for r in rep.summary_rows]
    assert names[:2] == ["j (share covered)", "j (expected coverage)"]
    del judged["a1/s3"].p_covered["u2"]  # one fact without a probability: no such row
    rep = facts_report(rows, judged, judge="j", n_resamples=0)
    assert "j (expected coverage)" not in [r.scorer for r in rep.summary_rows]


FACTS_RESULTS = Path(__file__).resolve().parent.parent / "benchmarks" / "results" / "facts"
FACTS_CARDS = Path(__file__).resolve().parent.parent / "docs" / "judge_cards" / "facts"


def test_shipped_results_rescore_to_their_card(shared_data: Path) -> None:
    """The long-form judge's shipped results on the first 10 dev articles, scored again
    without a model, give the card's figures; ``factgraph judges`` reads such a card."""
    from factgraph.cli.judges import _headline

    judge = "e2e-sentences-model-free"
    card_path = FACTS_CARDS / f"{judge}-dev10.json"
    card = json.loads(card_path.read_text(encoding="utf-8"))
    res = invoke("meta-eval", "facts", str(_dev(shared_data)), "--results",
                 str(FACTS_RESULTS / f"{judge}-dev10.jsonl.gz"), "--judge", judge, "--score-only",
                 "--articles", "10", "--resamples", "0", "--format", "json")
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    want = card["report"]
    assert got["facts"] == want["facts"] == 2595 and got["summaries"] == 240
    rows = {r["scorer"]: r for r in got["rows"]}
    for row in want["rows"]:
        for stat in ("accuracy", "balanced_accuracy", "kappa", "precision_missing",
                     "recall_missing", "f1_missing"):
            assert rows[row["scorer"]][stat] == pytest.approx(row[stat], abs=1e-12), stat
    summary = {r["scorer"]: r for r in got["summary_rows"]}
    for row in want["summary_rows"]:
        for stat in ("pearson", "kendall_per_article", "system_pearson", "system_kendall"):
            assert summary[row["scorer"]][stat] == pytest.approx(row[stat], abs=1e-12), stat
    headline = _headline(card_path)
    assert headline is not None and headline["n"] == 2595
    assert headline["kappa"] == pytest.approx(rows[judge]["kappa"])


@pytest.mark.parametrize(("judge", "stem", "articles"), [
    ("e2e-evidence", "e2e-evidence-dev", None),
    ("e2e-evidence-cascade", "e2e-evidence-cascade-dev6", 6),
])
def test_the_evidence_judges_results_rescore_to_their_cards(
        shared_data: Path, judge: str, stem: str, articles: int | None) -> None:
    """The evidence judges' shipped fact-level results (the model-free one on all of REALSumm
    dev, the cascade on its first 6 articles), scored again without a model, give their
    cards' figures, contradicted facts included."""
    card = json.loads((FACTS_CARDS / f"{judge}.json").read_text(encoding="utf-8"))
    res = invoke("meta-eval", "facts", str(_dev(shared_data)), "--results",
                 str(FACTS_RESULTS / f"{stem}.jsonl.gz"), "--judge", judge, "--score-only",
                 *(["--articles", str(articles)] if articles else []),
                 "--resamples", "0", "--format", "json")
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    want = card["report"]
    assert got["facts"] == want["facts"] > 0
    rows = {r["scorer"]: r for r in got["rows"]}
    for row in want["rows"]:
        for stat in ("kappa", "precision_missing", "recall_missing", "contradicted"):
            want_value = row.get(stat)
            assert rows[row["scorer"]].get(stat) == (
                None if want_value is None else pytest.approx(want_value, abs=1e-12)), stat
    summary = {r["scorer"]: r for r in got["summary_rows"]}
    for row in want["summary_rows"]:
        assert summary[row["scorer"]]["kendall_per_article"] == pytest.approx(
            row["kendall_per_article"], abs=1e-12)
