"""Coverage of a long reference by a long-form response, sentence by sentence, cheapest
evidence first (the long-form judge ``coverage_judge="sentences"``).

A long reference answer (300-700 words) holds more facts than a small model lists in one call,
so its **clauses are the facts** (``factgraph.stages.text_units.split_facts``: sentences —
``split_sentences``: sentence ends and line breaks, list and citation markers such as ``[4]``
dropped — cut at clause boundaries; ``fact_unit="sentence"`` keeps whole sentences). For each
fact the evidence comes in order of cost:

1. **word check** — ``w``: the share of the fact's content words
   (``factgraph.stages.context_facts.content_words``) that occur in the response;
2. **embedding similarity** — ``e``: the largest cosine similarity between the fact and a
   sentence of the response (one embedding call for all sentences of both texts);
3. **the text model** (cascade only) — one yes/no token: does this evidence — the ``k``
   response sentences most similar to the fact — state the fact? (the project's NLI prompt,
   ``P(yes)`` from the first token, ``factgraph.stages.fact_coverage``).

A fact is covered when ``w ≥ words_cutoff`` or ``e ≥ similarity_cutoff``. In the cascade the
facts that neither reaches but that come within the band (``w ≥ words_floor`` or
``e ≥ similarity_floor``) are asked to the model, covered when ``P(yes) ≥ coverage_cutoff``;
those below both floors are uncovered without a call. Every cut-off is chosen on the dev part
of the pairwise meta-evaluation set and stored in the judge card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from factgraph.stages.context_facts import content_words
from factgraph.stages.session import ModelSession
from factgraph.stages.text_units import split_sentences


def word_share(fact: str, response_words: set[str]) -> float:
    """``w``: the share of the fact's content words found in the response (0 without any)."""
    words = content_words(fact)
    if not words:
        return 0.0
    return sum(w in response_words for w in words) / len(words)


def covering_evidence(words: float, similarity: float | None, p_model: float | None,
                      words_cutoff: float, similarity_cutoff: float,
                      coverage_cutoff: float | None = None) -> str | None:
    """Which evidence covers a fact, cheapest first: ``"words"`` when ``w ≥ words_cutoff``,
    ``"embedding"`` when ``e ≥ similarity_cutoff``, ``"sentences"`` (the model) when
    ``P(yes) ≥ coverage_cutoff``; None when none does. The one rule of the judge and of
    re-reading its results at other cut-offs."""
    if words >= words_cutoff:
        return "words"
    if similarity is not None and similarity >= similarity_cutoff:
        return "embedding"
    if coverage_cutoff is not None and p_model is not None and p_model >= coverage_cutoff:
        return "sentences"
    return None


@dataclass
class SentenceEvidence:
    """The cheap evidence for each fact: ``w``, ``e`` and the indices of the response
    sentences most similar to it (best first)."""

    words: list[float]
    similarity: list[float | None]
    nearest: list[list[int]]
    response_sentences: list[str]


def sentence_evidence(session: ModelSession, facts: Sequence[str], response: str,
                      nearest_k: int = 3) -> SentenceEvidence:
    """Word shares for every fact, and — when the session has an embedding model — each
    fact's best cosine similarity to a response sentence and its ``nearest_k`` most similar
    response sentences (one ``embed`` call; counted as ``sentences.embedded``)."""
    have = set(content_words(response))
    words = [word_share(f, have) for f in facts]
    resp = split_sentences(response, min_content_words=1) or [response]
    if session.embeddings is None or not facts:
        return SentenceEvidence(words=words, similarity=[None] * len(facts),
                                nearest=[list(range(min(nearest_k, len(resp))))] * len(facts),
                                response_sentences=resp)
    matrix = np.asarray(session.embeddings.embed([*facts, *resp]), dtype=np.float32)
    session.count("sentences.embedded", len(facts) + len(resp))
    sims = matrix[: len(facts)] @ matrix[len(facts):].T
    order = np.argsort(-sims, axis=1, kind="stable")[:, :nearest_k]
    return SentenceEvidence(words=words, similarity=[float(v) for v in sims.max(axis=1)],
                            nearest=[sorted(int(i) for i in row) for row in order],
                            response_sentences=resp)
