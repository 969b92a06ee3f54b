"""The backend contract every engine implements and every stage calls.

Stages depend only on these protocols; engines (vLLM in-process, OpenAI-compatible HTTP,
transformers) and the scripted test backend implement them. Results carry a trace id so that
statements and relations can point at the call that produced them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from factgraph.backends.params import DEFAULT_MAX_TOKENS as DEFAULT_MAX_TOKENS
from factgraph.backends.params import GenerationParams
from factgraph.models import Trace
from factgraph.prompts import ChatMessage  # what a prompt renders to, and an engine is sent

__all__ = ["ChatMessage", "EmbeddingBackend", "Generation", "GenerationParams", "NLIBackend",
           "NLIResult", "TextBackend", "TokenLogprob"]


class TokenLogprob(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    token: str
    logprob: float
    top: dict[str, float] = Field(default_factory=dict)


class Generation(BaseModel):
    """One generated completion and the trace of the call that produced it."""

    model_config = ConfigDict(extra="forbid")

    text: str
    logprobs: list[TokenLogprob] | None = None
    finish_reason: str | None = None
    trace: Trace


class NLIResult(BaseModel):
    """Probabilities that a premise entails / is neutral to / contradicts a hypothesis."""

    model_config = ConfigDict(extra="forbid")

    entailment: float = Field(ge=0.0, le=1.0)
    neutral: float = Field(ge=0.0, le=1.0)
    contradiction: float = Field(ge=0.0, le=1.0)
    source: Literal["probabilities", "parsed_label", "failed"] = Field(
        default="probabilities",
        description="Where the numbers came from: real probabilities, a parsed label (1/0), or "
        "nothing usable (all zero: record it, never read it as a verdict).",
    )
    trace: Trace | None = None

    @property
    def label(self) -> Literal["entails", "neutral", "contradicts"]:
        best = max(
            (self.entailment, "entails"), (self.neutral, "neutral"),
            (self.contradiction, "contradicts"),
        )
        return best[1]  # type: ignore[return-value]


@runtime_checkable
class TextBackend(Protocol):
    """Text generation from chat messages, batched."""

    engine: str
    model: str

    def generate(
        self, batch: Sequence[Sequence[ChatMessage]], params: GenerationParams
    ) -> list[Generation]: ...


@runtime_checkable
class NLIBackend(Protocol):
    """Judging (premise, hypothesis) pairs."""

    engine: str
    model: str

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[NLIResult]: ...


@runtime_checkable
class EmbeddingBackend(Protocol):
    """Text embeddings (rows L2-normalised)."""

    engine: str
    model: str

    def embed(self, texts: Sequence[str]) -> Any: ...  # numpy array (n, d)
