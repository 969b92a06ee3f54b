"""Structured output from untrusted model text: lenient parsing, validation, bounded repair.

A reply is parsed leniently (code fences stripped, the first JSON value found anywhere in the
text), validated with a pydantic model, and on failure the model is shown its reply and the
error and asked again — at most ``max_repairs`` times. What could not be parsed is returned as
a recorded failure with every trace, never as a default value.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ValidationError

from factgraph.backends.base import ChatMessage, GenerationParams, TextBackend
from factgraph.models import Trace

T = TypeVar("T", bound=BaseModel)
_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.S)


class ParseFailure(ValueError):
    """No JSON value could be read from a reply."""


def _top_level_starts(chunk: str) -> list[int]:
    """Positions of ``{`` / ``[`` outside any bracket or string: where a JSON value may begin.

    Starting only there keeps a truncated reply from being read as one of its own nested
    fragments (``{"covered": [{"statement": ...`` must fail, not parse as ``{"statement"...}``).
    """
    starts: list[int] = []
    depth = 0
    in_string = escaped = False
    for i, ch in enumerate(chunk):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
            continue
        if ch == '"' and depth > 0:
            in_string = True
        elif ch in "{[":
            if depth == 0:
                starts.append(i)
            depth += 1
        elif ch in "}]" and depth > 0:
            depth -= 1
    return starts


def extract_json(text: str) -> Any:
    """The first top-level JSON object or array in ``text`` (in a code fence if there is one)."""
    candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
    decoder = json.JSONDecoder()
    for chunk in candidates:
        for i in _top_level_starts(chunk):
            try:
                value, _ = decoder.raw_decode(chunk[i:])
            except json.JSONDecodeError:
                continue
            return value
    raise ParseFailure("no JSON object or array in the reply")


class StructuredResult(BaseModel, Generic[T]):
    """Either ``value`` or ``error``; ``traces`` holds every call made, repairs included."""

    value: T | None = None
    error: str | None = None
    attempts: int = 0
    traces: list[Trace] = []

    @property
    def ok(self) -> bool:
        return self.value is not None


def parse_as(model_cls: type[T], text: str) -> T:
    """Lenient parse + validation; raises ParseFailure or ValidationError."""
    return model_cls.model_validate(extract_json(text))


def _short_error(e: Exception) -> str:
    if isinstance(e, ValidationError):
        first = e.errors()[0]
        loc = ".".join(str(p) for p in first.get("loc", ()))
        return f"{loc}: {first.get('msg')}" if loc else str(first.get("msg"))
    return str(e)


def generate_structured(
    backend: TextBackend,
    messages: Sequence[ChatMessage],
    model_cls: type[T],
    params: GenerationParams | None = None,
    max_repairs: int = 2,
) -> StructuredResult[T]:
    """Ask for a ``model_cls`` value; repair at most ``max_repairs`` times."""
    params = params or GenerationParams()
    if params.json_schema is None:
        params = params.model_copy(update={"json_schema": model_cls.model_json_schema()})
    chat = list(messages)
    result: StructuredResult[T] = StructuredResult()
    for attempt in range(max_repairs + 1):
        gen = backend.generate([chat], params)[0]
        result.attempts = attempt + 1
        try:
            value = parse_as(model_cls, gen.text)
        except (ParseFailure, ValidationError) as e:
            error = _short_error(e)
            result.traces.append(gen.trace.model_copy(update={"parse_error": error}))
            result.error = error
            chat = [*chat, ChatMessage(role="assistant", content=gen.text),
                    ChatMessage(role="user", content=(
                        f"That reply could not be used ({error}). Answer again with only one "
                        "JSON value that follows the requested format, and nothing else."))]
            continue
        result.traces.append(gen.trace.model_copy(update={"parsed": value.model_dump(
            mode="json")}))
        result.value = value
        result.error = None
        return result
    return result
