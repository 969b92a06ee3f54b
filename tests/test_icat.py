"""ICAT-M / -S / -A on a hand-made corpus with scripted model decisions (Samarinas et al. 2025,
§3), and the ICAT iteration gate (as in an ICAT integration guide for a LangGraph multi-agent RAG
system). Every expected score is computed by hand in the test.

The case (tests/icat_support.py): 4 claims; r1 is entailed by d1, r2 by d2, r3 is contradicted
by d2, r4 is supported by nothing -> S_fact = 2/4 for every variant.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from icat_support import (
    ASPECTS,
    CLAIMS,
    DOCS,
    Router,
    block,
    case,
    session,
    write_aspects,
    write_corpus,
)

from factgraph.cli.main import cli
from factgraph.config import ConfigError, EvaluationConfig
from factgraph.evaluation.gate import DraftScore, GateConfig, iteration_gate
from factgraph.methods import get_method
from factgraph.methods.icat import (
    ICATAOptions,
    ICATMOptions,
    ICATOptions,
    ICATSOptions,
    run_icat_a,
    run_icat_m,
    run_icat_s,
)
from factgraph.models import Evaluation, RelationLabel, StatementKind


def edges(ev: Evaluation, label: RelationLabel) -> set[tuple[str, str]]:
    return {(r.src, r.dst) for r in ev.graph.relations if r.label == label}


def labels(ev: Evaluation) -> dict[str, str]:
    return {v.statement_id: v.label for v in ev.verdicts}


def test_registry_points_at_the_run_functions_and_each_variants_options() -> None:
    for name, fn, options in (("icat-m", run_icat_m, ICATMOptions),
                              ("icat-s", run_icat_s, ICATSOptions),
                              ("icat-a", run_icat_a, ICATAOptions)):
        opts, run = get_method(name)
        assert opts is options and run is fn
    assert set(ICATOptions.model_fields) == {*ICATMOptions.model_fields,
                                            *ICATAOptions.model_fields}
    assert "max_aspects" not in ICATMOptions.model_fields | ICATSOptions.model_fields
    assert "qrels" not in ICATSOptions.model_fields | ICATAOptions.model_fields
    assert "aspects" not in ICATAOptions.model_fields


@pytest.mark.parametrize(("method", "flag", "owners"), [
    ("icat-m", "--max-aspects", "icat-a"), ("icat-s", "--max-aspects", "icat-a"),
    ("icat-s", "--qrels", "icat-m"), ("icat-a", "--aspects", "icat-m, icat-s")])
def test_an_option_of_another_icat_variant_does_not_apply(method: str, flag: str,
                                                          owners: str) -> None:
    """Each variant takes its own options: ICAT-A's ``--max-aspects`` with ``--method icat-m``
    is the usual "does not apply" error, on the command line and in Python."""
    res = CliRunner().invoke(cli, ["evaluate", "--method", method, flag, "3", "--query", "q",
                                   "--response", "README.md"])
    assert res.exit_code == 2
    assert f"{flag} does not apply to --method {method}" in res.output
    assert f"{flag} is a flag of {owners}" in res.output
    option = flag[2:].replace("-", "_")
    with pytest.raises(ConfigError, match=f"'{option}' does not apply to method {method}"):
        EvaluationConfig.from_flat({"method": method, option: "3"})


def test_icat_m_aspects_from_qrels_of_the_best_supporting_document(tmp_path: Path) -> None:
    qrels = tmp_path / "qrels.txt"
    # d2 is relevant to two aspects; d4 is judged for aspect 1 but not relevant (rel 0).
    qrels.write_text("# topic subtopic docid rel\n7 1 d1 1\n7 2 d2 1\n7 3 d2 1\n7 3 d3 1\n"
                     "7 4 d4 1\n7 1 d4 0\n8 4 d1 1\n")
    router = Router()
    opts = ICATOptions(corpus=str(write_corpus(tmp_path)), aspects=str(write_aspects(tmp_path)),
                       qrels=str(qrels), topic="7", beta=2.0)
    ev = run_icat_m(case(), session(router), opts)
    # r1 -> d1 -> {1}; r2 -> d2 -> {2, 3}; r3, r4 unsupported cover nothing (topic 8 ignored).
    # S_fact = 2/4, S_cov = 3/4, ICAT_2 = 5 * 0.5 * 0.75 / (4 * 0.5 + 0.75) = 15/22.
    assert ev.scores["s_fact"] == 0.5
    assert ev.scores["s_coverage"] == 0.75
    assert ev.scores["icat"] == pytest.approx(15 / 22)
    assert ev.scores["s_coverage_graded"] == 0.75  # qrels carry no degree: all "well"
    assert edges(ev, RelationLabel.covers) == {("r1", "a1"), ("r2", "a2"), ("r2", "a3")}
    assert router.asked == ["atomize"]  # ICAT-M asks the model for claims only
    assert labels(ev) == {"r1": "supported", "r2": "supported", "r3": "contradicted",
                          "r4": "unsupported", "a1": "covered", "a2": "covered",
                          "a3": "covered", "a4": "uncovered"}
    sweep = {p["beta"]: p["icat"] for p in ev.metadata["beta_sweep"]}
    assert sweep[1.0] == pytest.approx(2 * 0.5 * 0.75 / 1.25)
    assert sweep[2.0] == pytest.approx(15 / 22)


def test_icat_s_model_alignment_drops_and_counts_invalid_ids(tmp_path: Path) -> None:
    def only_supported_claims_shown(user: str) -> None:
        assert block(user, "CLAIMS") == CLAIMS[:2]

    router = Router(align=(
        '{"covered": [{"aspect": 1, "claims": [1], "degree": "well"},'
        ' {"aspect": 3, "claims": [2], "degree": "partial"},'
        ' {"aspect": 9, "claims": [1]},'            # no aspect 9: dropped
        ' {"aspect": 2, "claims": [7]},'            # no claim 7: no evidence left, dropped
        ' {"aspect": "4", "claims": ["C2", 5], "degree": "well"}]}'))  # claim 5 dropped
    sess = session(router)
    opts = ICATOptions(corpus=str(write_corpus(tmp_path)), aspects=str(write_aspects(tmp_path)))
    ev = run_icat_s(case(), sess, opts)
    only_supported_claims_shown(router.prompts["align"])
    assert block(router.prompts["align"], "ASPECTS") == [a["text"] for a in ASPECTS]
    # covered: a1 well, a3 partial, a4 well -> S_cov = 3/4; graded = (2 + 0.5) / 4 = 0.625.
    # ICAT_1 = 2 * 0.5 * 0.75 / 1.25 = 0.6; graded ICAT_1 = 2 * 0.5 * 0.625 / 1.125 = 5/9.
    assert ev.scores["s_fact"] == 0.5
    assert ev.scores["s_coverage"] == 0.75
    assert ev.scores["icat"] == pytest.approx(0.6)
    assert ev.scores["s_coverage_graded"] == 0.625
    assert ev.scores["icat_graded"] == pytest.approx(5 / 9)
    assert (ev.scores["n_well"], ev.scores["n_partial"]) == (2.0, 1.0)
    assert edges(ev, RelationLabel.covers) == {("r1", "a1"), ("r2", "a3"), ("r2", "a4")}
    counts = ev.metadata["counts"]
    assert counts["align.invalid_aspect_ids"] == 1
    assert counts["align.invalid_claim_ids"] == 2
    assert counts["align.aspects_without_evidence"] == 1
    assert [d["reason"] for d in ev.metadata["alignment"]["dropped"]] == [
        "unknown aspect", "unknown claim", "no valid claim as evidence", "unknown claim"]
    assert labels(ev)["a2"] == "uncovered" and labels(ev)["a3"] == "partially_covered"


def test_icat_s_graph_holds_passages_claims_and_nli_edges(tmp_path: Path) -> None:
    opts = ICATOptions(corpus=str(write_corpus(tmp_path)), aspects=str(write_aspects(tmp_path)))
    ev = run_icat_s(case(), session(Router()), opts)
    kinds = {s.id: (s.kind, s.origin.value) for s in ev.graph.statements}
    assert kinds["r1"] == (StatementKind.claim, "response")
    assert kinds["a4"] == (StatementKind.aspect, "context")
    by_doc = {s.source_id: s.id for s in ev.graph.statements if s.id.startswith("p")}
    assert edges(ev, RelationLabel.entails) == {(by_doc["d1"], "r1"), (by_doc["d2"], "r2")}
    assert edges(ev, RelationLabel.contradicts) == {(by_doc["d2"], "r3")}
    # Nothing is covered: S_cov = 0 and ICAT = 0 (F-measure convention), not None.
    assert ev.scores["s_coverage"] == 0.0 and ev.scores["icat"] == 0.0


def test_icat_a_generated_aspects_capped_and_input_documents_as_corpus() -> None:
    generated = ["location of the dam", "construction history", "power production",
                 "recreation on the lake", "wildlife"]
    router = Router(aspects=generated, align='{"covered": [{"aspect": 2, "claims": [1, 2]}]}')
    sess = session(router)
    ev = run_icat_a(case(documents=DOCS), sess, ICATOptions(max_aspects=3))
    assert router.asked == ["atomize", "aspects", "align"]
    assert [s.text for s in ev.graph.statements if s.kind == StatementKind.aspect] == \
        generated[:3]
    assert any("max_aspects=3" in m for m in ev.limits_hit)
    # S_fact = 1/2, S_cov = 1/3, ICAT_1 = 2 * (1/2) * (1/3) / (1/2 + 1/3) = 0.4.
    assert ev.scores["s_coverage"] == pytest.approx(1 / 3)
    assert ev.scores["icat"] == pytest.approx(0.4)
    assert edges(ev, RelationLabel.covers) == {("r1", "a2"), ("r2", "a2")}


def test_icat_unreadable_alignment_is_incomplete_not_zero(tmp_path: Path) -> None:
    router = Router(align="I think aspect one.")
    opts = ICATOptions(corpus=str(write_corpus(tmp_path)), aspects=str(write_aspects(tmp_path)))
    ev = run_icat_s(case(), session(router), opts)
    assert ev.scores["s_fact"] == 0.5
    assert ev.scores["s_coverage"] is None and ev.scores["icat"] is None
    assert "alignment" in ev.metadata["incomplete"]
    assert [f.stage for f in ev.parse_failures] == ["align"]


def test_icat_missing_inputs_fail_with_clear_messages(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="--aspects"):
        run_icat_s(case(DOCS), session(Router()), ICATOptions())
    with pytest.raises(ValueError, match="--qrels"):
        run_icat_m(case(DOCS), session(Router()),
                   ICATOptions(aspects=str(write_aspects(tmp_path))))
    with pytest.raises(ValueError, match="corpus"):
        run_icat_a(case(), session(Router()), ICATOptions())


def test_icat_reuses_a_persisted_index(tmp_path: Path) -> None:
    opts = ICATOptions(corpus=str(write_corpus(tmp_path)), aspects=str(write_aspects(tmp_path)),
                       index_dir=str(tmp_path / "idx"))
    first = run_icat_s(case(), session(Router()), opts)
    second = run_icat_s(case(), session(Router()), opts)
    assert (first.metadata["index"]["reused"], second.metadata["index"]["reused"]) == \
        (False, True)
    assert first.scores == second.scores


# -- the iteration gate (ICAT integration guide) ---------------------------------------------------

def test_gate_stops_when_icat_meets_the_threshold() -> None:
    # ICAT_1(0.88, 0.90) = 2 * 0.792 / 1.78 = 0.88989 >= 0.85
    d = iteration_gate(DraftScore(s_fact=0.88, s_coverage=0.90), iteration=2,
                       history=[0.667])
    assert (d.stop, d.reason) == (True, "threshold_met")
    assert d.icat == pytest.approx(2 * 0.88 * 0.90 / 1.78)
    assert d.improvement == pytest.approx(2 * 0.88 * 0.90 / 1.78 - 0.667)
    assert d.focus is None and d.feedback == []


def test_gate_stops_at_max_iterations_then_budget_in_that_order() -> None:
    low = DraftScore(s_fact=0.75, s_coverage=0.60, unsupported_claims=["X is Y."],
                     uncovered_aspects=["cost"])
    cfg = GateConfig(max_iterations=3, budget=1000)
    assert iteration_gate(low, 3, cfg, budget_spent=5000).reason == "max_iterations"
    d = iteration_gate(low, 2, cfg, budget_spent=1000)
    assert (d.stop, d.reason) == (True, "budget_exhausted")
    d = iteration_gate(low, 2, cfg, budget_spent=999)
    assert (d.stop, d.reason) == (False, "continue")
    # Both below 0.80: coverage falls short by 0.20, factuality by 0.05 -> coverage first.
    assert d.focus == "coverage"
    assert any("X is Y." in f for f in d.feedback) and any("cost" in f for f in d.feedback)


def test_gate_warns_on_small_improvement_and_picks_factuality() -> None:
    score = DraftScore(s_fact=0.70, s_coverage=0.90)
    icat = 2 * 0.70 * 0.90 / 1.60  # 0.7875
    d = iteration_gate(score, 2, history=[0.5, icat - 0.01])
    assert d.reason == "continue" and d.focus == "factuality"
    assert d.improvement == pytest.approx(0.01)
    assert len(d.warnings) == 1 and "diminishing" in d.warnings[0]
    assert iteration_gate(score, 2, history=[icat - 0.05]).warnings == []


def test_gate_reads_an_icat_evaluation(tmp_path: Path) -> None:
    router = Router(align='{"covered": [{"aspect": 1, "claims": [1], "degree": "partial"}]}')
    opts = ICATOptions(corpus=str(write_corpus(tmp_path)), aspects=str(write_aspects(tmp_path)))
    ev = run_icat_s(case(), session(router), opts)
    plain, graded = DraftScore.from_evaluation(ev), DraftScore.from_evaluation(ev, graded=True)
    assert plain.unsupported_claims == CLAIMS[2:]
    assert plain.uncovered_aspects == [a["text"] for a in ASPECTS[1:]]
    assert plain.partial_aspects == ["location of the dam"]
    assert (plain.s_coverage, graded.s_coverage) == (0.25, 0.125)
    d = iteration_gate(graded, 1)
    assert d.reason == "continue" and d.focus == "coverage"
    assert d.icat == pytest.approx(2 * 0.5 * 0.125 / 0.625)
