"""End-to-end coverage (Dejl et al. 2025, §3.3): one call lists the covered and the uncovered facts
of the background texts, each with the numbers of the texts that state it.

Source numbers outside ``1..len(documents)`` are dropped and counted; a fact whose sources are
all invalid is kept with no source (its coverage verdict is still the model's). An empty list
on both sides is a valid reply (nothing relevant); an unparseable reply is ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field, field_validator

from factgraph.inputs import Document
from factgraph.stages.atomize import clip_text
from factgraph.stages.session import ModelSession


class ListedFact(BaseModel):
    model_config = ConfigDict(extra="ignore")

    statement: str
    sources: list[int] = Field(default_factory=list)

    @field_validator("sources", mode="before")
    @classmethod
    def _ints(cls, v: object) -> list[int]:
        if isinstance(v, int | str):
            v = [v]
        out: list[int] = []
        for x in v if isinstance(v, list) else []:
            try:
                out.append(int(str(x).strip().strip("[]")))
            except ValueError:
                continue
        return out


class CoverageReply(BaseModel):
    model_config = ConfigDict(extra="ignore")

    # Both lists are required: a reply that names neither is not a verdict.
    covered: list[ListedFact]
    uncovered: list[ListedFact]


def documents_block(session: ModelSession, documents: Sequence[Document]) -> str:
    return "\n".join(f"[{n}] {' '.join(clip_text(session, d.id, d.text).split())}"
                     for n, d in enumerate(documents, 1))


def e2e_coverage(
    session: ModelSession, query: str, response: str, documents: Sequence[Document],
    stage: str = "e2e",
) -> CoverageReply | None:
    p = session.prompt("e2e")
    chat = p.messages(query=query, documents=documents_block(session, documents),
                      response=clip_text(session, "response", response))
    reply = session.structured(stage, [chat], CoverageReply, items=["coverage"])[0]
    if reply is None:
        return None
    n = len(documents)
    for fact in [*reply.covered, *reply.uncovered]:
        valid = [s for s in fact.sources if 1 <= s <= n]
        if len(valid) != len(fact.sources):
            session.count(f"{stage}.invalid_source_numbers", len(fact.sources) - len(valid))
        fact.sources = sorted(set(valid))
        fact.statement = " ".join(fact.statement.split())
    reply.covered = [f for f in reply.covered if f.statement]
    reply.uncovered = [f for f in reply.uncovered if f.statement]
    return reply
