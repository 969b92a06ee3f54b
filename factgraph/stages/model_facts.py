"""A reference's facts listed by a text model: per paragraph, grounded, merged (the evidence
judge's ``reference_facts="model"``; issue "Facts that read as facts").

The model-free split (``split_statements``) cuts sentences where a clause starts, and a
cut can leave a statement without its subject. Here the text model rewrites each paragraph as
self-contained statements (the ``atomize`` prompt: one fact each, names instead of pronouns),
in chunks of at most ``max_sentences`` sentences so that a long paragraph is not summarised
away. What it returns is then checked, not trusted:

* **grounded**: a statement is kept only when at least ``min_share`` of its content words
  (stems) are words of its chunk and every number it gives is the chunk's
  (``grounding_overlap``, the check the context facts pass) — a statement the model made up,
  filled from what it knows or with a figure "corrected", is dropped (and counted);
* **merged**: a statement whose words are nearly those of one kept before it (Jaccard of the
  stems ≥ ``merge_jaccard``) is the same fact said twice, and dropped;
* a chunk whose reply never parses, or whose statements are all dropped, keeps the model-free
  statements of that chunk (counted), so no part of the reference goes unjudged;
* a reply is capped at ``64 + TOKENS_PER_WORD ×`` the longest chunk's words (or the session's
  cap, if lower): a small model that loops over its list stops there.

All chunks of all texts go to the model in one batch (one call per chunk, cached like every
call). Pure functions apart from :func:`model_reference_facts`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from factgraph.stages.atomize import atomize
from factgraph.stages.context_facts import grounding_overlap
from factgraph.stages.fact_evidence import stems
from factgraph.stages.session import ModelSession
from factgraph.stages.text_units import split_sentences, split_statements

MAX_SENTENCES = 4  # sentences per chunk the model reads
MIN_SHARE = 0.8  # a kept statement's words that are words of its chunk
MERGE_JACCARD = 0.8  # two statements with nearly the same words are one fact
# a reply's tokens per word of its chunk (plus a fixed 64): a list of a chunk's statements
# restates it once with JSON around it; a small model that loops stops there, not at 768
TOKENS_PER_WORD = 3


def paragraph_chunks(text: str, max_sentences: int = MAX_SENTENCES) -> list[str]:
    """``text``'s paragraphs (parted by a blank line), each cut into runs of at most
    ``max_sentences`` sentences, in order."""
    out: list[str] = []
    for paragraph in re.split(r"\n\s*\n", text):
        sentences = split_sentences(paragraph, min_content_words=1)
        out.extend(" ".join(sentences[i: i + max_sentences])
                   for i in range(0, len(sentences), max_sentences))
    return out


def merge_statements(statements: list[str], jaccard: float = MERGE_JACCARD) -> list[str]:
    """``statements`` without those whose stems are nearly (Jaccard ≥ ``jaccard``) those of one
    kept before them; order kept."""
    kept: list[tuple[str, set[str]]] = []
    for s in statements:
        words = set(stems(s))
        if not words or any(len(words & k) / len(words | k) >= jaccard for _, k in kept):
            continue
        kept.append((s, words))
    return [s for s, _ in kept]


@dataclass
class ModelFacts:
    """The facts of one text and what became of the model's statements."""

    facts: list[str] = field(default_factory=list)
    chunks: int = 0
    listed: int = 0  # statements the model returned
    ungrounded: list[str] = field(default_factory=list)  # dropped: not in their chunk
    merged: int = 0  # dropped: the same fact again
    fallback_chunks: int = 0  # chunks that kept their model-free statements


def model_reference_facts(session: ModelSession, texts: Mapping[str, str],
                          max_sentences: int = MAX_SENTENCES, min_share: float = MIN_SHARE,
                          merge_jaccard: float = MERGE_JACCARD,
                          stage: str = "reference_facts") -> dict[str, ModelFacts]:
    """The facts of each text (keyed like ``texts``), listed by the session's text model
    per chunk, grounded and merged (module docstring)."""
    chunks = {key: paragraph_chunks(text, max_sentences) for key, text in texts.items()}
    ids = {f"{key}#{n}": chunk for key, cs in chunks.items() for n, chunk in enumerate(cs)}
    longest = max((len(c.split()) for c in ids.values()), default=0)
    params = session.params.model_copy(update={"max_tokens": min(
        session.params.max_tokens, 64 + TOKENS_PER_WORD * longest)})
    replies = atomize(session, ids, stage=stage, params=params) if ids else {}
    out: dict[str, ModelFacts] = {}
    for key, cs in chunks.items():
        got = ModelFacts(chunks=len(cs))
        listed: list[str] = []
        for n, chunk in enumerate(cs):
            reply = replies.get(f"{key}#{n}")
            kept = []
            for s in reply or []:
                got.listed += 1
                if grounding_overlap(s, chunk, stemmed=True) >= min_share:
                    kept.append(s)
                else:
                    got.ungrounded.append(s)
            if not kept:  # unreadable, or nothing grounded: the model-free statements
                got.fallback_chunks += 1
                kept = split_statements(chunk)
            listed.extend(kept)
        got.facts = merge_statements(listed, merge_jaccard)
        got.merged = len(listed) - len(got.facts)
        session.count(f"{stage}.ungrounded", len(got.ungrounded))
        session.count(f"{stage}.fallback_chunks", got.fallback_chunks)
        out[key] = got
    return out
