"""Deterministic keys of model calls: what the cache is keyed on and what trace ids are."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence

from factgraph.backends.base import ChatMessage, GenerationParams


def call_key(
    engine: str,
    model: str,
    messages: Sequence[ChatMessage],
    params: GenerationParams,
    revision: str | None = None,
) -> str:
    """sha256 over (engine, model and revision, the full messages, every sampling parameter —
    schema and choices included). Never the prompt alone: a different model or temperature is
    a different call."""
    payload = json.dumps(
        {
            "engine": engine,
            "model": model,
            "revision": revision,
            "messages": [m.model_dump() for m in messages],
            "params": params.model_dump(mode="json"),
        },
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def trace_id(key: str) -> str:
    """A call's trace id: the first 16 hex digits of its key (same call, same id)."""
    return key[:16]
