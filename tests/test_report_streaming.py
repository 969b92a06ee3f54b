"""`factgraph report` folds evaluations one at a time and writes the page in pieces; its HTML
must be byte-identical to the list-based report it replaced (frozen in tests/report_oracle)."""

from __future__ import annotations

import gc
import json
import weakref
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from factgraph.cli.main import cli
from factgraph.cli.view import _slug
from factgraph.evaluation.meta_eval import card_of
from factgraph.graph.results import load_evaluations
from factgraph.models import Evaluation, FactGraph, Relation, Statement
from factgraph.viz.matrix import MatricesByQuery, coverage_matrix, matrices_by_query
from factgraph.viz.report import ReportBuilder, render_report, write_report
from tests.report_oracle import matrix as oracle_matrix
from tests.report_oracle import report as oracle_report

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = [ROOT / "examples" / "heber_results.jsonl",
            ROOT / "examples" / "wikicontradict_e2e_qwen1.5b.jsonl"]


def _expected_cards(evs: list[Evaluation]) -> list[str]:
    """The judge-card lines the CLI shows: each evaluation's own card, first seen first."""
    cards: dict[str, str] = {}
    for ev in evs:
        if (card := card_of(ev)) is not None:
            cards.setdefault(card.one_line(), card.one_line())
    return list(cards)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
@pytest.mark.parametrize("views", [False, True], ids=["no-views", "views"])
def test_cli_report_of_the_examples_is_identical_to_the_list_based_report(
        path: Path, views: bool, tmp_path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path} is not in this checkout")
    out = tmp_path / "rep.html"
    args = ["report", str(path), "-o", str(out), "--title", "Ex <1> __CSS__"]
    res = CliRunner().invoke(cli, [*args, "--views" if views else "--no-views"])
    assert res.exit_code == 0, res.output
    evs = load_evaluations(path)
    assert json.loads(res.output)["evaluations"] == len(evs)
    links = {ev.id: f"rep_views/{_slug(ev.id)}.html" for ev in evs} if views else {}
    assert len(set(links.values())) == len(links)  # no slug clashes: the CLI adds none either
    expected = oracle_report.render_report(evs, view_links=links, title="Ex <1> __CSS__",
                                           judge_cards=_expected_cards(evs))
    got = out.read_text(encoding="utf-8")
    assert got == expected
    assert got.count('<table class="fg-matrix">') >= 1  # the matrices are really in there
    assert not list(tmp_path.glob(".rep.html.tmp*"))


# ---- random evaluations: several queries, models, shared and clashing context facts --------

TEXTS = ["fact A", "fact B", "fact C", "fact <D> & 'e'", "aspect one", "aspect two"]
SCORE_KEYS = ["comprehensiveness", "S_fact", "icat_coverage", "factual_precision",
              "factual_recall", "argue_recall"]


@st.composite
def evaluations(draw: st.DrawFn) -> list[Evaluation]:
    n = draw(st.integers(1, 7))
    evs = []
    for k in range(n):
        query = draw(st.sampled_from(["q1", "q2", "", "q <3>"]))
        stmts = [Statement(id=f"r{i}", text=draw(st.sampled_from(TEXTS)), origin="response")
                 for i in range(draw(st.integers(0, 3)))]
        for i in range(draw(st.integers(0, 5))):
            kind = draw(st.sampled_from(["atom", "fact", "aspect"]))
            stmts.append(Statement(id=f"c{i}", text=draw(st.sampled_from(TEXTS)),
                                   origin="context", kind=kind,
                                   source_id=draw(st.sampled_from([None, "d1", "d2"]))))
        ids = [s.id for s in stmts]
        rels = []
        if len(ids) > 1:
            for a, b in draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids)),
                                      max_size=8)):
                if a != b:
                    label = draw(st.sampled_from(["entails", "entails", "covers", "neutral"]))
                    rels.append(Relation(src=a, dst=b, label=label))
        scores = {key: draw(st.none() | st.floats(0, 1, allow_nan=False))
                  for key in draw(st.lists(st.sampled_from(SCORE_KEYS), unique=True,
                                           max_size=4))}
        evs.append(Evaluation(
            id=draw(st.sampled_from([f"e{k}", f"e{k} <x>"])), method=draw(st.sampled_from(
                ["nli", "qa"])), model=draw(st.sampled_from([None, "m1", "m2", "m <3>"])),
            response_id=draw(st.sampled_from([None, "resp1", f"resp{k}"])), query=query,
            scores=scores, graph=FactGraph(query=draw(st.sampled_from([query, "graph q"])),
                                           statements=stmts, relations=rels)))
    return evs


