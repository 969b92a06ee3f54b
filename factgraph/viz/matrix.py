"""The coverage matrix of one query: its context facts against its responses.

Rows are the query's context components, merged across responses by the database's own rule
(``factgraph.store.records``): a context statement is the same fact in every response when it
has the same query, source document and text (``context_statement_id``), and statements that
are equivalent (one strongly connected component, Dejl et al. 2025, §3.1) in any response's
graph share one row (union of the components over all responses). Columns are the responses,
grouped by model. A cell says what that response's graph makes of the row's statements:

* ``covered``   some member is in a covered component (a response statement entails it);
* ``basis``     none is covered and some member is in the uncovered basis (add this fact);
* ``uncovered`` none is covered or in the basis, but the response's graph holds the fact;
* ``absent``    the response's graph does not hold any of the row's statements.

Rows are sorted so the facts every response misses come first: by the number of responses
covering the row (ascending), then by how many have it in their basis (descending), then by
source and text.
"""

from __future__ import annotations

import html
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field

from factgraph.errors import UserInputError
from factgraph.graph import Coverage, analyze, reported_comprehensiveness
from factgraph.models import Evaluation, Origin
from factgraph.store.records import query_id, statement_node_id


class CellState(str, Enum):
    covered = "covered"
    basis = "basis"
    uncovered = "uncovered"
    absent = "absent"


# Which state a cell takes when the row's members disagree inside one response (the first wins).
_PRECEDENCE = (CellState.covered, CellState.basis, CellState.uncovered)


class MatrixColumn(BaseModel):
    """One response (one Evaluation) of the query."""

    evaluation_id: str
    response_id: str
    model: str
    method: str
    comprehensiveness: float | None = None


class MatrixCell(BaseModel):
    """Immutable: equal cells of a matrix are one shared object."""

    model_config = ConfigDict(frozen=True)

    state: CellState
    statement_id: str | None = Field(
        default=None, description="The statement to open in this response's view (its own id "
                                  "in the Evaluation's graph); None when absent.")


class MatrixRow(BaseModel):
    """One context fact (a merged context component) of the query."""

    key: str = Field(description="The smallest database statement id among the members.")
    text: str
    source_ids: list[str]
    statement_ids: list[str] = Field(description="Database statement ids of the members.")
    cells: list[MatrixCell]

    @property
    def n_covered(self) -> int:
        return sum(c.state is CellState.covered for c in self.cells)

    @property
    def n_basis(self) -> int:
        return sum(c.state is CellState.basis for c in self.cells)

    @property
    def missed_by_all(self) -> bool:
        """No response covers it (responses that lack the fact altogether count as missing)."""
        return self.n_covered == 0


class CoverageMatrix(BaseModel):
    query: str
    query_id: str
    columns: list[MatrixColumn]
    rows: list[MatrixRow]

    def state_table(self) -> list[list[str]]:
        """The cell states as text, row by row (for tests and exports)."""
        return [[c.state.value for c in r.cells] for r in self.rows]


class _UnionFind:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        root = x
        while self.parent[root] != root:
            root = self.parent[root]
        while self.parent[x] != root:  # path compression
            self.parent[x], x = root, self.parent[x]
        return root

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)


def _query_text(ev: Evaluation) -> str:
    return ev.query or ev.graph.query


@dataclass(frozen=True, slots=True)
class ResponseCells:
    """What a coverage matrix keeps of one Evaluation: its column and, per database statement
    id of its context statements, the cell state and the local statement id to open."""

    sort_key: tuple[str, str, str]
    column: tuple[str, str, str, str, float | None]  # the MatrixColumn fields, in order
    states: dict[str, tuple[CellState, str]]


