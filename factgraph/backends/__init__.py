"""Model backends: text generation, NLI judging and embeddings behind small protocols."""

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
