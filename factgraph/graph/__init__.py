"""The exact graph engine: condensation, coverage, uncovered basis, explanation paths.

Definitions (Dejl et al. 2025, §3.1). Let ``G_F`` be the entailment subgraph of a fact
graph (edges ``src -> dst`` meaning *src entails dst*), ``A_R`` its response statements and
``A_C`` its context statements. Contract every strongly connected component (SCC) of ``G_F``
into one node of the condensation ``G_C``; the statements of one SCC are logically equivalent.

* A **context component** is an SCC with at least one context statement. Its representative is
  the most common text among its context members (ties: lexicographically smallest text, then
  the earliest statement in file order); only when it has no context member is it represented
  by a response statement.
* A context component is **covered** (``A_in``) when some response statement reaches it by a
  path in ``G_F``; otherwise it is **uncovered** (``A_out``).
* Comprehensiveness ``S = |A_in| / (|A_in| + |A_out|)``. With no context component at all the
  score is undefined and reported as ``None`` (there is nothing the response could miss or
  cover); callers that need IBM's convention (0.0) say so explicitly.
* The **uncovered basis** ``A_basis = {A in A_out | no other A' in A_out has a path to A}``: the
  fewest context statements whose addition makes the response complete.

Algorithm (one O(V + E) pass, never per-node reachability): one SCC pass (Pearce's algorithm,
``scipy.sparse.csgraph``) labels components; one breadth-first search from a virtual source
joined to every response statement marks reached statements and records BFS parents, which
give the *shortest* entailment path explaining each covered statement; the basis is read off
the condensation edges. Any path between two uncovered components runs through uncovered
components only (a covered or response node on the way would cover its end), so "no other
uncovered component reaches A" equals "no condensation edge enters A from an uncovered
component", a single vectorised pass over the edges.

Only ``entails`` relations create coverage; ``contradicts``, ``neutral`` and ``covers`` never do.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import repeat
from operator import attrgetter, is_
from typing import Protocol

import numpy as np
from numpy.typing import NDArray
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order, connected_components

from factgraph.models import FactGraph, Origin, RelationLabel

IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]
FloatArray = NDArray[np.float64]


class StatementLike(Protocol):
    """What the engine and its exports read of a statement: a :class:`Statement` or the light
    row the fast file reader decodes (``factgraph.graph.file.StatementRow``)."""

    @property
    def id(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def origin(self) -> Origin: ...
    @property
    def source_id(self) -> str | None: ...
    @property
    def relevance(self) -> float | None: ...


class RelationLike(Protocol):
    """What the reasons (``factgraph.graph.reasons``) read of a relation beyond its label and
    probability: a :class:`Relation` or the fast reader's row (whose ``metadata`` is unset
    when the file has none)."""

    @property
    def method(self) -> str | None: ...
    @property
    def trace_id(self) -> str | None: ...
    @property
    def metadata(self) -> object: ...


@dataclass(frozen=True)
class GraphTable:
    """A fact graph as arrays: statements in file order, every relation as positions.

    The form the engine reads; built from a :class:`FactGraph` (:meth:`from_graph`) or straight
    from a file without a Python object per relation (``factgraph.graph.results.load_graph_table``).
    ``probability`` is NaN where a relation records none.
    """

    query: str
    statements: Sequence[StatementLike]
    src: IntArray  # position of each relation's src statement
    dst: IntArray  # position of each relation's dst statement
    is_entails: BoolArray  # relation label is ``entails``
    probability: FloatArray
    # relation label is ``contradicts``; None when the reader did not record labels other than
    # ``entails`` (then the graph is read as having no contradiction)
    is_contradicts: BoolArray | None = None
    # what a judge recorded on a relation (method, trace id, metadata), by relation position:
    # every relation (a FactGraph's list), only those a reason can name (the fast reader keeps
    # the response's entailments and contradictions that record something), or None
    details: Sequence[RelationLike] | Mapping[int, RelationLike] | None = None

    @property
    def n_relations(self) -> int:
        return len(self.src)

    def relation_details(self, position: int) -> RelationLike | None:
        """The recorded method, trace id and metadata of the relation at ``position``; None
        when the table did not keep them."""
        if self.details is None:
            return None
        if isinstance(self.details, Mapping):
            return self.details.get(position)
        return self.details[position]

    @classmethod
    def from_graph(cls, graph: FactGraph) -> GraphTable:
        """The array form of a validated FactGraph (its ids are unique and its edges resolve)."""
        position = {s.id: i for i, s in enumerate(graph.statements)}.__getitem__
        rels = graph.relations
        m = len(rels)
        return cls(  # C-level loops (map over attrgetter): no Python frame per relation
            query=graph.query,
            statements=graph.statements,
            src=np.fromiter(map(position, map(attrgetter("src"), rels)), dtype=np.int64, count=m),
            dst=np.fromiter(map(position, map(attrgetter("dst"), rels)), dtype=np.int64, count=m),
            is_entails=np.fromiter(map(is_, map(attrgetter("label"), rels),
                                       repeat(RelationLabel.entails)), dtype=bool, count=m),
            probability=np.array(list(map(attrgetter("probability"), rels)), dtype=np.float64),
            is_contradicts=np.fromiter(map(is_, map(attrgetter("label"), rels),
                                           repeat(RelationLabel.contradicts)), dtype=bool,
                                       count=m),
            details=rels,
        )

    def entailment_edges(self, min_probability: float | None = None) -> tuple[IntArray, IntArray]:
        """Endpoints of the ``entails`` relations, less those whose recorded probability is
        below ``min_probability`` (relations without a probability are kept)."""
        keep = self.is_entails
        if min_probability is not None:
            keep = keep & (np.isnan(self.probability) | (self.probability >= min_probability))
        return self.src[keep], self.dst[keep]

    def response_mask(self) -> BoolArray:
        """True at the positions of response statements."""
        return np.fromiter((s.origin is Origin.response for s in self.statements), dtype=bool,
                           count=len(self.statements))


@dataclass(frozen=True)
class CoverageArrays:
    """Array form of the coverage result, indexed by statement position and component number.

    Components are numbered in order of their first member's position, so numbering is
    deterministic for a given input.
    """

    component: IntArray  # component number of each statement
    n_components: int
    reached: BoolArray  # statement reachable from some response statement
    parent: IntArray  # BFS parent on a shortest path from the response; -1 for none
    is_context_component: BoolArray
    is_response_component: BoolArray
    is_covered: BoolArray  # context component reached from the response
    is_basis: BoolArray  # uncovered context component with no uncovered predecessor

    @property
    def is_uncovered(self) -> BoolArray:
        return self.is_context_component & ~self.is_covered


def coverage_arrays(
    n: int,
    src: IntArray,
    dst: IntArray,
    is_response: BoolArray,
    is_context: BoolArray,
) -> CoverageArrays:
    """Coverage and basis over ``n`` statements with entailment edges ``src[i] -> dst[i]``.

    The core of :func:`analyze`, on plain arrays so large graphs skip Python objects.
    Runs in O(n + len(src)).
    """
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    is_response = np.asarray(is_response, dtype=bool)
    is_context = np.asarray(is_context, dtype=bool)
    m = len(src)
    if n == 0:
        empty_i = np.zeros(0, dtype=np.int64)
        empty_b = np.zeros(0, dtype=bool)
        return CoverageArrays(empty_i, 0, empty_b, empty_i, empty_b, empty_b, empty_b, empty_b)

    # One sparse matrix with a virtual source n feeding every response statement: the SCC pass
    # runs on it too (the source is its own singleton component and changes no other).
    resp_idx = np.flatnonzero(is_response).astype(np.int64)
    rows = np.concatenate([src, np.full(len(resp_idx), n, dtype=np.int64)])
    cols = np.concatenate([dst, resp_idx])
    data = np.ones(m + len(resp_idx), dtype=np.int8)
    adj = csr_matrix((data, (rows, cols)), shape=(n + 1, n + 1))

    _, raw_labels = connected_components(adj, directed=True, connection="strong")
    raw = raw_labels[:n]
    # Renumber components by first appearance (deterministic, readable ids).
    _, first_pos = np.unique(raw, return_index=True)
    order = np.argsort(first_pos, kind="stable")
    renum = np.empty(raw_labels.max() + 1, dtype=np.int64)
    renum[np.unique(raw)[order]] = np.arange(len(order), dtype=np.int64)
    comp = renum[raw]
    k = len(order)

    reached = np.zeros(n, dtype=bool)
    parent = np.full(n, -1, dtype=np.int64)
    if len(resp_idx):
        nodes, preds = breadth_first_order(adj, n, directed=True, return_predecessors=True)
        nodes = nodes[nodes != n]
        reached[nodes] = True
        p = preds[:n].astype(np.int64)
        p[(p == n) | (p < 0)] = -1
        parent = p

    is_ctx_comp = np.zeros(k, dtype=bool)
    is_ctx_comp[comp[is_context]] = True
    is_resp_comp = np.zeros(k, dtype=bool)
    is_resp_comp[comp[is_response]] = True
    comp_reached = np.zeros(k, dtype=bool)
    comp_reached[comp[reached]] = True
    is_covered = is_ctx_comp & comp_reached
    uncovered = is_ctx_comp & ~is_covered

    cs = comp[src]
    cd = comp[dst]
    into_uncovered = (cs != cd) & uncovered[cs] & uncovered[cd]
    has_uncovered_pred = np.zeros(k, dtype=bool)
    has_uncovered_pred[cd[into_uncovered]] = True
    is_basis = uncovered & ~has_uncovered_pred

    return CoverageArrays(
        component=comp,
        n_components=k,
        reached=reached,
        parent=parent,
        is_context_component=is_ctx_comp,
        is_response_component=is_resp_comp,
        is_covered=is_covered,
        is_basis=is_basis,
    )


@dataclass(frozen=True)
class Component:
    """One strongly connected component of the entailment subgraph (equivalent statements)."""

    id: str
    members: tuple[str, ...]
    representative: str
    text: str
    has_context: bool
    has_response: bool
    status: str  # "covered" | "uncovered" | "response"
    basis: bool


def comprehensiveness_score(
    n_covered: int, n_uncovered: int, empty: float | None = None
) -> float | None:
    """Comprehensiveness ``S = |A_in| / (|A_in| + |A_out|)`` (Dejl et al. 2025, §3, Eq. 1).

    With no context statement (``|A_in| + |A_out| = 0``) ``S`` is undefined; ``empty`` is
    returned (``None`` by default; IBM's reference code stores 0.0).
    """
    if n_covered < 0 or n_uncovered < 0:
        raise ValueError("counts must be non-negative")
    total = n_covered + n_uncovered
    if total == 0:
        return empty
    return n_covered / total


@dataclass
class Coverage:
    """Coverage of one fact graph: components, covered / uncovered / basis, S, explanations."""

    graph: FactGraph | GraphTable
    arrays: CoverageArrays
    ids: list[str]
    _index: dict[str, int] = field(repr=False)
    src: IntArray = field(repr=False, default_factory=lambda: np.zeros(0, dtype=np.int64))
    dst: IntArray = field(repr=False, default_factory=lambda: np.zeros(0, dtype=np.int64))

    @property
    def score(self) -> float | None:
        """Comprehensiveness S; None when the graph has no context statement."""
        return comprehensiveness_score(self.n_covered, self.n_uncovered)

    @property
    def n_covered(self) -> int:
        return int(self.arrays.is_covered.sum())

    @property
    def n_uncovered(self) -> int:
        return int(self.arrays.is_uncovered.sum())

    @property
    def n_basis(self) -> int:
        return int(self.arrays.is_basis.sum())

    @cached_property
    def _members(self) -> list[list[int]]:
        members: list[list[int]] = [[] for _ in range(self.arrays.n_components)]
        for i, c in enumerate(self.arrays.component.tolist()):
            members[c].append(i)
        return members

    def component(self, number: int) -> Component:
        """The component with this number, with its representative chosen as in Dejl et al. 2025,
        §3.1."""
        a = self.arrays
        idx = self._members[number]
        stmts = self.graph.statements
        ctx = [i for i in idx if stmts[i].origin is Origin.context]
        pool = ctx or idx
        counts = Counter(stmts[i].text for i in pool)
        best_text = min(counts, key=lambda t: (-counts[t], t))
        rep = next(i for i in pool if stmts[i].text == best_text)
        if a.is_covered[number]:
            status = "covered"
        elif a.is_context_component[number]:
            status = "uncovered"
        else:
            status = "response"
        return Component(
            id=f"scc{number}",
            members=tuple(self.ids[i] for i in idx),
            representative=self.ids[rep],
            text=best_text,
            has_context=bool(a.is_context_component[number]),
            has_response=bool(a.is_response_component[number]),
            status=status,
            basis=bool(a.is_basis[number]),
        )

    def components(self) -> list[Component]:
        return [self.component(c) for c in range(self.arrays.n_components)]

    def covered(self) -> list[Component]:
        return [self.component(int(c)) for c in np.flatnonzero(self.arrays.is_covered)]

    def uncovered(self) -> list[Component]:
        return [self.component(int(c)) for c in np.flatnonzero(self.arrays.is_uncovered)]

    def basis(self) -> list[Component]:
        return [self.component(int(c)) for c in np.flatnonzero(self.arrays.is_basis)]

    def component_of(self, statement_id: str) -> Component:
        return self.component(int(self.arrays.component[self._position(statement_id)]))

    def _position(self, statement_id: str) -> int:
        try:
            return self._index[statement_id]
        except KeyError:
            raise KeyError(f"unknown statement id {statement_id!r}") from None

    def explain(self, statement_id: str) -> list[str] | None:
        """The shortest entailment path from a response statement to ``statement_id``.

        Returns the statement ids along the path (first is a response statement, last is
        ``statement_id``; a response statement explains itself), or ``None`` when no response
        statement reaches it.
        """
        i = self._position(statement_id)
        if not self.arrays.reached[i]:
            return None
        path = [i]
        parent = self.arrays.parent
        while parent[path[-1]] >= 0:
            path.append(int(parent[path[-1]]))
        path.reverse()
        return [self.ids[j] for j in path]


def analyze(graph: FactGraph, min_probability: float | None = None) -> Coverage:
    """Coverage, comprehensiveness and uncovered basis of a fact graph (Dejl et al. 2025, §3.1).

    ``min_probability`` drops entailment edges whose recorded probability is below it (edges
    without a probability are kept).
    """
    coverage = analyze_table(GraphTable.from_graph(graph), min_probability)
    coverage.graph = graph
    return coverage


def analyze_table(table: GraphTable, min_probability: float | None = None) -> Coverage:
    """:func:`analyze` on the array form of a graph (what large files are read into)."""
    ids = [s.id for s in table.statements]
    index = {sid: i for i, sid in enumerate(ids)}
    src, dst = table.entailment_edges(min_probability)
    is_response = table.response_mask()
    arrays = coverage_arrays(len(ids), src, dst, is_response, ~is_response)
    return Coverage(graph=table, arrays=arrays, ids=ids, _index=index, src=src, dst=dst)


def condensation_edges(coverage: Coverage) -> Sequence[tuple[int, int]]:
    """Distinct edges of the condensation ``G_C`` between different components."""
    comp = coverage.arrays.component
    cs, cd = comp[coverage.src], comp[coverage.dst]
    keep = cs != cd
    pairs = np.unique(np.stack([cs[keep], cd[keep]], axis=1), axis=0)
    return [(int(a), int(b)) for a, b in pairs]


# ---- what every reader shows: one rule for S, and the "wrong" half ----------------------------

SCORE_KEY = "comprehensiveness"


def reported_comprehensiveness(
    scores: Mapping[str, float | None], graph: FactGraph | Coverage
) -> float | None:
    """The comprehensiveness S every reader shows for an evaluation (``analyze``, ``report``,
    ``explore``, ``view``, the fact database, ``to_frame``).

    The score recorded in ``scores`` when the key is there — ``None`` included: a method that
    could not score records ``None`` with its reason, and that must not turn into the graph's
    0 — else, when the file carries no such score, the graph's S (``graph`` is the fact graph
    or its :class:`Coverage`, so a caller that has analysed it already pays nothing).
    """
    if SCORE_KEY in scores:
        return scores[SCORE_KEY]
    return (graph if isinstance(graph, Coverage) else analyze(graph)).score


def basis_representatives(coverage: Coverage) -> list[str]:
    """The uncovered basis as statement ids: one statement per basis component, its
    representative (the engine's rule, :meth:`Coverage.component`), in component order.

    Equivalent context statements ("built in 1856" / "construction finished in 1856") are one
    fact to add, so every export of the basis names only this one."""
    return [coverage.component(int(c)).representative
            for c in np.flatnonzero(coverage.arrays.is_basis)]


@dataclass(frozen=True)
class ContradictedFact:
    """A context statement a response statement contradicts."""

    statement_id: str
    text: str
    source_id: str | None
    probability: float | None  # the highest recorded over the pair's relations; None if none


@dataclass(frozen=True)
class Contradiction:
    """A response statement in conflict with the background: a ``contradicts`` relation joins
    it to at least one context statement (either direction). What makes an answer *wrong*
    rather than incomplete; it never changes coverage."""

    statement_id: str
    text: str
    contradicts: tuple[ContradictedFact, ...]


def contradictions(graph: FactGraph | GraphTable) -> list[Contradiction]:
    """The response statements that contradict a context statement, each with the context
    statements it contradicts.

    Response statements in file order, their contradicted facts in file order; a pair joined
    by several relations (both directions) is listed once. Contradictions between two response
    statements or two context statements are not listed (they say nothing about the answer's
    correctness against the background). A table read without relation labels
    (``is_contradicts`` None) has none. O(V + E).
    """
    table = graph if isinstance(graph, GraphTable) else GraphTable.from_graph(graph)
    if table.is_contradicts is None or not table.is_contradicts.any():
        return []
    stmts = table.statements
    is_response = table.response_mask()
    keep = table.is_contradicts
    src, dst, prob = table.src[keep], table.dst[keep], table.probability[keep]
    # Orient every pair response -> context; drop response-response and context-context.
    mixed = is_response[src] != is_response[dst]
    resp = np.where(is_response[src], src, dst)[mixed]
    ctx = np.where(is_response[src], dst, src)[mixed]
    prob = prob[mixed]
    best: dict[tuple[int, int], float | None] = {}
    for r, c, p in zip(resp.tolist(), ctx.tolist(), prob.tolist(), strict=True):
        value = None if p != p else float(p)  # NaN: no recorded probability
        old = best.get((r, c))
        best[(r, c)] = value if old is None else (old if value is None else max(old, value))
    by_response: dict[int, list[int]] = {}
    for r, c in sorted(best):
        by_response.setdefault(r, []).append(c)
    return [
        Contradiction(
            statement_id=stmts[r].id, text=stmts[r].text,
            contradicts=tuple(ContradictedFact(statement_id=stmts[c].id, text=stmts[c].text,
                                               source_id=stmts[c].source_id,
                                               probability=best[(r, c)])
                              for c in cs))
        for r, cs in by_response.items()
    ]
