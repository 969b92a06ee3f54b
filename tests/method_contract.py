"""A scripted model that follows whatever a method asks of it, for contract tests over every
registered method: a JSON reply shaped by the call's JSON schema, one of the call's choices,
or a one-token "yes" with its log-probabilities — and an NLI judge that finds every pair
entailed. Never a stand-in for a real model's judgement; it only lets a method run to the end
and build its graph."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Any

from factgraph.backends.base import ChatMessage, GenerationParams, TokenLogprob
from factgraph.backends.scripted import ScriptedNLIBackend, ScriptedTextBackend, ScriptOutput
from factgraph.stages.session import ModelSession

TEXT = "Mara Voss was born in Bergen in 1871."


def instance(schema: dict[str, Any], defs: dict[str, Any] | None = None) -> Any:
    """The smallest value that a JSON schema accepts, with text and numbers that read as a
    confident, relevant answer (largest number allowed, every array one item long)."""
    defs = defs if defs is not None else schema.get("$defs", {})
    if "$ref" in schema:
        return instance(defs[schema["$ref"].split("/")[-1]], defs)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return instance(schema[key][0], defs)
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next(k for k in kind if k != "null")
    if kind == "object":
        return {k: instance(v, defs) for k, v in schema.get("properties", {}).items()}
    if kind == "array":
        return [instance(schema.get("items", {"type": "string"}), defs)
                for _ in range(max(1, schema.get("minItems", 1)))]
    if kind in ("integer", "number"):
        value = schema.get("maximum", schema.get("minimum", 1))
        return int(value) if kind == "integer" else float(value)
    if kind == "boolean":
        return True
    return TEXT


def obliging_reply(messages: Sequence[ChatMessage], params: GenerationParams) -> ScriptOutput:
    if params.json_schema is not None:
        return json.dumps(instance(params.json_schema))
    if params.choices:
        return params.choices[0]
    if params.top_logprobs:
        top = {"yes": math.log(0.9), "no": math.log(0.1)}
        return "yes", [TokenLogprob(token="yes", logprob=top["yes"], top=top)]
    return TEXT


def obliging_session() -> ModelSession:
    """A session on the obliging model and an NLI judge that entails every pair."""
    return ModelSession(text=ScriptedTextBackend(obliging_reply),
                        nli=ScriptedNLIBackend(lambda premise, hypothesis: "entails"))
