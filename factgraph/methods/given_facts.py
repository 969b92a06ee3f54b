"""Given facts (``EvaluationInput.facts``) as context statements.

A user who already holds the facts an answer must contain — nuggets, rubric items, key points,
SCUs — gives them as ``facts``; each becomes one context statement **as given** (never split):
``Statement(origin=context, kind=fact)`` with the given id in ``metadata["fact_id"]``.

Statement ids: ``g<n>``, n the fact's position in ``facts`` (1-based). A given id may be any
string (``"scu144"``, ``"r"``, ``"nugget 3"``), so it is kept in the metadata rather than used
as the statement id: ``g<n>`` never collides with the ids a method gives its own statements
(``r``, ``r1``, ``c1.s2``, ``f1`` …) and is safe in Cypher, HTML and file names.

Which judges read them (``factgraph.methods.e2e``, ``precision_recall``): the e2e long-form
and fact-level judges (``coverage_judge="sentences"``, ``"evidence"``) judge them instead of
the documents' clauses; the per-fact judges (``"per-fact"``, ``"answers"``) skip their extraction;
``coverage_judge="auto"`` routes an input with given facts to the long-form judge; ``prf``
takes them as its reference facts (no extraction, no merging; importance is still rated) with
the documents as the evidence for precision. A method that cannot use them (``nli``, ``qa``,
``icat-*``, ``argue``, e2e's ``list`` judge) refuses an input that has them
(:func:`refuse_given_facts`) rather than silently judge something else.
"""

from __future__ import annotations

from factgraph.errors import UserInputError
from factgraph.inputs import EvaluationInput
from factgraph.models import Origin, Statement, StatementKind

FACT_ID = "fact_id"
"""The metadata key holding a given fact's own id."""


def given_statement_id(position: int) -> str:
    """The statement id of the given fact at ``position`` (1-based): ``g<position>``."""
    return f"g{position}"


def given_fact_statements(inp: EvaluationInput) -> list[Statement]:
    """One context statement per given fact, in the given order, text unchanged."""
    return [Statement(id=given_statement_id(n), text=f.text, origin=Origin.context,
                      kind=StatementKind.fact, metadata={FACT_ID: f.id, "given": True})
            for n, f in enumerate(inp.facts, 1)]


def refuse_given_facts(inp: EvaluationInput, who: str, instead: str) -> None:
    """UserInputError when ``inp`` has given facts that ``who`` cannot judge."""
    if inp.facts:
        raise UserInputError(f"{inp.id}: {who} does not read given facts ({len(inp.facts)} "
                             f"given); {instead}")