class MatrixBuilder:
    """The coverage matrix of one query, folded one Evaluation at a time.

    Keeps per response only its :class:`ResponseCells` (a few hundred bytes per context
    statement) and per distinct context fact its texts, sources and equivalence class, so the
    Evaluations themselves can be dropped as they are read. :func:`coverage_matrix` is this
    builder over a list.
    """

    def __init__(self, query: str) -> None:
        self.query = query
        self.query_id = query_id(query)
        self._union = _UnionFind()
        self._texts: dict[str, Counter[str]] = defaultdict(Counter)
        self._sources: dict[str, set[str]] = defaultdict(set)
        self._responses: list[ResponseCells] = []
        # One object per distinct string / (state, local id) pair, shared by every response.
        self._shared: dict[object, object] = {}

    def __len__(self) -> int:
        return len(self._responses)

    @property
    def has_rows(self) -> bool:
        """Whether the matrix will have a row (some response holds a context statement)."""
        return bool(self._texts)

    def _share(self, x: Any) -> Any:
        return self._shared.setdefault(x, x)

    def add(self, ev: Evaluation, coverage: Coverage | None = None) -> None:
        """Fold in one Evaluation of this query (``coverage``: ``analyze(ev.graph)``, when the
        caller has it already). Raises ValueError for an Evaluation of another query."""
        if _query_text(ev) != self.query:
            raise UserInputError("a coverage matrix is per query; got 2 queries")
        cov = coverage if coverage is not None else analyze(ev.graph)
        a = cov.arrays
        # Plain lists: indexing numpy arrays one element at a time is slow in a loop.
        covered, basis = a.is_covered.tolist(), a.is_basis.tolist()
        component_state = [CellState.covered if covered[c] else
                           CellState.basis if basis[c] else CellState.uncovered
                           for c in range(a.n_components)]
        by_component: dict[int, list[str]] = defaultdict(list)
        states: dict[str, tuple[CellState, str]] = {}
        context, share = Origin.context, self._share
        for s, c in zip(ev.graph.statements, a.component.tolist(), strict=True):
            if s.origin is not context:
                continue
            node = share(statement_node_id(ev, self.query_id, s))
            by_component[c].append(node)
            self._texts[node][s.text] += 1
            self._sources[node].add(s.source_id or "")
            mine = share((component_state[c], share(s.id)))
            old = states.get(node)
            states[node] = mine if old is None else _better(old, mine) or mine
        for members in by_component.values():
            self._union.find(members[0])
            for m in members[1:]:
                self._union.union(members[0], m)
        s_score = reported_comprehensiveness(ev.scores, cov)  # the rule every reader shows
        model, rid = ev.model or "(unknown model)", ev.response_id or ev.id
        self._responses.append(ResponseCells(
            sort_key=(share(ev.model or ""), rid, ev.id),
            column=(ev.id, rid, share(model), share(ev.method),
                    s_score),
            states=states))

    def build(self) -> CoverageMatrix:
        """The matrix (see the module docstring for rows, cells and their order)."""
        responses = sorted(self._responses, key=lambda r: r.sort_key)
        groups: dict[str, list[str]] = defaultdict(list)
        for node in sorted(self._texts):
            groups[self._union.find(node)].append(node)
        rows = []
        shared: dict[tuple[CellState, str] | None, MatrixCell] = {}  # equal cells: one object
        for root, members in groups.items():
            counts: Counter[str] = Counter()
            for m in members:
                counts.update(self._texts[m])
            text = min(counts, key=lambda t: (-counts[t], t))  # the engine's representative rule
            cells = []
            for r in responses:
                best: tuple[CellState, str] | None = None
                for m in members:
                    best = _better(best, r.states.get(m))
                cell = shared.get(best)
                if cell is None:
                    cell = shared[best] = (MatrixCell(state=best[0], statement_id=best[1])
                                           if best else MatrixCell(state=CellState.absent))
                cells.append(cell)
            rows.append(MatrixRow(key=root, text=text,
                                  source_ids=sorted(set().union(*(self._sources[m]
                                                                  for m in members))),
                                  statement_ids=members, cells=cells))
        rows.sort(key=lambda r: (r.n_covered, -r.n_basis, r.source_ids, r.text, r.key))
        columns = [MatrixColumn(evaluation_id=c[0], response_id=c[1], model=c[2], method=c[3],
                                comprehensiveness=c[4]) for c in (r.column for r in responses)]
        return CoverageMatrix(query=self.query, query_id=self.query_id, columns=columns,
                              rows=rows)


