"""Input rows of an evaluation batch: a query, a response, its background documents and,
optionally, the facts the response must contain.

One JSON object per line of an inputs JSONL file. ``id`` must be unique in the file: it is the
key under which the batch runner records and resumes results.

``facts`` are given facts (nuggets, rubric items, key points, SCUs): each a plain string or an
object ``{id, text}``; a string gets the id ``f<n>`` by its position (1-based). Ids are unique.
Each given fact is one context statement as given, never split (``factgraph.methods
.given_facts``); where facts and documents both come, the given facts are the facts and the
documents are evidence only.
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


class GivenFact(BaseModel):
    """A fact the response should contain, as the user gives it (one statement, never split)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    text: str = Field(min_length=1)


def given_facts_from(items: Any) -> list[Any]:
    """The ``facts`` field as objects: a string at position n (1-based) becomes ``{id: "f<n>",
    text}``; anything else is left to validation. ValueError naming the repeated ids."""
    if not isinstance(items, list):
        return items  # validation names the wrong type
    out = [{"id": f"f{n}", "text": x} if isinstance(x, str) else x
           for n, x in enumerate(items, 1)]
    ids = [x.get("id") if isinstance(x, dict) else getattr(x, "id", None) for x in out]
    dup = sorted({i for i in ids if i is not None and ids.count(i) > 1})
    if dup:
        raise ValueError(f"duplicate fact ids {dup}")
    return out


class EvaluationInput(BaseModel):
    """One (query, response, documents, given facts) to evaluate."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, description="Stable id; results are keyed and resumed by it.")
    query: str
    response: str
    documents: list[Document] = Field(default_factory=list)
    facts: list[GivenFact] = Field(
        default_factory=list,
        description="Given facts the response should contain: strings (ids f1, f2, … by "
                    "position) or {id, text}. Where given, they are the facts and the "
                    "documents are evidence only.")
    model: str | None = Field(default=None, description="The model that wrote the response.")
    response_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    @field_validator("facts", mode="before")
    @classmethod
    def _facts_as_objects(cls, value: Any) -> Any:
        return given_facts_from(value)

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
