"""Hand-made cases for the graph engine."""

from __future__ import annotations

from pathlib import Path

from factgraph.graph import analyze, comprehensiveness_score, condensation_edges
from factgraph.graph.results import load_graph
from factgraph.models import FactGraph, Relation, Statement


def g(statements: list[tuple[str, str, str]], edges: list[tuple[str, str]]) -> FactGraph:
    return FactGraph(
        query="q",
        statements=[Statement(id=i, text=t, origin=o) for i, t, o in statements],
        relations=[Relation(src=a, dst=b, label="entails") for a, b in edges],
    )


def test_empty_and_no_context() -> None:
    assert analyze(FactGraph()).score is None
    only_resp = analyze(g([("r", "x", "response")], []))
    assert only_resp.score is None and only_resp.basis() == []
    assert comprehensiveness_score(0, 0, empty=0.0) == 0.0


def test_no_response_everything_uncovered_basis_is_sources() -> None:
    cov = analyze(g([("a", "A", "context"), ("b", "B", "context"), ("c", "C", "context")],
                    [("a", "b"), ("b", "c")]))
    assert cov.score == 0.0
    assert [c.members for c in cov.basis()] == [("a",)]


def test_cycle_through_response_covers_the_whole_cycle() -> None:
    cov = analyze(g([("r", "R", "response"), ("a", "A", "context"), ("b", "B", "context")],
                    [("a", "r"), ("r", "b"), ("b", "a")]))
    assert cov.score == 1.0
    comp = cov.component_of("a")
    assert set(comp.members) == {"r", "a", "b"} and comp.status == "covered"
    assert cov.explain("a") == ["r", "b", "a"]


def test_uncovered_cycle_is_one_basis_component() -> None:
    cov = analyze(g([("a", "A", "context"), ("b", "A", "context"), ("c", "C", "context")],
                    [("a", "b"), ("b", "a"), ("a", "c")]))
    assert [set(c.members) for c in cov.basis()] == [{"a", "b"}]
    assert cov.score == 0.0 and cov.n_uncovered == 2


def test_representative_prefers_context_then_mode_then_smallest_text() -> None:
    cov = analyze(g([("r1", "Z", "response"), ("r2", "Z", "response"),
                     ("c1", "Y", "context"), ("c2", "X", "context")],
                    [("r1", "r2"), ("r2", "c1"), ("c1", "c2"), ("c2", "r1")]))
    comp = cov.component_of("r1")
    assert comp.text == "X" and comp.representative == "c2"


def test_min_probability_drops_weak_edges() -> None:
    graph = FactGraph(query="q", statements=[
        Statement(id="r", text="R", origin="response"),
        Statement(id="c", text="C", origin="context")],
        relations=[Relation(src="r", dst="c", label="entails", probability=0.4)])
    assert analyze(graph).score == 1.0
    assert analyze(graph, min_probability=0.5).score == 0.0


def test_example_condensation(example_graph_path: Path) -> None:
    cov = analyze(load_graph(example_graph_path))
    edges = condensation_edges(cov)
    assert len(edges) == 2  # c1b -> c1c and c2d -> (r2, c2c)
    assert cov.n_basis == 5
