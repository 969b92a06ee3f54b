"""Input rows of an evaluation batch: a query, a response and its background documents.

One JSON object per line of an inputs JSONL file. ``id`` must be unique in the file: it is the
key under which the batch runner records and resumes results.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator


class Document(BaseModel):
    """A background text (context) or a corpus document."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    text: str
    title: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class EvaluationInput(BaseModel):
    """One (query, response, documents) to evaluate."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, description="Stable id; results are keyed and resumed by it.")
    query: str
    response: str
    documents: list[Document] = Field(default_factory=list)
    model: str | None = Field(default=None, description="The model that wrote the response.")
    response_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("documents", mode="before",
                     json_schema_input_type=list[Document | str])
    @classmethod
    def _plain_string_documents(cls, value: Any) -> Any:
        """A document may be a plain string (as RAGAS users pass them): its id is ``d1``,
        ``d2``… by its position in the list."""
        if not isinstance(value, list):
            return value
        return [{"id": f"d{n}", "text": d} if isinstance(d, str) else d
                for n, d in enumerate(value, 1)]
