"""The options models' common bases: a method's options forbid names of other methods
(:class:`StrictOptions`), and the field groups several methods share. Pydantic only: a
method's options module imports this, never the stages that run it, so the CLI can make its
flags without importing any method's run code."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class StrictOptions(BaseModel):
    """A method's options: every name is one of its own (``extra="forbid"``)."""

    model_config = ConfigDict(extra="forbid")

    @classmethod
    def own_values(cls, options: Any) -> dict[str, Any]:
        """This model's options as flat names, read off ``options``: an instance of this model
        or of one that holds its fields among others (``ComprehensivenessOptions``)."""
        return {n: getattr(options, n) for n in cls.model_fields}


class SummarizeOptions(StrictOptions):
    summarize_over_chars: int | None = Field(
        None, description="Summarise background texts longer than this, focused on the query.")


class RelevanceOptions(StrictOptions):
    t_rel: float = Field(3.5, description="Relevance threshold T_rel (1-5) for context atoms "
                                          "and questions.")
