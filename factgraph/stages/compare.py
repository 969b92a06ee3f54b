"""Answer comparison for the Q&A method (Dejl et al. 2025, §3.2), cheapest judge first.

Answers are compared only within one question, and never two answers of the response. For each
unordered pair:

1. **exact**: equal after normalisation (case, punctuation, articles, spacing) → equivalent;
2. **pint**: both answers are a quantity with a unit (or plain numbers) → compared numerically
   after conversion: equal within a relative tolerance → equivalent; same dimension but
   different value → contradictory; different dimensions → neutral. Deterministic, no model;
3. **model**: one call classifying equivalent / first implies second / second implies first /
   contradictory / neutral.

Equivalent becomes two entailment edges, an implication one; contradictory becomes a
``contradicts`` edge (which never creates coverage); neutral and failed pairs add nothing.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from itertools import combinations
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, field_validator

from factgraph.models import Relation, RelationLabel
from factgraph.stages.session import ModelSession
from factgraph.stages.units import unit_registry

CompareLabel = Literal["equivalent", "first implies second", "second implies first",
                       "contradictory", "neutral"]
_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCT = str.maketrans("", "", string.punctuation.replace(".", "").replace("-", ""))
_QUANTITY = re.compile(r"^\s*(approximately|about|around|roughly|circa|ca\.?)?\s*"
                       r"(?P<num>[-+]?\d[\d,]*(\.\d+)?)\s*(?P<unit>[^\d].*)?$", re.I)
REL_TOL = 1e-6


def normalise(answer: str) -> str:
    """Lower case, no punctuation (except . and -), no articles, single spaces."""
    text = answer.lower().translate(_PUNCT)
    text = _ARTICLES.sub(" ", text)
    return " ".join(text.split()).strip(" .")


def parse_quantity(answer: str) -> Any | None:
    """A pint Quantity for ``"12 km"``, ``"3,000 ft"``, ``"42"``; None when not a quantity."""
    m = _QUANTITY.match(answer.strip())
    if not m:
        return None
    number = float(m.group("num").replace(",", ""))
    unit = (m.group("unit") or "").strip().rstrip(".")
    ureg = unit_registry()
    try:
        if not unit:
            return ureg.Quantity(number, "")
        return ureg.Quantity(number, ureg.parse_units(unit.replace(" per ", "/")))
    except Exception:  # pint raises many types for unknown words: not a quantity then
        return None


def compare_quantities(a: str, b: str) -> CompareLabel | None:
    """Equal / unequal / incomparable quantities; None when either is not a quantity."""
    qa, qb = parse_quantity(a), parse_quantity(b)
    if qa is None or qb is None:
        return None
    if qa.dimensionality != qb.dimensionality:
        return "neutral"
    va = float(qa.to_base_units().magnitude)
    vb = float(qb.to_base_units().magnitude)
    if abs(va - vb) <= REL_TOL * max(abs(va), abs(vb), 1e-12):
        return "equivalent"
    return "contradictory"


class Comparison(BaseModel):
    model_config = ConfigDict(extra="ignore")

    relation: CompareLabel

    @field_validator("relation", mode="before")
    @classmethod
    def _norm(cls, v: object) -> object:
        return " ".join(str(v).lower().replace("_", " ").split()) if isinstance(v, str) else v


class AnswerNode(BaseModel):
    """An answer statement as the comparison sees it."""

    id: str
    question: int
    text: str
    from_response: bool


def _edges(a: AnswerNode, b: AnswerNode, label: CompareLabel, method: str,
           trace_id: str | None = None) -> list[Relation]:
    def rel(src: str, dst: str, lab: RelationLabel) -> Relation:
        return Relation(src=src, dst=dst, label=lab, probability=1.0, method=method,
                        trace_id=trace_id)

    if label == "equivalent":
        return [rel(a.id, b.id, RelationLabel.entails), rel(b.id, a.id, RelationLabel.entails)]
    if label == "first implies second":
        return [rel(a.id, b.id, RelationLabel.entails)]
    if label == "second implies first":
        return [rel(b.id, a.id, RelationLabel.entails)]
    if label == "contradictory":
        return [rel(a.id, b.id, RelationLabel.contradicts)]
    return []


def compare_answers(
    session: ModelSession, answers: Sequence[AnswerNode], questions: Sequence[str],
    use_pint: bool = True, stage: str = "compare",
) -> list[Relation]:
    """Relations among answers to the same question (see module docstring)."""
    by_q: dict[int, list[AnswerNode]] = {}
    for a in answers:
        by_q.setdefault(a.question, []).append(a)
    relations: list[Relation] = []
    ask: list[tuple[AnswerNode, AnswerNode]] = []
    for q in sorted(by_q):
        for a, b in combinations(by_q[q], 2):
            if a.from_response and b.from_response:
                continue
            if normalise(a.text) == normalise(b.text):
                session.count(f"{stage}.exact")
                relations += _edges(a, b, "equivalent", "exact")
                continue
            quantity = compare_quantities(a.text, b.text) if use_pint else None
            if quantity is not None:
                session.count(f"{stage}.pint")
                relations += _edges(a, b, quantity, "pint")
                continue
            ask.append((a, b))
    if ask:
        p = session.prompt("compare_answers")
        chats = [p.messages(question=questions[a.question], first=a.text, second=b.text)
                 for a, b in ask]
        replies = session.structured(stage, chats, Comparison,
                                     items=[f"{a.id}~{b.id}" for a, b in ask])
        for (a, b), reply in zip(ask, replies, strict=True):
            if reply is not None:
                relations += _edges(a, b, reply.relation, "llm",
                                    session.trace_for(stage, f"{a.id}~{b.id}"))
    return relations
