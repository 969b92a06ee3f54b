"""The NLI pair levers against the exhaustive run, on random entailment oracles.

``skip_implied`` must give exactly the exhaustive reachability (so S, components and basis);
``skip_inert`` exactly the exhaustive coverage of every context statement. Property-tested with
hypothesis over random graphs; ``benchmarks/nli_pairs.py`` measures what they save."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factgraph.backends.scripted import ScriptedNLIBackend
from factgraph.graph import analyze
from factgraph.models import FactGraph, Origin, Statement
from factgraph.stages.nli_relations import PairPolicy, judge_pairs
from factgraph.stages.session import ModelSession


@st.composite
def oracles(draw: st.DrawFn) -> tuple[list[str], list[str], set[tuple[str, str]]]:
    n_resp = draw(st.integers(1, 4))
    n_ctx = draw(st.integers(1, 7))
    resp = [f"r{i}" for i in range(n_resp)]
    ctx = [f"c{i}" for i in range(n_ctx)]
    pairs = [(p, h) for p in resp + ctx for h in ctx if p != h]
    pairs += [(c, r) for c in ctx for r in resp]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs))) \
        if pairs else []
    return resp, ctx, set(chosen)


def judged_graph(resp: list[str], ctx: list[str], edges: set[tuple[str, str]],
                 policy: PairPolicy) -> tuple[FactGraph, int]:
    nli = ScriptedNLIBackend(lambda p, h: "entails" if (p, h) in edges else "neutral")
    session = ModelSession(nli=nli)
    relations, stats = judge_pairs(session, {i: i for i in resp + ctx}, resp, ctx, policy)
    statements = [Statement(id=i, text=i, origin=Origin.response) for i in resp]
    statements += [Statement(id=i, text=i, origin=Origin.context) for i in ctx]
    return FactGraph(query="q", statements=statements, relations=relations), stats.judged


def covered_ids(graph: FactGraph) -> set[str]:
    """The context statements the response reaches (response statements can fall into a
    covered component only by equivalence, which skip_inert may not see)."""
    context = {s.id for s in graph.statements if s.origin is Origin.context}
    return {m for c in analyze(graph).covered() for m in c.members if m in context}


def components(graph: FactGraph) -> set[frozenset[str]]:
    return {frozenset(c.members) for c in analyze(graph).components()}


LEVER_PROPS = settings(max_examples=300, deadline=None,
                       suppress_health_check=[HealthCheck.too_slow])


@LEVER_PROPS
@given(oracles())
def test_skip_implied_keeps_everything_the_engine_computes(
        case: tuple[list[str], list[str], set[tuple[str, str]]]) -> None:
    resp, ctx, edges = case
    full, n_full = judged_graph(resp, ctx, edges, PairPolicy())
    lean, n_lean = judged_graph(resp, ctx, edges, PairPolicy(skip_implied=True))
    a, b = analyze(full), analyze(lean)
    assert n_lean <= n_full
    assert a.score == b.score and components(full) == components(lean)
    assert {frozenset(c.members) for c in a.basis()} == {frozenset(c.members) for c in b.basis()}


@LEVER_PROPS
@given(oracles())
def test_skip_inert_keeps_every_statements_coverage(
        case: tuple[list[str], list[str], set[tuple[str, str]]]) -> None:
    resp, ctx, edges = case
    full, n_full = judged_graph(resp, ctx, edges, PairPolicy())
    for policy in (PairPolicy(skip_inert=True), PairPolicy(skip_inert=True, skip_implied=True)):
        lean, n_lean = judged_graph(resp, ctx, edges, policy)
        assert n_lean <= n_full
        assert covered_ids(lean) == covered_ids(full)


def test_skip_inert_can_miss_an_equivalence_through_two_response_atoms() -> None:
    # r1 → c1 → r2 → c2 → r1 is one component when every pair is judged; skip_inert never
    # learns r2 ⇝ c1 or r1 ⇝ c2, so it keeps four — coverage of c1 and c2 is the same.
    resp, ctx = ["r1", "r2"], ["c1", "c2"]
    edges = {("r1", "c1"), ("c1", "r2"), ("r2", "c2"), ("c2", "r1")}
    full, _ = judged_graph(resp, ctx, edges, PairPolicy())
    lean, _ = judged_graph(resp, ctx, edges, PairPolicy(skip_inert=True))
    assert covered_ids(lean) == covered_ids(full) == {"c1", "c2"}
    assert len(components(full)) == 1 and len(components(lean)) == 4


def test_skip_inert_judges_only_live_backward_pairs() -> None:
    # r0 → c0 is an edge; c1 is unrelated. Of the two c→r pairs only c0→r0 can matter.
    resp, ctx = ["r0"], ["c0", "c1"]
    edges = {("r0", "c0"), ("c0", "r0")}
    full, n_full = judged_graph(resp, ctx, edges, PairPolicy())
    lean, n_lean = judged_graph(resp, ctx, edges, PairPolicy(skip_inert=True))
    assert n_full - n_lean == 1  # c1→r0 skipped
    assert components(lean) == components(full)  # r0 ≡ c0 still found
