"""What the comprehensiveness methods (nli, qa, e2e) share when they run: the context reuse
(:class:`ContextStore`) and the small steps every run takes (the background texts, an
incomplete evaluation). Their options' common bases are :mod:`factgraph.methods.options`.

Context reuse: the context side (context atoms, their relevance, context→context relations;
an e2e judge's context facts) depends only on the query, the background texts, the options and
the models. With a ``ContextStore`` it is built once and shared by every response to the same
query and texts.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from factgraph.inputs import Document, EvaluationInput
from factgraph.methods.assemble import assemble
from factgraph.methods.options import SummarizeOptions
from factgraph.models import Evaluation, FactGraph, ParseFailure, Relation, Statement, Trace
from factgraph.stages.session import ModelSession
from factgraph.stages.summarize import summarize_long_texts

log = logging.getLogger(__name__)

RESPONSE = "response"  # the response's key among the texts a stage reads


# --- context reuse ------------------------------------------------------------------------------

def content_hash(data: Any) -> str:
    """A short stable key of JSON-able ``data`` (a context part's key)."""
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False,
                                     default=str).encode()).hexdigest()[:16]


@dataclass
class ContextPart:
    """The response-independent part of an evaluation."""

    statements: list[Statement]
    relations: list[Relation]
    traces: list[Trace]
    failures: list[ParseFailure]
    counts: dict[str, int]
    texts: dict[str, str] = field(default_factory=dict)  # per-fact judges: texts by key


@dataclass
class ContextStore:
    """Context parts by key (query, texts, options, models); share one per batch run."""

    parts: dict[str, ContextPart] = field(default_factory=dict)
    hits: int = 0


def context_part(session: ModelSession, store: ContextStore | None, key: str,
                 build: Callable[[], ContextPart]) -> ContextPart:
    """The context part under ``key``: built once per store, then reused — its traces and
    parse failures are carried into this session, so every Evaluation keeps them."""
    part = store.parts.get(key) if store is not None else None
    if part is None:
        part = build()
        if store is not None:
            store.parts[key] = part
        return part
    assert store is not None
    store.hits += 1
    session.count("context.reused")
    session.traces.extend(part.traces)
    session.failures.extend(part.failures)
    return part


def counts_since(session: ModelSession, before: dict[str, int]) -> dict[str, int]:
    """The session's counts that changed since ``before`` (what building a part counted)."""
    return {k: v - before.get(k, 0) for k, v in session.counts.items()
            if v != before.get(k, 0)}


# --- the steps every run takes ------------------------------------------------------------------

def doc_keys(documents: list[Document]) -> dict[str, Document]:
    """The background texts by the key stages use for them: ``c1``, ``c2``, ..."""
    return {f"c{n}": d for n, d in enumerate(documents, 1)}


def session_models(session: ModelSession) -> dict[str, str | None]:
    """The session's models by role (recorded, and part of a context part's key)."""
    return {role: getattr(b, "model", None) for role, b in (
        ("text", session.text), ("nli", session.nli), ("embeddings", session.embeddings))}


def incomplete(eval_id: str, method: str, graph: FactGraph, session: ModelSession,
               params: dict[str, Any], inp: EvaluationInput, why: str) -> Evaluation:
    """An Evaluation without a score (``S = None``) that says why: a reply that could not be
    read is never a score of 0."""
    log.warning("%s: %s", eval_id, why)
    return assemble(eval_id=eval_id, method=method, graph=graph, session=session,
                    parameters=params, scores={"comprehensiveness": None},
                    response_id=inp.response_id, model=inp.model,
                    metadata={"incomplete": why})


def background_texts(session: ModelSession, inp: EvaluationInput, options: SummarizeOptions
                     ) -> tuple[dict[str, str], dict[str, Document]]:
    """The background texts by key (summarised when ``summarize_over_chars`` says so) and the
    documents by the same keys."""
    docs = doc_keys(inp.documents)
    texts = {k: d.text for k, d in docs.items()}
    if options.summarize_over_chars is not None:
        texts = summarize_long_texts(session, inp.query, texts, options.summarize_over_chars)
    return texts, docs
