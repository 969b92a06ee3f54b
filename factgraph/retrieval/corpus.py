"""Reading a corpus: a JSONL file of ``{id, text, title?}`` documents, a folder of ``.txt`` /
``.md`` files (id = path relative to the folder), or a single text file (one document)."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from pathlib import Path

from factgraph.errors import InputError
from factgraph.inputs import Document
from factgraph.io import read_jsonl

TEXT_SUFFIXES = (".txt", ".md")


def load_corpus(path: str | os.PathLike[str]) -> list[Document]:
    """The documents of a corpus path; InputError (file, line) on bad input or duplicate ids."""
    p = Path(path)
    if p.is_dir():
        files = sorted(f for f in p.rglob("*") if f.is_file() and f.suffix in TEXT_SUFFIXES)
        if not files:
            raise InputError(p, f"no {'/'.join(TEXT_SUFFIXES)} files in this folder")
        docs = []
        for f in files:
            try:
                text = f.read_text(encoding="utf-8")
            except UnicodeDecodeError as e:
                raise InputError(f, f"not UTF-8 text: {e.reason}") from None
            docs.append(Document(id=f.relative_to(p).as_posix(), text=text))
        return docs
    if not p.exists():
        raise InputError(p, "no such file or folder")
    name = p.name.removesuffix(".gz")
    if name.endswith((".jsonl", ".json")):
        docs = []
        seen: dict[str, int] = {}
        for line, doc in read_jsonl(p, Document):
            if doc.id in seen:
                raise InputError(p, f"id: duplicate document id {doc.id!r} "
                                    f"(first on line {seen[doc.id]})", line=line)
            seen[doc.id] = line
            docs.append(doc)
        if not docs:
            raise InputError(p, "the corpus has no documents")
        return docs
    if p.suffix in TEXT_SUFFIXES:
        return [Document(id=p.name, text=p.read_text(encoding="utf-8"))]
    raise InputError(p, "a corpus is a .jsonl file of {id, text, title?}, a .txt file or a "
                        "folder of .txt files")


def corpus_hash(docs: Sequence[Document]) -> str:
    """SHA-256 of the documents' ids, titles and texts in order (the index key's first part)."""
    h = hashlib.sha256()
    for d in docs:
        h.update(json.dumps([d.id, d.title, d.text], ensure_ascii=False).encode())
        h.update(b"\n")
    return h.hexdigest()
