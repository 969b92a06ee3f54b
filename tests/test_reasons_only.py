"""``reasons(coverage, only=ids)`` gives the same reason as the full pass for each statement it
is asked about (what ``analyze`` relies on to build reasons for the printed components only),
on object graphs and on the fast reader's tables."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from factgraph.graph import analyze, analyze_table
from factgraph.graph.reasons import reasons
from factgraph.graph.results import load_graph_table
from factgraph.models import FactGraph, Relation, Statement
from tests.why_support import chernobyl


@st.composite
def graphs(draw: st.DrawFn) -> FactGraph:
    n = draw(st.integers(2, 14))
    stmts = [Statement(id=f"s{i}", text=f"t{draw(st.integers(0, 3))}",
                       origin=draw(st.sampled_from(["response", "context"])),
                       metadata=draw(st.sampled_from([{}, {"p_covered": 0.4},
                                                      {"evidence": {"nearest_sentence": "s0",
                                                                    "p_stated": 0.2}}])))
             for i in range(n)]
    rels = [Relation(src=f"s{draw(st.integers(0, n - 1))}", dst=f"s{draw(st.integers(0, n - 1))}",
                     label=draw(st.sampled_from(["entails", "entails", "contradicts",
                                                 "neutral"])),
                     probability=draw(st.none() | st.sampled_from([0.3, 0.9])),
                     method=draw(st.none() | st.just("nli")),
                     metadata=draw(st.sampled_from([{}, {"evidence": {"p_stated": 0.8}},
                                                    {"conflict": {"slot": "number"}}])))
            for _ in range(draw(st.integers(0, 30)))]
    return FactGraph(query="q", statements=stmts, relations=rels)


@settings(max_examples=150, deadline=None)
@given(graphs(), st.data())
def test_only_gives_the_same_reasons_as_the_full_pass(graph: FactGraph, data: st.DataObject
                                                      ) -> None:
    cov = analyze(graph)
    full = reasons(cov)
    only = data.draw(st.sets(st.sampled_from([s.id for s in graph.statements])))
    part = reasons(cov, only=only)
    assert dict(part.by_statement) == {k: v for k, v in full.by_statement.items() if k in only}
    assert dict(part.by_pair) == dict(full.by_pair)


@settings(max_examples=40, deadline=None)
@given(graphs(), st.data())
def test_only_on_the_fast_reader_s_table(tmp_path_factory: object, graph: FactGraph,
                                         data: st.DataObject) -> None:
    path = Path(str(tmp_path_factory.mktemp("g"))) / "g.json"  # type: ignore[attr-defined]
    path.write_text(graph.model_dump_json(), encoding="utf-8")
    cov = analyze_table(load_graph_table(path))
    full = reasons(cov)
    only = data.draw(st.sets(st.sampled_from([s.id for s in graph.statements])))
    assert dict(reasons(cov, only=only).by_statement) == \
        {k: v for k, v in full.by_statement.items() if k in only}


def test_only_on_the_evidence_judge_s_graph() -> None:
    cov = analyze(chernobyl().graph)
    full = reasons(cov)
    for sid in [s.id for s in chernobyl().graph.statements] + ["unknown"]:
        assert dict(reasons(cov, only={sid}).by_statement) == \
            {k: v for k, v in full.by_statement.items() if k == sid}
