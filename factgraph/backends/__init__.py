"""Model backends: text generation, NLI judging and embeddings behind small protocols.

The names below are imported from their modules on first use (PEP 562), so that importing one
light module of the package (``factgraph.backends.params``, what the run configuration reads)
does not load the cache, the engine factory and the prompts.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from factgraph.backends.base import (
        ChatMessage,
        EmbeddingBackend,
        Generation,
        GenerationParams,
        NLIBackend,
        NLIResult,
        TextBackend,
        TokenLogprob,
    )
    from factgraph.backends.cache import CachedTextBackend, CallCache
    from factgraph.backends.factory import (
        load_embedding_backend,
        load_nli_backend,
        load_text_backend,
    )
    from factgraph.backends.structured import StructuredResult, generate_structured

_WHERE = {
    "ChatMessage": "base", "EmbeddingBackend": "base", "Generation": "base",
    "GenerationParams": "base", "NLIBackend": "base", "NLIResult": "base",
    "TextBackend": "base", "TokenLogprob": "base",
    "CachedTextBackend": "cache", "CallCache": "cache",
    "load_embedding_backend": "factory", "load_nli_backend": "factory",
    "load_text_backend": "factory",
    "StructuredResult": "structured", "generate_structured": "structured",
}

__all__ = [
    "CachedTextBackend",
    "CallCache",
    "ChatMessage",
    "EmbeddingBackend",
    "Generation",
    "GenerationParams",
    "NLIBackend",
    "NLIResult",
    "StructuredResult",
    "TextBackend",
    "TokenLogprob",
    "generate_structured",
    "load_embedding_backend",
    "load_nli_backend",
    "load_text_backend",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
