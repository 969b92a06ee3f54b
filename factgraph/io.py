"""Reading JSON and JSON Lines files with errors that name the file, line and field.

One job: the text of a ``.json`` / ``.jsonl`` file, optionally gzip-compressed (``.gz``), as
Python objects or validated models, a bad line named. Its users own what the rows mean: graph
and results files (``factgraph.graph.results``), public data sets (``factgraph.datasets``),
corpora and indexes (``factgraph.retrieval``), given facts (:func:`read_given_facts`, here as it
is only a line reader of ``{id, text}`` rows). Beside it, :func:`shipped_folder` finds a
data folder the package ships (``cypher/``, ``viz/``); its users name the files in it
(``factgraph.store.cypher_files``, ``factgraph.viz.assets``).
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from factgraph.errors import InputError, parse_model

if TYPE_CHECKING:
    from factgraph.inputs import GivenFact

M = TypeVar("M", bound=BaseModel)


_PACKAGE_DIR = Path(__file__).resolve().parent  # factgraph/


def shipped_folder(name: str) -> Path:
    """A folder the package ships beside its code: the wheel's copy ``factgraph/_<name>``
    (``setup.py`` packages it there), else the repository's top-level ``<name>/``."""
    packaged = _PACKAGE_DIR / f"_{name}"
    if packaged.is_dir():
        return packaged
    in_repo = _PACKAGE_DIR.parent / name
    if in_repo.is_dir():
        return in_repo
    raise FileNotFoundError(f"factgraph resource folder {name!r} is missing from this install")


def open_text(path: str | os.PathLike[str]) -> IO[str]:
    """Open a text file, transparently decompressing ``.gz``."""
    p = Path(path)
    if p.suffix == ".gz":
        return gzip.open(p, "rt", encoding="utf-8")
    return open(p, encoding="utf-8")


def read_json(path: str | os.PathLike[str]) -> Any:
    """The parsed JSON document of a file; InputError naming the file (and line) otherwise."""
    try:
        with open_text(path) as f:
            text = f.read()
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as e:
        raise InputError(path, f"cannot read: {e}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(path, f"invalid JSON: {e.msg} (column {e.colno})", line=e.lineno) from None


def iter_jsonl(path: str | os.PathLike[str]) -> Iterator[tuple[int, Any]]:
    """Yield ``(line_number, object)`` for each non-blank line; bad JSON names its line."""
    try:
        f = open_text(path)
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    with f:
        lineno = 0
        try:
            for lineno, raw in enumerate(f, start=1):
                if not raw.strip():
                    continue
                try:
                    yield lineno, json.loads(raw)
                except json.JSONDecodeError as e:
                    raise InputError(
                        path, f"invalid JSON: {e.msg} (column {e.colno})", line=lineno
                    ) from None
        except UnicodeDecodeError as e:
            raise InputError(path, f"not UTF-8 text: {e.reason}", line=lineno + 1) from None
        except (OSError, EOFError, zlib.error) as e:  # a damaged .gz
            raise InputError(path, f"cannot read: {e}", line=lineno + 1) from None


def read_jsonl(path: str | os.PathLike[str], model: type[M]) -> Iterator[tuple[int, M]]:
    """Yield ``(line_number, validated model)`` per line of a JSONL file."""
    for lineno, obj in iter_jsonl(path):
        yield lineno, parse_model(model, obj, path, lineno)


def read_given_facts(path: str | os.PathLike[str]) -> list[GivenFact]:
    """Given facts from a file: JSONL (``.jsonl``, ``.jsonl.gz``) of ``{id, text}`` objects or
    strings, else a text file with one fact per line (blank lines skipped). A string gets the
    id ``f<n>``, n its position among the facts (1-based). A bad line or a repeated id is a
    one-line InputError naming the line."""
    from factgraph.inputs import GivenFact

    name = str(path)
    if name.endswith((".jsonl", ".jsonl.gz")):
        rows = list(iter_jsonl(path))
    else:
        try:
            with open_text(path) as f:
                rows = [(n, line.strip()) for n, line in enumerate(f, 1) if line.strip()]
        except FileNotFoundError:
            raise InputError(path, "no such file") from None
        except (OSError, UnicodeDecodeError, EOFError, zlib.error) as e:
            raise InputError(path, f"cannot read: {e}") from None
    facts: list[GivenFact] = []
    seen: set[str] = set()
    for n, (line, obj) in enumerate(rows, 1):
        fact = parse_model(GivenFact, {"id": f"f{n}", "text": obj} if isinstance(obj, str)
                           else obj, path, line)
        if fact.id in seen:
            raise InputError(path, f"id: duplicate fact id {fact.id!r}", line=line)
        seen.add(fact.id)
        facts.append(fact)
    return facts


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """A file's bytes, ``.gz`` decompressed (OSError / EOFError / zlib.error when damaged)."""
    p = Path(path)
    if p.suffix == ".gz":
        with gzip.open(p, "rb") as f:
            return f.read()
    return p.read_bytes()


def is_jsonl(path: str | os.PathLike[str]) -> bool:
    """Whether a path names a JSON Lines file (``.jsonl`` or ``.jsonl.gz``)."""
    name = str(path)
    return name.endswith(".jsonl") or name.endswith(".jsonl.gz")
