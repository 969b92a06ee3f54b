"""Corpus ingestion, 128/32 chunking, BM25 and dense retrieval, index persistence (no stale
reuse), the ``factgraph index`` CLI, and the aspect / qrels readers."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from factgraph.cli.main import cli
from factgraph.datasets.aspects import load_aspects, load_qrels
from factgraph.errors import InputError
from factgraph.inputs import Document
from factgraph.retrieval import (
    chunk_documents,
    chunk_spans,
    load_corpus,
    open_index,
    retrieve_documents,
)
from factgraph.retrieval.dense import embed


class HashedBagOfWords:
    """A deterministic stand-in embedding: hashed word counts (tests the search, not a model)."""

    engine, model = "test", "hashed-bow"

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.calls = 0

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls += 1
        m = np.zeros((len(texts), self.dim), dtype=np.float32)
        for i, t in enumerate(texts):
            for w in t.lower().split():
                m[i, int(hashlib.md5(w.encode()).hexdigest(), 16) % self.dim] += 1
        return m


def words(n: int) -> str:
    return " ".join(f"w{i}" for i in range(n))


def test_chunk_spans_are_128_words_with_32_overlap() -> None:
    assert chunk_spans(300) == [(0, 128), (96, 224), (192, 300)]
    assert chunk_spans(128) == [(0, 128)]
    assert chunk_spans(129) == [(0, 128), (96, 129)]
    assert chunk_spans(5) == [(0, 5)]
    assert chunk_spans(0) == []
    with pytest.raises(ValueError):
        chunk_spans(10, size=32, overlap=32)


def test_chunk_documents_overlap_exactly_and_cover_every_word() -> None:
    passages = chunk_documents([Document(id="d", text=words(300), title="T"),
                                Document(id="e", text="   ")])
    assert [p.id for p in passages] == ["d#1", "d#2", "d#3"]
    split = [p.text.split() for p in passages]
    assert [len(s) for s in split] == [128, 128, 108]
    assert split[0][-32:] == split[1][:32] and split[1][-32:] == split[2][:32]
    assert split[1][0] == "w96" and split[2][-1] == "w299"
    assert passages[0].premise.startswith("T. w0 ")


def test_load_corpus_jsonl_folder_and_errors(tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.txt").write_text("alpha")
    (folder / "sub" / "b.md").write_text("beta")
    (folder / "skip.bin").write_text("x")
    assert [(d.id, d.text) for d in load_corpus(folder)] == [("a.txt", "alpha"),
                                                             ("sub/b.md", "beta")]
    bad = tmp_path / "c.jsonl"
    bad.write_text('{"id": "x", "text": "a"}\n{"id": "x", "text": "b"}\n')
    with pytest.raises(InputError, match=r"c.jsonl:2: id: duplicate document id 'x'"):
        load_corpus(bad)
    bad.write_text('{"id": "x"}\n')
    with pytest.raises(InputError, match=r"c.jsonl:1: text"):
        load_corpus(bad)


DOCS = [Document(id="dam", text="The Kessler Dam holds back Lake Mirren."),
        Document(id="cat", text="Cats purr when they are content."),
        Document(id="fish", text="Anglers catch trout in Lake Mirren.")]


def test_bm25_ranks_matching_passages_and_drops_non_matching() -> None:
    index = open_index(DOCS)
    hits = index.search(["Lake Mirren dam", "zebra", "purr"], k=10)
    assert [index.passages[h.passage].doc_id for h in hits[0]] == ["dam", "fish"]
    assert [h.rank for h in hits[0]] == [1, 2] and hits[0][0].score > hits[0][1].score
    assert hits[1] == []
    assert [index.passages[h.passage].doc_id for h in hits[2]] == ["cat"]
    assert len(index.search(["Lake Mirren dam"], k=1)[0]) == 1
    # Only stopwords / no words at all: an empty index that matches nothing, not a crash.
    for text in ("the of a", ""):
        assert open_index([Document(id="e", text=text)]).search(["the x"]) == [[]]


def test_dense_search_equals_brute_force_cosine() -> None:
    emb = HashedBagOfWords()
    rng = np.random.default_rng(0)
    vocab = [f"t{i}" for i in range(50)]
    docs = [Document(id=str(i), text=" ".join(rng.choice(vocab, 12))) for i in range(40)]
    index = open_index(docs, retriever="dense", embeddings=emb)
    queries = [" ".join(rng.choice(vocab, 4)) for _ in range(5)]
    got = index.search(queries, k=10)
    m = embed(emb, [p.premise for p in index.passages])
    for q, hits in zip(queries, got, strict=True):
        qv = embed(emb, [q])[0]
        sims = [float(np.dot(qv, row)) for row in m]
        expected = sorted(range(len(sims)), key=lambda i: (-sims[i], i))[:10]
        assert [h.score for h in hits] == pytest.approx([sims[i] for i in expected], abs=1e-5)
        assert {h.passage for h in hits if h.score > sims[expected[-1]] + 1e-6} <= set(expected)
    with pytest.raises(ValueError, match="embedding model"):
        open_index(docs, retriever="dense")


def test_index_is_reused_only_for_the_same_corpus_chunking_and_model(tmp_path: Path) -> None:
    idx = tmp_path / "idx"
    first = open_index(DOCS, idx)
    again = open_index(DOCS, idx)
    assert (first.reused, again.reused) == (False, True)
    assert again.folder == first.folder
    assert again.search(["purr"])[0] == first.search(["purr"])[0]
    # A changed corpus (one word) must not reuse the stale index.
    changed = [*DOCS[:2], Document(id="fish", text="Anglers catch zander in Lake Mirren.")]
    fresh = open_index(changed, idx)
    assert not fresh.reused and fresh.folder != first.folder
    assert [fresh.passages[h.passage].doc_id for h in fresh.search(["zander"])[0]] == ["fish"]
    assert open_index(DOCS, idx).search(["zander"])[0] == []
    # Other chunking, other retriever/model: other keys.
    assert not open_index(DOCS, idx, size=64, overlap=16).reused
    emb = HashedBagOfWords()
    assert not open_index(DOCS, idx, "dense", emb).reused
    assert open_index(DOCS, idx, "dense", emb).reused
    assert len({p.name for p in idx.iterdir()}) == 4
    # A damaged manifest means rebuild, not a crash.
    (first.folder / "manifest.json").write_text("{not json")  # type: ignore[operator]
    assert not open_index(DOCS, idx).reused


def test_index_cli_build_and_info(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(d.model_dump_json() + "\n" for d in DOCS))
    runner = CliRunner()
    args = ["index", "build", str(corpus), "--index-dir", str(tmp_path / "idx"), "-o", "json"]
    out1 = json.loads(runner.invoke(cli, args).output)
    out2 = json.loads(runner.invoke(cli, args).output)
    assert (out1["reused"], out2["reused"]) == (False, True)
    assert (out1["n_documents"], out1["n_passages"], out1["chunk_size"]) == (3, 3, 128)
    info = runner.invoke(cli, ["index", "info", str(tmp_path / "idx"), "-o", "json"])
    assert info.exit_code == 0 and json.loads(info.output)["key"] == out1["key"]
    table = runner.invoke(cli, ["index", "info", out1["folder"]])
    assert table.exit_code == 0 and "bm25" in table.output
    missing = runner.invoke(cli, ["index", "build", str(tmp_path / "nope.jsonl")])
    assert missing.exit_code == 2


def test_aspect_files_and_qrels(tmp_path: Path) -> None:
    js = tmp_path / "a.json"
    js.write_text(json.dumps(["cost", {"id": "x", "text": " size  of it "}]))
    assert [(a.id, a.text) for a in load_aspects(js)] == [("1", "cost"), ("x", "size of it")]
    jl = tmp_path / "a.jsonl"
    jl.write_text('{"topic": 1, "text": "one"}\n{"topic": 2, "text": "two"}\n"shared"\n')
    assert [a.text for a in load_aspects(jl, topic="2")] == ["two", "shared"]
    jl.write_text('{"topic": 1, "text": "one"}\n{"name": "bad"}\n')
    with pytest.raises(InputError, match=r"a.jsonl:2: aspect 2"):
        load_aspects(jl)
    q = tmp_path / "q.txt"
    q.write_text("1 1 d1 1\n1 2 d1 2\n1 3 d2 0\n\n# note\n2 1 d9 1\n")
    assert load_qrels(q) == {"1": {"d1": {"1", "2"}, "d2": set()}, "2": {"d9": {"1"}}}
    q.write_text("1 1 d1\n")
    with pytest.raises(InputError, match=r"q.txt:1: expected 'TOPIC SUBTOPIC DOCID REL'"):
        load_qrels(q)


def test_retrieve_documents_returns_top_passages_as_documents(tmp_path: Path) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("".join(d.model_dump_json() + "\n" for d in DOCS))
    got = retrieve_documents("Lake Mirren dam", corpus, k=1)
    assert [(d.id, d.text, d.metadata["doc_id"], d.metadata["rank"]) for d in got] == [
        ("dam#1", DOCS[0].text, "dam", 1)]
