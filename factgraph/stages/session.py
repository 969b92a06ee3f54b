"""A model session: the one place stages call models, and where traces and failures collect.

Stages never talk to an engine directly. They hand the session a batch of chats and a pydantic
model for the reply; the session sends the whole batch at once (engines batch or run it
concurrently), re-asks only the replies that did not parse — at most ``max_repairs`` rounds,
each round batched too — and records every call as a Trace and every reply it could not use
as a ParseFailure. A stage gets ``None`` for an item that failed and must record that, never
substitute a default.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from factgraph.backends.base import (
    ChatMessage,
    EmbeddingBackend,
    Generation,
    GenerationParams,
    NLIBackend,
    NLIResult,
    TextBackend,
)
from factgraph.backends.structured import ParseFailure as _NoJSON
from factgraph.backends.structured import _short_error, parse_as
from factgraph.errors import UserInputError
from factgraph.models import ParseFailure, Trace
from factgraph.prompts import PACKAGED, Prompt, PromptName, PromptSet

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)


class Limits(BaseModel):
    """Caps that keep one evaluation bounded; the caps that bind are recorded (limits_hit)."""

    max_text_chars: int = 20_000
    max_statements_per_text: int = 60
    max_pairs: int = 20_000
    max_questions: int = 40


@dataclass
class ModelSession:
    """Backends + parameters + the record of one evaluation's model calls."""

    text: TextBackend | None = None
    nli: NLIBackend | None = None
    embeddings: EmbeddingBackend | None = None
    params: GenerationParams = field(default_factory=GenerationParams)
    max_repairs: int = 2
    batch_size: int = 32
    limits: Limits = field(default_factory=Limits)
    traces: list[Trace] = field(default_factory=list)
    failures: list[ParseFailure] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    limits_hit: list[str] = field(default_factory=list)
    item_traces: dict[tuple[str, str], str] = field(default_factory=dict)
    prompts: PromptSet = PACKAGED  # the packaged prompts, or a user directory's in their place

    def __post_init__(self) -> None:
        # A judge that renders a prompt itself (the generative NLI judge) uses this session's.
        with_prompts = getattr(self.nli, "with_prompts", None)
        if self.prompts.overrides and callable(with_prompts):
            self.nli = with_prompts(self.prompts)

    def prompt(self, name: PromptName) -> Prompt:
        """The prompt ``name`` this session's stages use: factgraph's ``NAME``, or another
        package's ``PACKAGE:NAME`` / ``(PACKAGE, NAME)``, each replaced by the run's prompt
        directory when it holds one (``factgraph.prompts``)."""
        return self.prompts.get(name)

    # -- bookkeeping -------------------------------------------------------------------------
    def count(self, key: str, n: int = 1) -> None:
        self.counts[key] += n

    def hit_limit(self, message: str) -> None:
        if message not in self.limits_hit:
            log.warning("limit reached: %s", message)
            self.limits_hit.append(message)

    def require_text(self) -> TextBackend:
        if self.text is None:
            raise UserInputError("this stage needs a text model (--model)")
        return self.text

    def trace_for(self, stage: str, item: str) -> str | None:
        """The id of the call whose reply a stage used for ``item`` (None if it failed)."""
        return self.item_traces.get((stage, item))

    # -- calls -------------------------------------------------------------------------------
    def generate(
        self, stage: str, chats: Sequence[Sequence[ChatMessage]],
        params: GenerationParams | None = None,
    ) -> list[Generation]:
        """Plain generation, batched; every call traced."""
        backend = self.require_text()
        params = params or self.params
        out: list[Generation] = []
        for start in range(0, len(chats), self.batch_size):
            gens = backend.generate(chats[start : start + self.batch_size], params)
            out.extend(gens)
        self.count(f"{stage}.calls", len(chats))
        self.traces.extend(g.trace.model_copy(update={"parameters": {
            **g.trace.parameters, "stage": stage}}) for g in out)
        return out

    def structured(
        self, stage: str, chats: Sequence[Sequence[ChatMessage]], model_cls: type[T],
        items: Sequence[str] | None = None, params: GenerationParams | None = None,
    ) -> list[T | None]:
        """One ``model_cls`` per chat (``None`` where every attempt failed, recorded)."""
        params = params or self.params
        if params.json_schema is None:
            params = params.model_copy(update={"json_schema": model_cls.model_json_schema()})
        names = list(items) if items is not None else [str(i) for i in range(len(chats))]
        results: list[T | None] = [None] * len(chats)
        errors: dict[int, tuple[str, str | None]] = {}
        conversation = {i: list(c) for i, c in enumerate(chats)}
        todo = list(range(len(chats)))
        for attempt in range(self.max_repairs + 1):
            if not todo:
                break
            gens = self.generate(stage, [conversation[i] for i in todo], params)
            retry: list[int] = []
            for i, gen in zip(todo, gens, strict=True):
                try:
                    results[i] = parse_as(model_cls, gen.text)
                    errors.pop(i, None)
                    self.item_traces[(stage, names[i])] = gen.trace.id
                except (_NoJSON, ValidationError) as e:
                    err = _short_error(e)
                    errors[i] = (err, gen.trace.id)
                    self.count(f"{stage}.parse_errors")
                    conversation[i] += [
                        ChatMessage(role="assistant", content=gen.text),
                        ChatMessage(role="user", content=(
                            f"That reply could not be used ({err}). Reply again with one JSON "
                            "value in the requested format and nothing else.")),
                    ]
                    retry.append(i)
            if attempt < self.max_repairs:
                self.count(f"{stage}.repairs", len(retry))
            todo = retry
        for i, (err, trace_id) in sorted(errors.items()):
            self.failures.append(ParseFailure(stage=stage, item=names[i], error=err,
                                              attempts=self.max_repairs + 1, trace_id=trace_id))
            log.warning("%s: no usable reply for %s after %d attempts: %s", stage, names[i],
                        self.max_repairs + 1, err)
        return results

    def judge(self, stage: str, pairs: Sequence[tuple[str, str]]) -> list[NLIResult]:
        """NLI over (premise, hypothesis) pairs; failed judgements recorded."""
        if self.nli is None:
            raise UserInputError("this stage needs an NLI judge (--nli-model, or --model)")
        results = self.nli.judge(pairs) if pairs else []
        self.count(f"{stage}.pairs", len(pairs))
        for (p, h), r in zip(pairs, results, strict=True):
            if r.trace is not None:
                self.traces.append(r.trace)
            if r.source == "failed":
                self.failures.append(ParseFailure(
                    stage=stage, item=f"{p[:60]!r} => {h[:60]!r}", error="no NLI label",
                    attempts=1, trace_id=r.trace.id if r.trace else None))
        return results
