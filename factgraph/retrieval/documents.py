"""Retrieved passages as Documents: evidence for methods that take background documents
(e.g. ``--method prf --corpus``)."""

from __future__ import annotations

import os

from factgraph.backends.base import EmbeddingBackend
from factgraph.inputs import Document
from factgraph.retrieval.corpus import load_corpus
from factgraph.retrieval.index_store import Retriever, open_index


def retrieve_documents(query: str, corpus: str | os.PathLike[str], k: int = 10,
                       index_dir: str | os.PathLike[str] | None = None,
                       retriever: Retriever = "bm25",
                       embeddings: EmbeddingBackend | None = None) -> list[Document]:
    """The top-``k`` passages of ``corpus`` for ``query``, best first, each a Document with
    id ``<doc id>#<n>`` and ``metadata`` {doc_id, rank, score, start_word, end_word}."""
    index = open_index(load_corpus(corpus), index_dir, retriever, embeddings)
    out = []
    for h in index.search([query], k)[0]:
        p = index.passages[h.passage]
        out.append(Document(id=p.id, text=p.text, title=p.title, metadata={
            "doc_id": p.doc_id, "rank": h.rank, "score": h.score, "start_word": p.start,
            "end_word": p.end}))
    return out
