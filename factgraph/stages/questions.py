"""Question mining and refinement for the Q&A method (Dejl et al. 2025, §3.2).

Mining asks, per text, for questions whose answers are that text's facts. Refinement sends the
query and every mined question in one call to merge duplicates, make them self-contained and
neutralise leading questions; each refined question then gets a relevance rating
(token-weighted, see ``relevance``) and those below ``T_rel`` are dropped — the rating, not the
rewrite, decides what is off-topic. If refinement fails, the mined
questions (exact duplicates removed) go on to the relevance filter: the failure is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, field_validator

from factgraph.stages.atomize import clip_text
from factgraph.stages.prompting import numbered
from factgraph.stages.relevance import keep_relevant, rate_relevance
from factgraph.stages.session import ModelSession


class QuestionList(BaseModel):
    model_config = ConfigDict(extra="ignore")

    questions: list[str]

    @field_validator("questions")
    @classmethod
    def _clean(cls, v: list[str]) -> list[str]:
        out: list[str] = []
        seen: set[str] = set()
        for q in v:
            q = " ".join(str(q).split())
            key = q.lower().rstrip("?").strip()
            if q and key not in seen:
                seen.add(key)
                out.append(q)
        return out


def mine_questions(session: ModelSession, texts: Mapping[str, str],
                   stage: str = "questions") -> dict[str, list[str] | None]:
    ids = list(texts)
    p = session.prompt("questions")
    replies = session.structured(stage, [p.messages(text=clip_text(session, i, texts[i]))
                                         for i in ids], QuestionList, items=ids)
    return {i: (r.questions if r is not None else None) for i, r in zip(ids, replies, strict=True)}


def refine_questions(
    session: ModelSession, query: str, mined: list[str], t_rel: float,
    stage: str = "refine_questions",
) -> tuple[list[str], list[float | None]]:
    """The refined, relevant questions and their relevance ratings."""
    unique = QuestionList(questions=mined).questions
    if not unique:
        return [], []
    p = session.prompt("refine_questions")
    reply = session.structured(stage, [p.messages(query=query, questions=numbered(unique))],
                               QuestionList, items=["questions"])[0]
    refined = reply.questions if reply is not None and reply.questions else unique
    scores = rate_relevance(session, query, refined, stage="question_relevance",
                            prompt="question_relevance", field="question")
    keep = keep_relevant(scores, t_rel)
    kept = [(q, s) for q, s, k in zip(refined, scores, keep, strict=True) if k]
    session.count("questions.dropped_irrelevant", len(refined) - len(kept))
    cap = session.limits.max_questions
    if len(kept) > cap:
        session.hit_limit(f"max_questions={cap}: {len(kept)} relevant questions")
        kept.sort(key=lambda qs: -(qs[1] if qs[1] is not None else 5.0))
        kept = kept[:cap]
    return [q for q, _ in kept], [s for _, s in kept]
