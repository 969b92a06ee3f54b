"""Evaluations as pandas DataFrames (the optional extra ``factgraph[pandas]``).

``to_frame(evaluations, level=...)`` gives

* ``"evaluation"``: one row per Evaluation — id, method, the response's model, the judge
  models, graph sizes, parse failures, caps hit, one column per score (``comprehensiveness``
  always: the graph's S when the file carries none, as every reader shows it) and
  ``contradicted`` (response statements that contradict a background statement);
* ``"statement"``: one row per statement of every graph — text, origin, source, scored
  attributes, its coverage status (``response`` | ``covered`` | ``uncovered``), whether it
  stands for its component in the uncovered basis (one statement per basis component, the
  representative ``factgraph analyze`` lists), its component (SCC) and the Evaluation's
  verdict on it;
* ``"relation"``: one row per relation — ends, label, probability, judge.

Coverage, basis and components come from the graph engine (:func:`factgraph.graph.analyze`),
the same reading of the graph as ``factgraph analyze`` and the views.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Literal

from factgraph.graph import analyze, contradictions, reported_comprehensiveness
from factgraph.models import Evaluation, FactGraph

if TYPE_CHECKING:
    import pandas as pd

Level = Literal["evaluation", "statement", "relation"]
LEVELS: tuple[str, ...] = ("evaluation", "statement", "relation")
MISSING_PANDAS = "to_frame needs pandas: pip install 'factgraph[pandas]'"


class MissingExtraError(ImportError):
    """An optional extra is not installed; the message names the pip command."""


def _pandas() -> Any:
    try:
        import pandas
    except ImportError:
        raise MissingExtraError(MISSING_PANDAS) from None
    return pandas


def evaluation_row(ev: Evaluation) -> dict[str, Any]:
    """One Evaluation as a flat row: identity, models, sizes and every score."""
    judges = sorted({f"{t.engine}:{t.model}" for t in ev.traces})
    graph = ev.graph
    row: dict[str, Any] = {
        "id": ev.id, "method": ev.method, "model": ev.model, "response_id": ev.response_id,
        "query": ev.query, "judge_models": ", ".join(judges) or None,
        "statements": len(graph.statements),
        "response_statements": sum(s.origin.value == "response" for s in graph.statements),
        "context_statements": sum(s.origin.value == "context" for s in graph.statements),
        "relations": len(graph.relations), "model_calls": len(ev.traces),
        "parse_failures": len(ev.parse_failures),
        "limits_hit": "; ".join(ev.limits_hit) or None,
        "incomplete": ev.metadata.get("incomplete"),
    }
    for name, value in ev.scores.items():
        row[name] = value
    # The readers' one rule: a comprehensiveness the file does not carry is the graph's S.
    row["comprehensiveness"] = reported_comprehensiveness(ev.scores, graph)
    # Response statements that contradict a background statement (what the answer gets wrong).
    row["contradicted"] = len(contradictions(graph))
    return row


def statement_rows(ev: Evaluation | FactGraph, evaluation_id: str | None = None,
                   method: str | None = None, model: str | None = None) -> list[dict[str, Any]]:
    """One row per statement with its coverage status, basis flag, component and verdict."""
    graph = ev.graph if isinstance(ev, Evaluation) else ev
    if isinstance(ev, Evaluation):
        evaluation_id, method, model = ev.id, ev.method, ev.model
        verdicts = {v.statement_id: v.label for v in ev.verdicts}
    else:
        verdicts = {}
    cov = analyze(graph)
    comp_of = {m: c for c in cov.components() for m in c.members}
    rows = []
    for s in graph.statements:
        comp = comp_of[s.id]
        status = "response" if s.origin.value == "response" else (
            "covered" if comp.status == "response" else comp.status)
        rows.append({
            "evaluation_id": evaluation_id, "method": method, "model": model,
            "statement_id": s.id, "text": s.text, "origin": s.origin.value,
            "kind": s.kind.value, "source_id": s.source_id, "question_id": s.question_id,
            "relevance": s.relevance, "salience": s.salience, "confidence": s.confidence,
            "importance": s.importance, "status": status,
            # one statement per basis component: its representative, as every export lists it
            "basis": bool(comp.basis) and s.id == comp.representative,
            "component": comp.id, "component_size": len(comp.members),
            "verdict": verdicts.get(s.id), "trace_id": s.trace_id,
        })
    return rows


def relation_rows(ev: Evaluation | FactGraph, evaluation_id: str | None = None,
                  method: str | None = None, model: str | None = None) -> list[dict[str, Any]]:
    """One row per relation; ``judge`` is the relation's own method (llm, cross-encoder …)."""
    graph = ev.graph if isinstance(ev, Evaluation) else ev
    if isinstance(ev, Evaluation):
        evaluation_id, method, model = ev.id, ev.method, ev.model
    origin = {s.id: s.origin.value for s in graph.statements}
    return [{
        "evaluation_id": evaluation_id, "method": method, "model": model,
        "src": r.src, "dst": r.dst, "label": r.label.value, "probability": r.probability,
        "judge": r.method, "src_origin": origin[r.src], "dst_origin": origin[r.dst],
        "trace_id": r.trace_id,
    } for r in graph.relations]


def to_frame(evaluations: Evaluation | FactGraph | Iterable[Evaluation | FactGraph],
             level: Level = "evaluation") -> pd.DataFrame:
    """A pandas DataFrame of Evaluations (or FactGraphs) at one level: ``"evaluation"``,
    ``"statement"`` or ``"relation"`` (see the module docstring for the columns). Iterates
    its input once, so ``load_results(path)`` can be passed directly.

    >>> import factgraph
    >>> ev = factgraph.evaluate(
    ...     "Who was Mara Voss?", "Mara Voss was born in Bergen.",
    ...     facts=["Mara Voss was born in Bergen.", "Mara Voss studied in Paris."],
    ...     judge="e2e-evidence", cache=False)
    >>> rows = to_frame(ev, level="statement")
    >>> rows[["statement_id", "status", "basis"]].values.tolist()
    ... # doctest: +NORMALIZE_WHITESPACE
    [['r1', 'response', False], ['g1', 'covered', False],
     ['g2', 'uncovered', True]]
    >>> to_frame(ev)[["method", "comprehensiveness", "n_covered"]].values.tolist()
    [['e2e', 0.5, 1.0]]
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}, got {level!r}")
    pandas = _pandas()
    items = [evaluations] if isinstance(evaluations, (Evaluation, FactGraph)) else evaluations
    rows: list[dict[str, Any]] = []
    for item in items:
        if level == "statement":
            rows += statement_rows(item)
        elif level == "relation":
            rows += relation_rows(item)
        elif isinstance(item, Evaluation):
            rows.append(evaluation_row(item))
        else:
            raise ValueError("level='evaluation' needs Evaluations, not bare FactGraphs")
    columns = {"evaluation": None, "statement": STATEMENT_COLUMNS,
               "relation": RELATION_COLUMNS}[level]
    return pandas.DataFrame(rows, columns=columns) if columns and not rows else \
        pandas.DataFrame(rows)


STATEMENT_COLUMNS = ["evaluation_id", "method", "model", "statement_id", "text", "origin",
                     "kind", "source_id", "question_id", "relevance", "salience", "confidence",
                     "importance", "status", "basis", "component", "component_size", "verdict",
                     "trace_id"]
RELATION_COLUMNS = ["evaluation_id", "method", "model", "src", "dst", "label", "probability",
                    "judge", "src_origin", "dst_origin", "trace_id"]