class MatricesByQuery:
    """One :class:`MatrixBuilder` per query, in the order the queries first appear."""

    def __init__(self) -> None:
        self._builders: dict[str, MatrixBuilder] = {}

    def add(self, ev: Evaluation, coverage: Coverage | None = None) -> None:
        q = _query_text(ev)
        builder = self._builders.get(q)
        if builder is None:
            builder = self._builders[q] = MatrixBuilder(q)
        builder.add(ev, coverage)

    def builders(self) -> list[MatrixBuilder]:
        return list(self._builders.values())


def coverage_matrix(evaluations: Sequence[Evaluation]) -> CoverageMatrix:
    """The coverage matrix of evaluations that answer one query (see the module docstring).

    Raises ValueError when the evaluations answer more than one query.
    """
    queries = {_query_text(ev) for ev in evaluations}
    if len(queries) > 1:
        raise UserInputError(f"a coverage matrix is per query; got {len(queries)} queries")
    builder = MatrixBuilder(next(iter(queries), ""))
    for ev in evaluations:
        builder.add(ev)
    return builder.build()


_RANK = {state: rank for rank, state in enumerate(_PRECEDENCE)}


def _better(old: tuple[CellState, str] | None,
            new: tuple[CellState, str] | None) -> tuple[CellState, str] | None:
    if old is None:
        return new
    if new is None:
        return old
    return new if _RANK[new[0]] < _RANK[old[0]] else old


def matrices_by_query(evaluations: Iterable[Evaluation]) -> list[CoverageMatrix]:
    """One coverage matrix per query, in the order the queries first appear."""
    by_query = MatricesByQuery()
    for ev in evaluations:
        by_query.add(ev)
    return [b.build() for b in by_query.builders()]


# ---- HTML (static: no script; used by the report and the explorer) ---------------------------

STATE_LABELS = {
    CellState.covered: ("●", "covered"),
    CellState.basis: ("◆", "uncovered, in the basis (add this)"),
    CellState.uncovered: ("○", "uncovered"),
    CellState.absent: ("·", "not in this response's graph"),
}


def statement_link(view_url: str, statement_id: str) -> str:
    """The view's URL opened at a statement (view.js reads ``#statement=ID``)."""
    return f"{view_url.split('#', 1)[0]}#statement={quote(statement_id, safe='')}"


def render_matrix(matrix: CoverageMatrix, view_links: Mapping[str, str] | None = None,
                  max_rows: int | None = None) -> str:
    """The matrix as an HTML table; every text escaped (see :func:`iter_matrix_html`)."""
    return "".join(iter_matrix_html(matrix, view_links, max_rows))


