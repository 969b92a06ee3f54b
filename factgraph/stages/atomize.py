"""Atomize: split texts into atomic statements (Dejl et al. 2025, §3.1, "atom extraction";
Samarinas et al. 2025, §3, "atomic claims"; Jafari et al. 2026, §3, "claims").

One model call per text, all texts in one batch. A reply that never parses leaves that text
with ``None`` (recorded as a parse failure by the session) — the caller decides what an
unreadable text means, it is never silently empty. Caps: texts longer than
``limits.max_text_chars`` are cut, and at most ``limits.max_statements_per_text`` statements
are kept per text; both are recorded when they bind.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, field_validator

from factgraph.backends.params import GenerationParams
from factgraph.stages.session import ModelSession


class AtomList(BaseModel):
    """The reply: ``{"statements": [...]}``."""

    model_config = ConfigDict(extra="ignore")

    statements: list[str]

    @field_validator("statements")
    @classmethod
    def _clean(cls, v: list[str]) -> list[str]:
        out: list[str] = []
        for s in v:
            s = " ".join(str(s).split())
            if s and s not in out:  # exact duplicates add nothing to a graph
                out.append(s)
        return out


def clip_text(session: ModelSession, text_id: str, text: str) -> str:
    """``text`` cut to ``limits.max_text_chars`` (recorded when it binds)."""
    cap = session.limits.max_text_chars
    if len(text) > cap:
        session.hit_limit(f"max_text_chars={cap}: {text_id} cut from {len(text)} chars")
        return text[:cap]
    return text


def atomize(
    session: ModelSession, texts: Mapping[str, str], stage: str = "atomize",
    prompt: str = "atomize", params: GenerationParams | None = None,
) -> dict[str, list[str] | None]:
    """Atomic statements of each text, keyed like ``texts`` (None: no usable reply);
    ``params``: the session's, unless given."""
    ids = list(texts)
    p = session.prompt(prompt)
    chats = [p.messages(text=clip_text(session, i, texts[i])) for i in ids]
    replies = session.structured(stage, chats, AtomList, items=ids, params=params)
    out: dict[str, list[str] | None] = {}
    cap = session.limits.max_statements_per_text
    for i, reply in zip(ids, replies, strict=True):
        if reply is None:
            out[i] = None
            continue
        atoms = reply.statements
        if len(atoms) > cap:
            session.hit_limit(f"max_statements_per_text={cap}: {i} had {len(atoms)}")
            atoms = atoms[:cap]
        session.count(f"{stage}.statements", len(atoms))
        out[i] = atoms
    return out
