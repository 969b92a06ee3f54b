"""Aspect generation for ICAT-A (Samarinas et al. 2025, §3.3, "Automatic–LLM-based Aspect
Generation"): up to ``max_aspects`` distinct aspects of the query, most important first."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, field_validator

from factgraph.stages.session import ModelSession


class AspectList(BaseModel):
    """The reply: ``{"aspects": [...]}`` (blank and repeated entries dropped)."""

    model_config = ConfigDict(extra="ignore")

    aspects: list[str]

    @field_validator("aspects")
    @classmethod
    def _clean(cls, v: list[str]) -> list[str]:
        out: list[str] = []
        seen: set[str] = set()
        for a in v:
            a = " ".join(str(a).split())
            if a and a.lower() not in seen:
                seen.add(a.lower())
                out.append(a)
        return out


def generate_aspects(session: ModelSession, query: str, max_aspects: int = 10,
                     stage: str = "aspects") -> list[str] | None:
    """The query's aspects (``None``: no usable reply, recorded by the session). Replies with
    more than ``max_aspects`` are cut, keeping the first (most important) ones."""
    if max_aspects < 1:
        raise ValueError("max_aspects must be at least 1")
    chat = session.prompt("aspects").messages(query=query, max_aspects=str(max_aspects))
    reply = session.structured(stage, [chat], AspectList, items=["query"])[0]
    if reply is None:
        return None
    aspects = reply.aspects
    if len(aspects) > max_aspects:
        session.hit_limit(f"max_aspects={max_aspects}: the model listed {len(aspects)}")
        aspects = aspects[:max_aspects]
    session.count(f"{stage}.generated", len(aspects))
    return aspects
