"""``factgraph index build | info``: corpus retrieval indexes for ICAT claim grounding.

``build`` chunks a corpus (128-word passages, 32 words overlap) and indexes it under
``--index-dir`` keyed by (corpus content, chunking, retriever, model): building again with an
unchanged corpus reuses the index, a changed corpus gets a fresh one. Pass the same
``--index-dir`` to ``factgraph evaluate --method icat-*`` to reuse it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

import click

from factgraph.cli.output import (
    format_option,
    make_console,
    output_option,
    output_stream,
    read_output,
)
from factgraph.cli.progress import show_progress, step
from factgraph.retrieval.chunking import DEFAULT_OVERLAP, DEFAULT_SIZE
from factgraph.retrieval.corpus import load_corpus
from factgraph.retrieval.index_store import IndexManifest, list_indexes, open_index


def default_index_dir() -> str:
    """``$FACTGRAPH_INDEX_DIR`` or ``~/.cache/factgraph/indexes``."""
    return os.environ.get("FACTGRAPH_INDEX_DIR") or str(
        Path.home() / ".cache" / "factgraph" / "indexes")


def _row(folder: Path, m: IndexManifest, **extra: Any) -> dict[str, Any]:
    return {"folder": str(folder), **m.model_dump(), **extra}


FORMATS = ("table", "json")
FORMAT = format_option(FORMATS, "table", "Human table or machine-readable JSON.")
OUTPUT = output_option(FORMATS)


def _echo(rows: list[dict[str, Any]], outputs: tuple[str, ...], fmt: str | None) -> None:
    choice = read_output(outputs, fmt, FORMATS, "table")
    with output_stream(choice.file) as stream:
        _write_rows(rows, choice.format, stream)


def _write_rows(rows: list[dict[str, Any]], output: str, stream: IO[str] | None) -> None:
    if output == "json":
        click.echo(json.dumps(rows if len(rows) != 1 else rows[0], indent=2), file=stream)
        return
    from rich.table import Table

    table = Table("folder", "retriever", "model", "documents", "passages", "chunk",
                  "build s", *(["reused"] if "reused" in (rows[0] if rows else {}) else []))
    for r in rows:
        table.add_row(r["folder"], r["retriever"], r["model"] or "-", str(r["n_documents"]),
                      str(r["n_passages"]), f"{r['chunk_size']}/{r['chunk_overlap']}",
                      f"{r['build_seconds']:.2f}",
                      *([str(r["reused"]).lower()] if "reused" in r else []))
    make_console(stream).print(table)


@click.group("index")
def index_group() -> None:
    """Corpus retrieval indexes (BM25 or dense) for ICAT claim grounding."""


@index_group.command("build")
@click.argument("corpus", type=click.Path(exists=True))
@click.option("--index-dir", default=None, type=click.Path(file_okay=False),
              help="Where indexes live (default: $FACTGRAPH_INDEX_DIR or "
                   "~/.cache/factgraph/indexes).")
@click.option("--retriever", type=click.Choice(["bm25", "dense"]), default="bm25",
              show_default=True)
@click.option("--embedding-model", default="minilm", show_default=True,
              help="Dense only: embedding model spec (minilm, sentence-transformers:PATH).")
@click.option("--chunk-size", default=DEFAULT_SIZE, show_default=True, type=click.IntRange(1))
@click.option("--chunk-overlap", default=DEFAULT_OVERLAP, show_default=True,
              type=click.IntRange(0))
@click.option("--progress/--no-progress", default=None,
              help="Progress on stderr (default: when stderr is a terminal).")
@FORMAT
@OUTPUT
def build_cmd(corpus: str, index_dir: str | None, retriever: str, embedding_model: str,
              chunk_size: int, chunk_overlap: int, progress: bool | None, fmt: str | None,
              outputs: tuple[str, ...]) -> None:
    """Index CORPUS (a JSONL of {id, text, title?}, a .txt file or a folder of .txt files)."""
    if chunk_overlap >= chunk_size:
        raise click.BadParameter("must be smaller than --chunk-size", param_hint="--chunk-overlap")
    docs = load_corpus(corpus)
    embeddings = None
    if retriever == "dense":
        from factgraph.backends.factory import load_embedding_backend

        embeddings = load_embedding_backend(embedding_model)
    with step(f"indexing {len(docs):,} documents ({retriever})", show_progress(progress)):
        index = open_index(docs, index_dir or default_index_dir(),
                           retriever,  # type: ignore[arg-type]
                           embeddings, chunk_size, chunk_overlap)
    assert index.folder is not None
    _echo([_row(index.folder, index.manifest, reused=index.reused)], outputs, fmt)


@index_group.command("info")
@click.argument("index_dir", type=click.Path(exists=True, file_okay=False))
@FORMAT
@OUTPUT
def info_cmd(index_dir: str, fmt: str | None, outputs: tuple[str, ...]) -> None:
    """The indexes in INDEX_DIR (an index folder, or a folder of them)."""
    rows = [_row(folder, m) for folder, m in list_indexes(index_dir)]
    if not rows:
        raise click.ClickException(f"{index_dir}: no factgraph index here")
    _echo(rows, outputs, fmt)
