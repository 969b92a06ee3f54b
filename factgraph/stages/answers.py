"""Answers per text with a 1-5 confidence (Dejl et al. 2025, §3.2, "answer generation").

One call per text answers every refined question at once (|texts| calls instead of
|texts|·|questions|). A question may get several answers from one text, or none. Answers below
``T_conf`` and "unknown" answers are dropped here — before any comparison call is spent on
them. Question numbers outside the list are dropped and counted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field, field_validator

from factgraph.stages.atomize import clip_text
from factgraph.stages.prompting import numbered
from factgraph.stages.session import ModelSession

UNKNOWN = re.compile(r"^\W*(unknown|not (stated|mentioned|given|known)|n/?a|none|no answer)\W*$",
                     re.I)


class AnswerItem(BaseModel):
    model_config = ConfigDict(extra="ignore")

    question: int
    answer: str
    confidence: float = Field(ge=1, le=5)

    @field_validator("answer", mode="before")
    @classmethod
    def _text(cls, v: object) -> str:
        return " ".join(str(v).split())


class AnswerList(BaseModel):
    model_config = ConfigDict(extra="ignore")

    answers: list[AnswerItem]


class Answer(BaseModel):
    """A kept answer: which question (0-based), from which text, how confident."""

    question: int
    text_id: str
    answer: str
    confidence: float


def is_unknown(answer: str) -> bool:
    return not answer.strip() or bool(UNKNOWN.match(answer))


def answer_questions(
    session: ModelSession, texts: Mapping[str, str], questions: Sequence[str], t_conf: float,
    stage: str = "answers",
) -> dict[str, list[Answer] | None]:
    """Kept answers per text id (None: the text's reply was unusable)."""
    if not questions:
        return {i: [] for i in texts}
    ids = list(texts)
    p = session.prompt("answers")
    listing = numbered(list(questions))
    replies = session.structured(stage, [p.messages(text=clip_text(session, i, texts[i]),
                                                    questions=listing) for i in ids],
                                 AnswerList, items=ids)
    out: dict[str, list[Answer] | None] = {}
    for i, reply in zip(ids, replies, strict=True):
        if reply is None:
            out[i] = None
            continue
        kept: list[Answer] = []
        seen: set[tuple[int, str]] = set()
        for item in reply.answers:
            q = item.question - 1
            if not 0 <= q < len(questions):
                session.count(f"{stage}.invalid_question_number")
                continue
            if is_unknown(item.answer):
                session.count(f"{stage}.unknown")
                continue
            if item.confidence < t_conf:
                session.count(f"{stage}.low_confidence")
                continue
            key = (q, item.answer.lower())
            if key in seen:
                continue
            seen.add(key)
            kept.append(Answer(question=q, text_id=i, answer=item.answer,
                               confidence=item.confidence))
        session.count(f"{stage}.kept", len(kept))
        out[i] = kept
    return out
