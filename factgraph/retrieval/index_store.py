"""Building, persisting and reopening retrieval indexes.

An index lives in ``<index_dir>/<retriever>-<key>/`` where ``key`` hashes (corpus content hash,
chunk size, overlap, retriever, embedding model). A changed corpus, chunking or model gives a
different key and so a fresh build: a stale index is never reused. A folder holds
``manifest.json`` (the key's parts and build statistics), ``passages.jsonl`` and the index
files; the manifest is written last, so a build killed midway is rebuilt, never half-read.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from factgraph.backends.base import EmbeddingBackend
from factgraph.errors import InputError, UserInputError
from factgraph.inputs import Document
from factgraph.io import read_jsonl
from factgraph.retrieval.bm25 import BM25Searcher
from factgraph.retrieval.chunking import DEFAULT_OVERLAP, DEFAULT_SIZE, Passage, chunk_documents
from factgraph.retrieval.corpus import corpus_hash
from factgraph.retrieval.dense import DenseSearcher, model_name
from factgraph.retrieval.types import Hit, Searcher

log = logging.getLogger(__name__)

Retriever = Literal["bm25", "dense"]
MANIFEST = "manifest.json"
PASSAGES = "passages.jsonl"
FORMAT = 1


class IndexManifest(BaseModel):
    """What an index folder holds and how it was built."""

    model_config = ConfigDict(extra="forbid")

    format: int = FORMAT
    key: str
    retriever: Retriever
    corpus_hash: str
    chunk_size: int
    chunk_overlap: int
    model: str | None = None
    n_documents: int
    n_passages: int
    build_seconds: float
    created: float


def index_key(corpus_sha: str, size: int, overlap: int, retriever: str,
              model: str | None) -> str:
    """The folder key: a short hash of everything the index content depends on."""
    raw = json.dumps([FORMAT, corpus_sha, size, overlap, retriever, model])
    return hashlib.sha256(raw.encode()).hexdigest()[:20]


@dataclass
class RetrievalIndex:
    """Passages + a searcher over them; ``reused`` says whether it came from disk."""

    passages: list[Passage]
    searcher: Searcher
    manifest: IndexManifest
    folder: Path | None = None
    reused: bool = False

    def search(self, queries: Sequence[str], k: int = 10) -> list[list[Hit]]:
        """Top-``k`` hits per query, best first (fewer where fewer passages match)."""
        return self.searcher.search(queries, k)


def _embedding_model(retriever: str, embeddings: EmbeddingBackend | None) -> str | None:
    if retriever == "bm25":
        return None
    if embeddings is None:
        raise UserInputError("dense retrieval needs an embedding model (--embedding-model)")
    return model_name(embeddings)


def read_manifest(folder: Path) -> IndexManifest | None:
    """The folder's manifest, or None when it has none / an unreadable one (then rebuilt)."""
    path = folder / MANIFEST
    if not path.is_file():
        return None
    try:
        return IndexManifest.model_validate_json(path.read_text(encoding="utf-8"))
    except (ValidationError, OSError) as e:
        log.warning("ignoring unreadable index manifest %s: %s", path, e)
        return None


def _load(folder: Path, manifest: IndexManifest,
          embeddings: EmbeddingBackend | None) -> RetrievalIndex:
    passages = [p for _, p in read_jsonl(folder / PASSAGES, Passage)]
    searcher: Searcher
    if manifest.retriever == "bm25":
        searcher = BM25Searcher.load(folder / "bm25", len(passages))
    else:
        assert embeddings is not None
        searcher = DenseSearcher.load(folder, embeddings)
    return RetrievalIndex(passages, searcher, manifest, folder, reused=True)


def build_index(docs: Sequence[Document], retriever: Retriever = "bm25",
                embeddings: EmbeddingBackend | None = None, size: int = DEFAULT_SIZE,
                overlap: int = DEFAULT_OVERLAP) -> RetrievalIndex:
    """A fresh in-memory index over ``docs``."""
    model = _embedding_model(retriever, embeddings)
    sha = corpus_hash(docs)
    start = time.perf_counter()
    passages = chunk_documents(docs, size, overlap)
    texts = [p.premise for p in passages]
    searcher: Searcher
    if retriever == "bm25":
        searcher = BM25Searcher.build(texts)
    else:
        assert embeddings is not None
        searcher = DenseSearcher.build(texts, embeddings)
    manifest = IndexManifest(
        key=index_key(sha, size, overlap, retriever, model), retriever=retriever,
        corpus_hash=sha, chunk_size=size, chunk_overlap=overlap, model=model,
        n_documents=len(docs), n_passages=len(passages),
        build_seconds=round(time.perf_counter() - start, 4), created=time.time())
    return RetrievalIndex(passages, searcher, manifest)


def save_index(index: RetrievalIndex, index_dir: str | os.PathLike[str]) -> Path:
    """Write ``index`` under ``index_dir`` (atomically: a temp folder renamed into place)."""
    root = Path(index_dir)
    root.mkdir(parents=True, exist_ok=True)
    final = root / f"{index.manifest.retriever}-{index.manifest.key}"
    tmp = Path(tempfile.mkdtemp(prefix=".building-", dir=root))
    try:
        with open(tmp / PASSAGES, "w", encoding="utf-8") as f:
            for p in index.passages:
                f.write(p.model_dump_json() + "\n")
        if index.manifest.retriever == "bm25":
            (tmp / "bm25").mkdir()
        index.searcher.save(tmp / "bm25" if index.manifest.retriever == "bm25" else tmp)
        (tmp / MANIFEST).write_text(index.manifest.model_dump_json(indent=2), encoding="utf-8")
        if final.exists():
            shutil.rmtree(final)
        tmp.rename(final)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    index.folder = final
    return final


def open_index(docs: Sequence[Document], index_dir: str | os.PathLike[str] | None = None,
               retriever: Retriever = "bm25", embeddings: EmbeddingBackend | None = None,
               size: int = DEFAULT_SIZE, overlap: int = DEFAULT_OVERLAP) -> RetrievalIndex:
    """The index of ``docs``: reopened from ``index_dir`` when one with the same key exists
    there, else built (and saved when ``index_dir`` is given)."""
    if index_dir is not None:
        model = _embedding_model(retriever, embeddings)
        key = index_key(corpus_hash(docs), size, overlap, retriever, model)
        folder = Path(index_dir) / f"{retriever}-{key}"
        manifest = read_manifest(folder)
        if manifest is not None and manifest.key == key:
            try:
                index = _load(folder, manifest, embeddings)
                log.info("reusing index %s (%d passages)", folder, manifest.n_passages)
                return index
            except (OSError, ValueError, InputError) as e:
                log.warning("index %s could not be read (%s); rebuilding", folder, e)
    index = build_index(docs, retriever, embeddings, size, overlap)
    if index_dir is not None:
        save_index(index, index_dir)
        log.info("built index %s (%d passages in %.2f s)", index.folder,
                 index.manifest.n_passages, index.manifest.build_seconds)
    return index


def list_indexes(path: str | os.PathLike[str]) -> list[tuple[Path, IndexManifest]]:
    """The indexes in ``path``: itself when it is an index folder, else its sub-folders."""
    p = Path(path)
    if not p.is_dir():
        raise InputError(p, "no such folder")
    own = read_manifest(p)
    if own is not None:
        return [(p, own)]
    found = []
    for sub in sorted(p.iterdir()):
        m = read_manifest(sub) if sub.is_dir() else None
        if m is not None:
            found.append((sub, m))
    return found
