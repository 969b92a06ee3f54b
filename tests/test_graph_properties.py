"""Property tests: the engine agrees with a brute-force reading of Dejl et al. 2025, §3.1.

The brute force works on the uncondensed graph with naive per-pair path checks: exactly the
definitions, with none of the engine's shortcuts (SCC labels, BFS parents, edge-local basis).
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass
from itertools import pairwise

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factgraph.graph import analyze
from factgraph.models import FactGraph, Relation, Statement

LABELS = ["entails", "entails", "entails", "contradicts", "neutral", "covers"]


@st.composite
def fact_graphs(draw: st.DrawFn) -> FactGraph:
    n = draw(st.integers(min_value=0, max_value=12))
    texts = draw(st.lists(st.sampled_from(["a", "b", "c", "d"]), min_size=n, max_size=n))
    origins = draw(st.lists(st.sampled_from(["response", "context"]), min_size=n, max_size=n))
    statements = [Statement(id=f"s{i}", text=texts[i], origin=origins[i]) for i in range(n)]
    relations = []
    if n:
        edges = draw(st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from(LABELS)),
            max_size=3 * n,  # includes self-loops and parallel edges
        ))
        relations = [Relation(src=f"s{a}", dst=f"s{b}", label=lab) for a, b, lab in edges]
    return FactGraph(query="q", statements=statements, relations=relations)


@dataclass
class Brute:
    covered: set[frozenset[str]]
    uncovered: set[frozenset[str]]
    basis: set[frozenset[str]]
    reps: dict[frozenset[str], str]
    dist: dict[str, int]  # BFS distance (edges) from the nearest response statement


def has_path(adj: dict[str, set[str]], a: str, b: str) -> bool:
    """Path of length >= 0 from a to b (naive DFS)."""
    seen, stack = {a}, [a]
    while stack:
        x = stack.pop()
        if x == b:
            return True
        for y in adj[x]:
            if y not in seen:
                seen.add(y)
                stack.append(y)
    return False


def brute(g: FactGraph) -> Brute:
    ids = [s.id for s in g.statements]
    adj: dict[str, set[str]] = {i: set() for i in ids}
    for r in g.relations:
        if r.label.value == "entails":
            adj[r.src].add(r.dst)
    by_id = {s.id: s for s in g.statements}
    comps: list[frozenset[str]] = []
    for i in ids:  # equivalence classes of mutual reachability
        if not any(i in c for c in comps):
            comps.append(frozenset(j for j in ids if has_path(adj, i, j) and has_path(adj, j, i)))
    resp = [i for i in ids if by_id[i].origin.value == "response"]
    ctx_comps = [c for c in comps if any(by_id[m].origin.value == "context" for m in c)]
    covered = {c for c in ctx_comps if any(has_path(adj, r, m) for r in resp for m in c)}
    uncovered = set(ctx_comps) - covered
    basis = {c for c in uncovered
             if not any(has_path(adj, next(iter(o)), next(iter(c))) for o in uncovered if o != c)}
    reps = {}
    for c in comps:
        ctx = [m for m in c if by_id[m].origin.value == "context"]
        pool = ctx or list(c)
        counts = Counter(by_id[m].text for m in pool)
        top = max(counts.values())
        reps[c] = min(t for t, k in counts.items() if k == top)
    dist: dict[str, int] = {}
    q = deque((r, 0) for r in resp)
    for r in resp:
        dist[r] = 0
    while q:
        x, d = q.popleft()
        for y in adj[x]:
            if y not in dist:
                dist[y] = d + 1
                q.append((y, d + 1))
    return Brute(covered, uncovered, basis, reps, dist)


PROPS = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(fact_graphs())
def test_engine_matches_brute_force(g: FactGraph) -> None:
    cov = analyze(g)
    b = brute(g)
    as_sets = lambda comps: {frozenset(c.members) for c in comps}  # noqa: E731
    assert as_sets(cov.covered()) == b.covered
    assert as_sets(cov.uncovered()) == b.uncovered
    assert as_sets(cov.basis()) == b.basis
    n_ctx = len(b.covered) + len(b.uncovered)
    assert cov.score == (None if n_ctx == 0 else len(b.covered) / n_ctx)
    for comp in cov.components():
        assert comp.text == b.reps[frozenset(comp.members)]
        rep = g.statement(comp.representative)
        assert rep.text == comp.text and rep.id in comp.members
        if comp.has_context:
            assert rep.origin.value == "context"  # context statements take precedence


@PROPS
@given(fact_graphs())
def test_explain_gives_a_shortest_valid_path(g: FactGraph) -> None:
    cov = analyze(g)
    b = brute(g)
    entails = {(r.src, r.dst) for r in g.relations if r.label.value == "entails"}
    for s in g.statements:
        path = cov.explain(s.id)
        if s.id not in b.dist:
            assert path is None
            continue
        assert path is not None and path[-1] == s.id
        assert g.statement(path[0]).origin.value == "response"
        assert all((x, y) in entails for x, y in pairwise(path))
        assert len(path) - 1 == b.dist[s.id]


@settings(max_examples=200, deadline=None)
@given(fact_graphs(), st.randoms(use_true_random=False))
def test_non_entailment_edges_and_order_do_not_matter(g: FactGraph, rnd) -> None:  # type: ignore[no-untyped-def]
    base = analyze(g)
    extra = [Relation(src=a.id, dst=c.id, label=lab)
             for a in g.statements for c in g.statements for lab in ("contradicts", "neutral")]
    noisy = analyze(g.model_copy(update={"relations": g.relations + extra}))
    statements = list(g.statements)
    rnd.shuffle(statements)
    relations = list(g.relations)
    rnd.shuffle(relations)
    shuffled = analyze(FactGraph(query=g.query, statements=statements, relations=relations))
    key = lambda cov: (  # noqa: E731
        {frozenset(c.members) for c in cov.covered()},
        {frozenset(c.members) for c in cov.basis()},
        {(frozenset(c.members), c.text) for c in cov.components()},
        cov.score,
    )
    assert key(noisy) == key(base) == key(shuffled)
