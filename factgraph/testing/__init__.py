"""A gate for CI: fail a test, or a ``factgraph evaluate | batch`` run, when a score is too low.

In a test::

    from factgraph.testing import assert_comprehensive

    def test_answer_is_complete():
        ev = factgraph.evaluate(query, answer, documents, method="nli", model=MODEL)
        assert_comprehensive(ev, 0.8)

fails with a message that says what the answer misses — the uncovered basis, the fewest facts
to add — and which of its statements contradict the background. On the command line,
``factgraph evaluate | batch --fail-under S`` exits 1 and lists the ids below ``S``.

A score that cannot be computed (``None``: no context statement, a response that could not be
split) fails the gate: a gate that passes what it could not measure guards nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from factgraph.graph import SCORE_KEY, analyze, contradictions, reported_comprehensiveness
from factgraph.models import Evaluation, FactGraph

MAX_LISTED = 20


@dataclass(frozen=True)
class GateFailure:
    """One evaluation below the gate: its id, the score's name and its value (None:
    undefined)."""

    id: str
    score: str
    value: float | None

    def describe(self) -> str:
        """``id (score 0.5000)`` or ``id (score undefined)``."""
        shown = "undefined" if self.value is None else f"{self.value:.4f}"
        return f"{self.id} ({self.score} {shown})"


def main_score(method: str) -> str:
    """The score a method is gated on by default: its ``main_score`` in the method registry
    (``comprehensiveness`` for nli, qa, e2e; ``icat`` for ICAT; ``f1`` for prf; ``recall`` for
    argue), ``comprehensiveness`` for a method the registry does not know."""
    from factgraph.methods.registry import METHODS

    return METHODS[method].main_score if method in METHODS else SCORE_KEY


def score_of(ev: Evaluation | FactGraph, score: str | None = None) -> tuple[str, float | None]:
    """The name and value of the gated score of ``ev``: ``score`` or its method's main score.
    Comprehensiveness is read as every reader reads it (the recorded value, else the graph's
    S); any other score missing from the Evaluation is undefined."""
    if isinstance(ev, FactGraph):
        return SCORE_KEY, analyze(ev).score
    name = score or main_score(ev.method)
    if name == SCORE_KEY:
        return name, reported_comprehensiveness(ev.scores, ev.graph)
    return name, ev.scores.get(name)


def gate_failures(evaluations: Iterable[Evaluation], minimum: float,
                  score: str | None = None) -> list[GateFailure]:
    """The evaluations whose gated score (see :func:`score_of`) is below ``minimum`` or
    undefined, in the order given."""
    failures = []
    for ev in evaluations:
        name, value = score_of(ev, score)
        if value is None or value < minimum:
            failures.append(GateFailure(ev.id, name, value))
    return failures


def comprehensiveness_message(ev: Evaluation | FactGraph, minimum: float,
                              score: str | None = None, max_listed: int = MAX_LISTED) -> str:
    """Why ``ev`` fails the gate: the score against ``minimum``, the uncovered basis (the
    fewest facts to add, with the documents they come from) and the response statements that
    contradict the background — at most ``max_listed`` of each."""
    graph = ev.graph if isinstance(ev, Evaluation) else ev
    name, value = score_of(ev, score)
    cov = analyze(graph)
    who = f" for {ev.id!r}" if isinstance(ev, Evaluation) else ""
    shown = "undefined" if value is None else f"{value:.4f}"
    lines = [f"{name} {shown} < {minimum:g}{who} ({cov.n_covered} covered / "
             f"{cov.n_covered + cov.n_uncovered} context components)"]
    basis = cov.basis()
    if basis:
        lines.append(f"the answer misses {len(basis)} basis fact(s), the fewest to add:")
        position = {s.id: s for s in graph.statements}
        for comp in basis[:max_listed]:
            source = position[comp.representative].source_id
            lines.append(f"  - [{comp.representative}] {comp.text}"
                         + (f" ({source})" if source else ""))
        if len(basis) > max_listed:
            lines.append(f"  … {len(basis) - max_listed} more")
    wrong = contradictions(graph)
    if wrong:
        lines.append(f"{len(wrong)} response statement(s) contradict the background:")
        for c in wrong[:max_listed]:
            against = "; ".join(f"[{f.statement_id}] {f.text}" for f in c.contradicts)
            lines.append(f"  - [{c.statement_id}] {c.text} — contradicts {against}")
    return "\n".join(lines)


def assert_comprehensive(evaluation: Evaluation | FactGraph | Iterable[Evaluation | FactGraph],
                         minimum: float = 1.0, *, score: str | None = None,
                         max_listed: int = MAX_LISTED) -> None:
    """Assert that every Evaluation (or fact graph) given scores at least ``minimum``.

    ``score`` names the score (default: each method's main score, comprehensiveness for the
    comprehensiveness methods and bare graphs). Raises AssertionError whose message lists, per
    failing evaluation, the score, the uncovered basis facts and the contradicted statements;
    an undefined score fails."""
    items = [evaluation] if isinstance(evaluation, (Evaluation, FactGraph)) else list(evaluation)
    if not items:
        raise AssertionError("assert_comprehensive: no evaluations given")
    messages = []
    for item in items:
        _, value = score_of(item, score)
        if value is None or value < minimum:
            messages.append(comprehensiveness_message(item, minimum, score, max_listed))
    if messages:
        head = f"{len(messages)} of {len(items)} evaluation(s) below {minimum:g}:\n" \
            if len(items) > 1 else ""
        raise AssertionError(head + "\n".join(messages))


def gate_summary(failures: list[GateFailure], checked: int, minimum: float,
                 max_listed: int = 50) -> str:
    """One line for ``--fail-under``: how many of ``checked`` evaluations are below
    ``minimum``, and their ids with their scores (at most ``max_listed``)."""
    shown = ", ".join(f.describe() for f in failures[:max_listed])
    more = f", … {len(failures) - max_listed} more" if len(failures) > max_listed else ""
    return (f"--fail-under {minimum:g}: {len(failures)} of {checked} evaluation(s) below or "
            f"undefined: {shown}{more}")


def gate_record(failures: list[GateFailure], checked: int, minimum: float) -> dict[str, object]:
    """The gate's outcome as a JSON-able record (``--format json`` of evaluate / batch)."""
    return {"fail_under": minimum, "checked": checked, "passed": not failures,
            "failed": [{"id": f.id, "score": f.score, "value": f.value} for f in failures]}
