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

__all__ = [
    "ChatMessage",
    "EmbeddingBackend",
    "Generation",
    "GenerationParams",
    "NLIBackend",
    "NLIResult",
    "TextBackend",
    "TokenLogprob",
]
