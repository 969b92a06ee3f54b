"""Optional query-focused summarisation of long background texts (Dejl et al. 2025, §4, used for the
long contexts of ConflictBank). Texts at or under ``min_chars`` pass through unchanged; an
empty or failed summary keeps the original text (recorded)."""

from __future__ import annotations

from collections.abc import Mapping

from factgraph.backends.base import GenerationParams
from factgraph.models import ParseFailure
from factgraph.stages.atomize import clip_text
from factgraph.stages.session import ModelSession


def summarize_long_texts(
    session: ModelSession, query: str, texts: Mapping[str, str], min_chars: int,
    stage: str = "summarize",
) -> dict[str, str]:
    out = dict(texts)
    long_ids = [i for i, t in texts.items() if len(t) > min_chars]
    if not long_ids:
        return out
    p = session.prompt("summarize")
    params = session.params.model_copy(update={"json_schema": None}) \
        if session.params.json_schema else session.params
    params = GenerationParams(**{**params.model_dump(), "max_tokens": max(params.max_tokens, 512)})
    gens = session.generate(stage, [p.messages(query=query, text=clip_text(session, i, texts[i]))
                                    for i in long_ids], params)
    for i, gen in zip(long_ids, gens, strict=True):
        summary = gen.text.strip()
        if summary:
            out[i] = summary
        else:
            session.failures.append(ParseFailure(stage=stage, item=i, error="empty summary",
                                                 trace_id=gen.trace.id))
    return out
