"""The sampling parameters of a text-model call and the default generation cap: what a run's
configuration (:mod:`factgraph.config`) needs of the backends, in a module that imports no
engine and no prompt, so reading the configuration (``factgraph evaluate --help``) loads none.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_MAX_TOKENS = 768  # the generation cap per call of every run that sets none


class GenerationParams(BaseModel):
    """Sampling parameters; all of them are part of the cache key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    temperature: float = 0.0
    max_tokens: int = DEFAULT_MAX_TOKENS
    seed: int | None = 0
    stop: tuple[str, ...] = ()
    top_logprobs: int | None = Field(
        default=None, description="Return this many top next-token log-probabilities per step."
    )
    json_schema: dict[str, Any] | None = Field(
        default=None, description="Constrain output to this JSON schema where the engine can."
    )
    choices: tuple[str, ...] | None = Field(
        default=None, description="Constrain output to one of these strings where the engine can."
    )
