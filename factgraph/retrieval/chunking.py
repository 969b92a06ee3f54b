"""Overlapping word windows (Samarinas et al. 2025, §4.3: passages of up to 128 words, 32 words
overlap)."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from factgraph.errors import UserInputError
from factgraph.inputs import Document

DEFAULT_SIZE = 128
DEFAULT_OVERLAP = 32


class Passage(BaseModel):
    """A window of one document: words ``[start, end)`` of its whitespace-split text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    doc_id: str
    title: str | None = None
    text: str
    start: int
    end: int

    @property
    def premise(self) -> str:
        """What is retrieved over and shown to the NLI judge: title (if any) + text."""
        return f"{self.title}. {self.text}" if self.title else self.text


def chunk_spans(n_words: int, size: int = DEFAULT_SIZE,
                overlap: int = DEFAULT_OVERLAP) -> list[tuple[int, int]]:
    """Word spans ``[start, end)`` of windows of ``size`` words that start every
    ``size - overlap`` words; the last window ends at the last word. No window for 0 words."""
    if size < 1 or not 0 <= overlap < size:
        raise UserInputError(f"need size >= 1 and 0 <= overlap < size, got {size}, {overlap}")
    spans: list[tuple[int, int]] = []
    start = 0
    while start < n_words:
        end = min(start + size, n_words)
        spans.append((start, end))
        if end == n_words:
            break
        start += size - overlap
    return spans


def chunk_documents(docs: Sequence[Document], size: int = DEFAULT_SIZE,
                    overlap: int = DEFAULT_OVERLAP) -> list[Passage]:
    """All passages of ``docs`` in order; passage ids are ``<doc id>#<n>`` (1-based)."""
    out: list[Passage] = []
    for d in docs:
        words = d.text.split()
        for n, (s, e) in enumerate(chunk_spans(len(words), size, overlap), 1):
            out.append(Passage(id=f"{d.id}#{n}", doc_id=d.id, title=d.title,
                               text=" ".join(words[s:e]), start=s, end=e))
    return out
