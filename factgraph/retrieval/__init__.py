"""Corpus retrieval for claim grounding (Samarinas et al. 2025, §3.2, §4.3): ingest documents,
chunk them into overlapping passages, index them (BM25 or dense), and find the top-k passages per
claim.

Indexes persist on disk under a key of (corpus content hash, chunking parameters, retriever,
model), so a changed corpus never reuses a stale index (``index_store``).
"""

from factgraph.retrieval.chunking import Passage, chunk_documents, chunk_spans
from factgraph.retrieval.corpus import corpus_hash, load_corpus
from factgraph.retrieval.documents import retrieve_documents
from factgraph.retrieval.index_store import IndexManifest, RetrievalIndex, open_index
from factgraph.retrieval.types import Hit

__all__ = [
    "Hit", "IndexManifest", "Passage", "RetrievalIndex", "chunk_documents", "chunk_spans",
    "corpus_hash", "load_corpus", "open_index", "retrieve_documents",
]
