"""Why each context statement is covered, contradicted or missing: one reason per statement,
read off the graph, that every reader shows the same way (``analyze``, ``report``, ``view``,
``explore``).

* **covered** — the response statement that starts the statement's explaining path (the
  engine's shortest entailment path, :meth:`Coverage.explain`), quoted, and what the first
  relation of that path records: its ``method``, ``probability``, ``metadata["evidence"]``
  (the evidence judge: each check and its value) and ``trace_id`` (a model call); where the
  relation records no evidence, the statement's own (other judges put ``word_share``,
  ``similarity``, ``p_covered`` on the fact).
* **contradicted** (not covered, joined to a response statement by a ``contradicts``
  relation) — that response statement, quoted, and the relation's ``method`` and
  ``metadata["conflict"]`` (``slot``, the fact's value, the response's value); a fact several
  response statements contradict names the first in file order, and lists them all.
* **missing** — the nearest response statement where the judge recorded one
  (``metadata["evidence"]["nearest_sentence"]``) and the fact's P (``p_covered``).

Quotes are the response statement's text, shortened (never the whole of a long response). A
graph read by the fast file reader keeps relation details only for the relations a reason can
name; where a relation's details were not kept, a reason carries what is known (the response
statement, the path, the probability).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from factgraph.graph import Coverage, GraphTable, RelationLike, StatementLike

QUOTE_CHARS = 300  # the longest quote a reason's record carries
PATH_LIMIT = 20  # entailment steps a reason's path lists in full (longer: start, hop, end)
LINE_QUOTE_CHARS = 80  # the longest quote its one-line form shows
# What other judges record on a fact's statement (read as its evidence when the relation
# records none), in the order the one-line form shows them.
STATEMENT_EVIDENCE_KEYS = ("p_stated", "p_covered", "word_share", "similarity",
                           "sentence_share", "weighted_share", "bigram_share",
                           "numbers_missing", "names_missing", "distinct_share",
                           "distinct_sentence_share", "model_p_yes", "model_p_no",
                           "p_combined")
# The checks the one-line form shows, with their short names.
LINE_KEYS = (("p_stated", "P"), ("word_share", "words"), ("similarity", "similarity"),
             ("numbers_missing", "numbers missing"), ("names_missing", "names missing"),
             ("model_p_yes", "model P(yes)"), ("model_p_no", "model P(no)"),
             ("p_combined", "combined P"), ("p_clauses", "clauses P"))


def shorten(text: str, n: int) -> str:
    """``text`` on one line, at most ``n`` characters (an ellipsis marks a cut)."""
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


@dataclass(frozen=True)
class Reason:
    """Why one context statement is covered, contradicted or missing (see the module)."""

    statement_id: str
    status: str  # "covered" | "contradicted" | "missing"
    response_statement_id: str | None = None  # covering, contradicting or nearest
    quote: str | None = None  # that statement's text, shortened to QUOTE_CHARS
    method: str | None = None
    probability: float | None = None
    evidence: Mapping[str, Any] = field(default_factory=dict)
    conflict: Mapping[str, Any] | None = None
    description: str | None = None  # the judge's one-line note on a contradiction
    trace_id: str | None = None
    path: tuple[str, ...] = ()  # covered: the explaining path, response statement first
    steps: int = 0  # covered: its entailment steps (more than the path shows past PATH_LIMIT)
    contradicted_by: tuple[str, ...] = ()  # every response statement contradicting it

    def record(self) -> dict[str, Any]:
        """The JSON form (``analyze --format json``'s ``why``; the view's data)."""
        return {
            "status": self.status, "response_statement_id": self.response_statement_id,
            "quote": self.quote, "method": self.method, "probability": self.probability,
            "evidence": dict(self.evidence),
            "conflict": None if self.conflict is None else dict(self.conflict),
            "description": self.description, "trace_id": self.trace_id,
            "path": list(self.path), "steps": self.steps,
            "contradicted_by": list(self.contradicted_by),
            "line": self.line(),
        }

    def line(self) -> str:
        """One line for tables and lists, e.g. ``covered by [r1] "…" (evidence: P 0.78,
        words 0.88)`` or ``contradicted by [r2] "…" (antonym: positive → negative)``."""
        quoted = self._quoted()
        if self.status == "covered":
            cut = " → …" if self.steps > len(self.path) - 1 else ""
            via = f" via {' → '.join(f'[{s}]' for s in self.path[1:-1])}{cut}" \
                if len(self.path) > 2 else ""
            text = f"covered by{quoted}{via}{self._checks()}"
            if self.contradicted_by:
                text += "; also contradicted by " + ", ".join(f"[{s}]"
                                                              for s in self.contradicted_by)
            return text
        if self.status == "contradicted":
            if self.conflict:
                c = self.conflict
                what = f" ({c.get('slot', self.method)}: {c.get('fact')} → {c.get('response')})"
            elif self.description:
                what = f" ({self.description})"
            else:  # the contradicting relation's own check, not the fact's coverage evidence
                what = self._checks(with_evidence=False)
            return f"contradicted by{quoted}{what}"
        nearest = f"; nearest{quoted}" if self.response_statement_id else ""
        checks = self._checks()
        return f"missing{checks or ': no response statement entails it'}{nearest}"

    def _quoted(self) -> str:
        if self.response_statement_id is None:
            return ""
        quote = "" if self.quote is None else f' "{shorten(self.quote, LINE_QUOTE_CHARS)}"'
        return f" [{self.response_statement_id}]{quote}"

    def _checks(self, with_evidence: bool = True) -> str:
        """`` (method: P 0.78, words 0.88)``; empty when nothing is recorded."""
        values = dict(self.evidence) if with_evidence else {}
        if "p_stated" not in values:
            p = self.probability if self.probability is not None else values.get("p_covered")
            if p is not None:
                values["p_stated"] = p
        parts = [f"{name} {values[key]:.2f}" for key, name in LINE_KEYS
                 if isinstance(values.get(key), int | float) and not isinstance(
                     values.get(key), bool)
                 and (key not in ("numbers_missing", "names_missing") or values[key] > 0)]
        read_as = values.get("read_as")
        if isinstance(read_as, list | tuple) and read_as:
            parts.append("read as " + "; ".join(str(x) for x in read_as))
        body = ", ".join(parts)
        if self.method and body:
            return f" ({self.method}: {body})"
        if self.method or body:
            return f" ({self.method or body})"
        return ""


@dataclass(frozen=True)
class Reasons:
    """The reasons of one graph: per context statement, and per contradicting pair
    ``(response statement id, context statement id)``."""

    by_statement: Mapping[str, Reason]
    by_pair: Mapping[tuple[str, str], Reason]

    def of(self, statement_id: str) -> Reason | None:
        return self.by_statement.get(statement_id)

    def pair(self, response_id: str, context_id: str) -> Reason | None:
        return self.by_pair.get((response_id, context_id))


def _metadata(obj: object) -> Mapping[str, Any]:
    md = getattr(obj, "metadata", None)
    return md if isinstance(md, dict) else {}


def _statement_evidence(stmt: StatementLike) -> dict[str, Any]:
    """What a judge recorded on the fact itself: its ``evidence`` record (less the nearest
    sentence, which a reason names apart) or, from other judges, the known keys."""
    md = _metadata(stmt)
    if not md:
        return {}
    ev = md.get("evidence")
    if isinstance(ev, dict):
        return {k: v for k, v in ev.items() if k != "nearest_sentence"}
    return {k: md[k] for k in STATEMENT_EVIDENCE_KEYS
            if isinstance(md.get(k), int | float) and not isinstance(md.get(k), bool)}


def _p_of(stmt: StatementLike) -> float | None:
    p = _metadata(stmt).get("p_covered")
    return float(p) if isinstance(p, int | float) and not isinstance(p, bool) else None


def _best(positions: list[int], probability: np.ndarray) -> int:
    """The relation with the highest recorded probability (none recorded lowest), the first
    in file order on a tie."""
    if len(positions) == 1:
        return positions[0]
    return max(positions, key=lambda i: (probability[i] == probability[i], probability[i]
                                         if probability[i] == probability[i] else 0.0, -i))


def _pair_positions(table: GraphTable, mask: np.ndarray, pairs: set[tuple[int, int]]
                    ) -> dict[tuple[int, int], list[int]]:
    """Positions of the relations in ``mask`` joining one of ``pairs`` (``src, dst``)."""
    found: dict[tuple[int, int], list[int]] = {}
    if not pairs:
        return found
    n = len(table.statements)
    keys = np.array([a * n + b for a, b in pairs], dtype=np.int64)
    # a cheap first cut (both ends among the pairs' ends) before the exact match
    ends = np.zeros((2, n), dtype=bool)
    ends[0, [a for a, _ in pairs]] = True
    ends[1, [b for _, b in pairs]] = True
    cand = np.flatnonzero(mask & ends[0][table.src] & ends[1][table.dst])
    hit = cand[np.isin(table.src[cand] * n + table.dst[cand], keys)]
    for i, a, b in zip(hit.tolist(), table.src[hit].tolist(), table.dst[hit].tolist(),
                       strict=True):
        found.setdefault((a, b), []).append(i)
    return found


def _relation_fields(table: GraphTable, position: int | None) -> dict[str, Any]:
    if position is None:
        return {}
    p = float(table.probability[position])
    rel: RelationLike | None = table.relation_details(position)
    md = _metadata(rel)
    return {"probability": None if p != p else p,
            "method": None if rel is None else rel.method,
            "trace_id": None if rel is None else rel.trace_id,
            "evidence": md.get("evidence") if isinstance(md.get("evidence"), dict) else None,
            "conflict": md.get("conflict") if isinstance(md.get("conflict"), dict) else None}


def reasons(coverage: Coverage, only: Collection[str] | None = None) -> Reasons:
    """The reason of every context statement of ``coverage``'s graph, and of every pair of a
    response statement and a context statement it contradicts (see the module). O(V + E)
    plus the length of the explaining paths.

    ``only`` limits the statements given a reason to these ids (pairs are all kept): a reader
    that shows one reason per component asks for its representatives only, and on a large
    graph that skips the paths and relations of the statements it never shows. A reason does
    not depend on which others are asked for."""
    g = coverage.graph
    table = g if isinstance(g, GraphTable) else GraphTable.from_graph(g)
    stmts = table.statements
    is_response = table.response_mask()
    said = is_response.tolist()  # plain lists: numpy scalars are slow one at a time
    pos = coverage._index
    a = coverage.arrays

    # contradictions between the response and the background, best relation per pair
    contra: dict[int, list[int]] = {}  # context position -> response positions, file order
    contra_rel: dict[tuple[int, int], int] = {}
    if table.is_contradicts is not None and table.is_contradicts.any():
        mask = table.is_contradicts
        src, dst = table.src[mask], table.dst[mask]
        mixed = is_response[src] != is_response[dst]
        oriented: dict[tuple[int, int], list[int]] = {}
        for i, s, d in zip(np.flatnonzero(mask)[mixed].tolist(), src[mixed].tolist(),
                           dst[mixed].tolist(), strict=True):
            r, c = (s, d) if said[s] else (d, s)
            oriented.setdefault((r, c), []).append(i)
        for (r, c), positions in sorted(oriented.items()):
            contra.setdefault(c, []).append(r)
            contra_rel[(r, c)] = _best(positions, table.probability)

    # the explaining paths of covered context statements and their first relations
    wanted = ~is_response
    if only is not None:
        chosen = np.zeros(len(stmts), dtype=bool)
        chosen[[pos[sid] for sid in only if sid in pos]] = True
        wanted &= chosen
    covered = a.is_covered[a.component] & wanted
    paths = _paths(a.parent.tolist(), np.flatnonzero(covered).tolist())
    firsts = _pair_positions(table, table.is_entails,
                             {(p[0], p[1]) for p, _ in paths.values()})

    by_pair: dict[tuple[str, str], Reason] = {}
    for (r, c), position in contra_rel.items():
        fields = _relation_fields(table, position)
        by_pair[(stmts[r].id, stmts[c].id)] = Reason(
            statement_id=stmts[c].id, status="contradicted",
            response_statement_id=stmts[r].id, quote=shorten(stmts[r].text, QUOTE_CHARS),
            method=fields["method"], probability=fields["probability"],
            evidence=_statement_evidence(stmts[c]), conflict=fields["conflict"],
            description=_description(stmts[c]), trace_id=fields["trace_id"],
            contradicted_by=tuple(stmts[x].id for x in contra[c]))

    by_statement: dict[str, Reason] = {}
    for i in np.flatnonzero(wanted).tolist():
        s = stmts[i]
        against = tuple(stmts[x].id for x in contra[i]) if i in contra else ()
        if i in paths:
            steps, n_steps = paths[i]
            first = firsts.get((steps[0], steps[1]))
            fields = _relation_fields(table, None if not first else _best(first,
                                                                         table.probability))
            r, recorded = steps[0], fields.get("probability")
            by_statement[s.id] = Reason(
                statement_id=s.id, status="covered", response_statement_id=stmts[r].id,
                quote=shorten(stmts[r].text, QUOTE_CHARS), method=fields.get("method"),
                probability=recorded if recorded is not None else _p_of(s),
                evidence=fields.get("evidence") or _statement_evidence(s),
                trace_id=fields.get("trace_id"), path=tuple(stmts[x].id for x in steps),
                steps=n_steps,
                contradicted_by=against)
        elif against:
            by_statement[s.id] = by_pair[(against[0], s.id)]
        else:
            by_statement[s.id] = _missing(s, stmts, pos)
    return Reasons(by_statement=by_statement, by_pair=by_pair)


def _paths(parent: list[int], targets: list[int]) -> dict[int, tuple[list[int], int]]:
    """Per target, its explaining path by BFS parents (response statement first), in O(V)
    overall: each statement's depth, root and first hop are worked out once. A path longer
    than PATH_LIMIT steps keeps its response statement, its first hop and its end."""
    n = len(parent)
    depth, root, hop = [-1] * n, [-1] * n, [-1] * n
    out: dict[int, tuple[list[int], int]] = {}
    for t in targets:
        chain = []
        j = t
        while depth[j] < 0 and parent[j] >= 0:
            chain.append(j)
            j = parent[j]
        if depth[j] < 0:  # a response statement: the start of every path through it
            depth[j], root[j], hop[j] = 0, j, -1
        for k in reversed(chain):
            p = parent[k]
            depth[k], root[k] = depth[p] + 1, root[p]
            hop[k] = k if depth[p] == 0 else hop[p]
        if depth[t] == 0:
            continue
        if depth[t] <= PATH_LIMIT:
            path = [t]
            while parent[path[-1]] >= 0:
                path.append(parent[path[-1]])
            out[t] = (path[::-1], depth[t])
        else:
            out[t] = ([root[t], hop[t], t], depth[t])
    return out


def _description(stmt: StatementLike) -> str | None:
    d = _metadata(stmt).get("contradicted")
    return d if isinstance(d, str) else None


def _missing(s: StatementLike, stmts: Any, pos: Mapping[str, int]) -> Reason:
    ev = _metadata(s).get("evidence")
    nearest = ev.get("nearest_sentence") if isinstance(ev, dict) else None
    near = pos.get(nearest) if isinstance(nearest, str) else None
    return Reason(
        statement_id=s.id, status="missing",
        response_statement_id=None if near is None else stmts[near].id,
        quote=None if near is None else shorten(stmts[near].text, QUOTE_CHARS),
        probability=_p_of(s), evidence=_statement_evidence(s))