def iter_matrix_html(matrix: CoverageMatrix, view_links: Mapping[str, str] | None = None,
                     max_rows: int | None = None) -> Iterator[str]:
    """The matrix as an HTML table in pieces (a table row each); every text escaped.

    ``view_links`` maps evaluation ids to their view URLs: cells then link to the view opened
    at the cell's statement, with its covering path highlighted. ``max_rows`` cuts long
    matrices (the facts missed by all come first, so they are always shown).
    """
    e = html.escape
    links = view_links or {}
    cols = matrix.columns
    by_model: list[tuple[str, int]] = []
    for c in cols:
        if by_model and by_model[-1][0] == c.model:
            by_model[-1] = (c.model, by_model[-1][1] + 1)
        else:
            by_model.append((c.model, 1))
    rows = matrix.rows if max_rows is None else matrix.rows[:max_rows]
    missed = [r.missed_by_all for r in rows]
    n_missed = sum(r.missed_by_all for r in matrix.rows)
    out = [f'<div class="fg-matrix-wrap"><p class="fg-matrix-summary">{len(matrix.rows)} '
           f"context facts × {len(cols)} responses; {n_missed} missed by every response.</p>",
           '<table class="fg-matrix"><thead><tr><th rowspan="2">context fact</th>'
           '<th rowspan="2">source</th>']
    out += [f'<th colspan="{n}" class="fg-model">{e(m)}</th>' for m, n in by_model]
    out.append("</tr><tr>")
    for c in cols:
        score = "undefined" if c.comprehensiveness is None else f"{c.comprehensiveness:.3f}"
        label = e(c.response_id)
        link = links.get(c.evaluation_id)
        head = f'<a href="{e(link, quote=True)}">{label}</a>' if link else label
        out.append(f'<th class="fg-col" title="{e(c.method, quote=True)} · S = {score}">'
                   f"{head}</th>")
    out.append("</tr></thead><tbody>")
    # Per column, escaped once: the cell's opening tag for each state and the link's base.
    opening = [{state: f'<td class="fg-cell {state.value}" data-state="{state.value}" title="'
                       f'{e(f"{c.response_id} ({c.model}): {meaning}", quote=True)}">'
                for state, (_, meaning) in STATE_LABELS.items()} for c in cols]
    bases = [statement_link(links[c.evaluation_id], "") if c.evaluation_id in links else None
             for c in cols]
    for r, missed_all in zip(rows, missed, strict=True):
        cls = ' class="fg-missed-all"' if missed_all else ""
        out.append(f'<tr{cls} data-key="{e(r.key, quote=True)}"><td class="fg-fact">'
                   f'{e(r.text)}</td><td class="fg-src">{e(", ".join(r.source_ids))}</td>')
        for j, cell in enumerate(r.cells):
            symbol = STATE_LABELS[cell.state][0]
            base = bases[j]
            if base is not None and cell.statement_id is not None:
                href = e(base + quote(cell.statement_id, safe=""), quote=True)
                out.append(f'{opening[j][cell.state]}<a href="{href}">{symbol}</a></td>')
            else:
                out.append(f"{opening[j][cell.state]}{symbol}</td>")
        out.append("</tr>")
        yield "".join(out)
        out.clear()
    out.append("</tbody></table>")
    if max_rows is not None and len(matrix.rows) > max_rows:
        out.append(f'<p class="fg-matrix-more">{len(matrix.rows) - max_rows} more rows '
                   "(every response covers at least as much of them as of those shown).</p>")
    out.append('<p class="fg-matrix-legend">'
               + " ".join(f'<span class="fg-cell {s.value}">{sym}</span> {e(mean)}'
                          for s, (sym, mean) in STATE_LABELS.items()) + "</p></div>")
    yield "".join(out)



class LeaderboardRow(BaseModel):
    """One model's responses to the query, read off the matrix."""

    model: str
    responses: int
    mean_comprehensiveness: float | None
    mean_covered: float
    mean_basis: float
    only_this_model: int = Field(description="Facts some response of this model covers and no "
                                             "response of another model covers.")


def leaderboard(matrix: CoverageMatrix) -> list[LeaderboardRow]:
    """Per model: mean S (undefined scores left out), mean covered and basis facts per response,
    and the facts only this model covers; best mean S first (undefined last)."""
    models = sorted({c.model for c in matrix.columns})
    out = []
    for model in models:
        idx = [j for j, c in enumerate(matrix.columns) if c.model == model]
        scores = [s for j in idx if (s := matrix.columns[j].comprehensiveness) is not None]
        only = sum(
            1 for r in matrix.rows
            if any(r.cells[j].state is CellState.covered for j in idx)
            and not any(c.state is CellState.covered for j, c in enumerate(r.cells)
                        if j not in idx))
        out.append(LeaderboardRow(
            model=model, responses=len(idx),
            mean_comprehensiveness=sum(scores) / len(scores) if scores else None,
            mean_covered=sum(r.cells[j].state is CellState.covered
                             for r in matrix.rows for j in idx) / len(idx),
            mean_basis=sum(r.cells[j].state is CellState.basis
                           for r in matrix.rows for j in idx) / len(idx),
            only_this_model=only))
    out.sort(key=lambda r: (r.mean_comprehensiveness is None, -(r.mean_comprehensiveness or 0),
                            r.model))
    return out
