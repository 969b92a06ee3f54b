"""Revise: make atoms self-contained and atomic (Dejl et al. 2025, §3.1, "atom revision").

One call per text with its atoms and the source text: vague references are resolved and
conjunctions split. A text whose revision fails keeps its unrevised atoms (the failure is
recorded): revision only improves atoms, so the unrevised ones are a sound fallback.
"""

from __future__ import annotations

from collections.abc import Mapping

from factgraph.stages.atomize import AtomList, clip_text
from factgraph.stages.prompting import numbered
from factgraph.stages.session import ModelSession


def revise(
    session: ModelSession, atoms: Mapping[str, list[str]], sources: Mapping[str, str],
    stage: str = "revise",
) -> dict[str, list[str]]:
    """Revised atoms per text id (texts with no atoms are passed through untouched)."""
    ids = [i for i in atoms if atoms[i]]
    p = session.prompt("revise")
    chats = [p.messages(source=clip_text(session, i, sources[i]), statements=numbered(atoms[i]))
             for i in ids]
    replies = session.structured(stage, chats, AtomList, items=ids)
    out = {i: list(a) for i, a in atoms.items()}
    cap = session.limits.max_statements_per_text
    for i, reply in zip(ids, replies, strict=True):
        if reply is not None and reply.statements:
            out[i] = reply.statements[:cap]
            if len(reply.statements) > cap:
                session.hit_limit(f"max_statements_per_text={cap}: {i} after revision")
    return out