@settings(max_examples=80, deadline=None)
@given(evaluations(), st.booleans())
def test_streamed_report_and_matrices_equal_the_list_based_ones(evs: list[Evaluation],
                                                                with_links: bool) -> None:
    links = {ev.id: f"v/{ev.id}.html#x" for ev in evs} if with_links else {}
    cards = ["judge: kappa 0.5 <ok>"] if with_links else []
    expected = oracle_report.render_report(evs, view_links=links, title="T",
                                           judge_cards=cards)
    builder = ReportBuilder()
    for ev in evs:
        builder.add(ev)
    assert "".join(builder.chunks(links, "T", cards)) == expected
    assert render_report(evs, view_links=links, title="T", judge_cards=cards) == expected
    got = [m.model_dump() for m in matrices_by_query(evs)]
    assert got == [m.model_dump() for m in oracle_matrix.matrices_by_query(evs)]
    assert got
    for m in matrices_by_query(evs):
        one_query = [ev for ev in evs if (ev.query or ev.graph.query) == m.query]
        assert coverage_matrix(one_query).model_dump() == m.model_dump()


def test_title_with_template_markers_is_placed_as_before(tmp_path: Path) -> None:
    evs = load_evaluations(EXAMPLES[0]) if EXAMPLES[0].exists() else []
    for title in ["__BODY__ and __BODY__", "__CSS__", "__TITLE__ <b>"]:
        builder = ReportBuilder()
        for ev in evs:
            builder.add(ev)
        write_report(tmp_path / "r.html", builder, title=title)
        expected = oracle_report.render_report(evs, title=title)
        assert (tmp_path / "r.html").read_text(encoding="utf-8") == expected


class _FailingLinks(Mapping[str, str]):
    """View links whose lookup fails halfway through the page (a real exception mid-write)."""

    def __getitem__(self, key: str) -> str:
        raise OSError("disk gone")

    def __iter__(self) -> Iterator[str]:
        return iter(("e",))

    def __len__(self) -> int:
        return 1

    def get(self, key: str, default: object = None) -> str:  # type: ignore[override]
        raise OSError("disk gone")


def test_a_failed_write_leaves_the_previous_report_and_no_temporary_file(tmp_path: Path) -> None:
    out = tmp_path / "r.html"
    out.write_text("previous report", encoding="utf-8")
    builder = ReportBuilder()
    builder.add(Evaluation(id="e", method="nli", graph=FactGraph(
        statements=[Statement(id="r", text="x", origin="response"),
                    Statement(id="c", text="y", origin="context")],
        relations=[Relation(src="r", dst="c", label="entails")])))
    with pytest.raises(OSError, match="disk gone"):
        write_report(out, builder, view_links=_FailingLinks())
    assert out.read_text(encoding="utf-8") == "previous report"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.html"]


def test_the_builders_keep_no_evaluation_alive() -> None:
    """What is folded in is summarised: the Evaluation, its graph and statements can be freed."""
    if not EXAMPLES[1].exists():
        pytest.skip(f"{EXAMPLES[1]} is not in this checkout")
    report, matrices = ReportBuilder(), MatricesByQuery()
    refs = []
    for ev in load_evaluations(EXAMPLES[1]):
        report.add(ev)
        matrices.add(ev)
        refs += [weakref.ref(ev), weakref.ref(ev.graph), weakref.ref(ev.graph.statements[0])]
    del ev
    gc.collect()
    assert refs and all(r() is None for r in refs)
    assert len(report) == 38 and sum(len(b) for b in matrices.builders()) == 38
    assert "".join(report.chunks()).count('<table class="fg-matrix">') == len(
        [b for b in matrices.builders() if b.has_rows])
