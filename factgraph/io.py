"""Reading and writing factgraph files with errors that name the file, line and field.

Formats: a FactGraph or an Evaluation as one JSON document (``.json``), a batch of them as
JSON Lines (``.jsonl``, one object per line), optionally gzip-compressed (``.gz``).
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

# the user-error family and the plug-in registry live on the floor (factgraph.errors,
# factgraph.plugins); their names stay importable from here for code written against io
from factgraph.errors import InputError as InputError
from factgraph.errors import UnknownNameError as UnknownNameError
from factgraph.errors import UserInputError as UserInputError
from factgraph.errors import describe_validation_error as describe_validation_error
from factgraph.errors import parse_model
from factgraph.models import Evaluation, FactGraph
from factgraph.plugins import PluginRegistry as PluginRegistry
from factgraph.plugins import plugins as plugins

if TYPE_CHECKING:
    from factgraph.graph import GraphTable
    from factgraph.inputs import GivenFact

M = TypeVar("M", bound=BaseModel)


def open_text(path: str | os.PathLike[str]) -> IO[str]:
    """Open a text file, transparently decompressing ``.gz``."""
    p = Path(path)
    if p.suffix == ".gz":
        return gzip.open(p, "rt", encoding="utf-8")
    return open(p, encoding="utf-8")


def _read_json(path: str | os.PathLike[str]) -> Any:
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


def load_graph(path: str | os.PathLike[str]) -> FactGraph:
    """Load a FactGraph from a JSON file holding a FactGraph or an Evaluation (its graph)."""
    data = _read_json(path)
    if isinstance(data, dict) and "graph" in data and "method" in data:
        return parse_model(Evaluation, data, path).graph
    return parse_model(FactGraph, data, path)


def load_graph_table(path: str | os.PathLike[str]) -> GraphTable:
    """The array form of the graph in a FactGraph or Evaluation JSON file, read fast.

    Accepts and refuses exactly what :func:`load_graph` does, with the same errors: the
    msgspec reader (``factgraph.graph.file``) handles files it can vouch for, and anything
    else goes through :func:`load_graph` (see ``benchmarks/io_scale.py`` for the speed).
    """
    from factgraph.graph import GraphTable
    from factgraph.graph.file import decode_table

    try:
        data = _read_bytes(path)
    except (OSError, EOFError, zlib.error):
        data = None  # load_graph names the problem
    table = decode_table(data) if data is not None else None
    del data
    return table if table is not None else GraphTable.from_graph(load_graph(path))


def _read_bytes(path: str | os.PathLike[str]) -> bytes:
    p = Path(path)
    if p.suffix == ".gz":
        with gzip.open(p, "rb") as f:
            return f.read()
    return p.read_bytes()


def is_jsonl(path: str | os.PathLike[str]) -> bool:
    """Whether a path names a JSON Lines file (``.jsonl`` or ``.jsonl.gz``)."""
    name = str(path)
    return name.endswith(".jsonl") or name.endswith(".jsonl.gz")


BARE_GRAPH_METHOD = "graph"


def is_bare_graph(obj: Any) -> bool:
    """Whether a parsed JSON object is a bare FactGraph (statements, no Evaluation around it)."""
    return isinstance(obj, dict) and "statements" in obj and "method" not in obj \
        and "graph" not in obj


def file_stem(path: str | os.PathLike[str]) -> str:
    """A file's name without its ``.json`` / ``.jsonl`` / ``.gz`` suffixes."""
    name = Path(path).name
    for suffix in (".gz", ".jsonl", ".json"):
        name = name.removesuffix(suffix)
    return name or "graph"


def graph_evaluation(graph: FactGraph, evaluation_id: str,
                     path: str | os.PathLike[str] | None = None) -> Evaluation:
    """A bare fact graph as an Evaluation: method ``"graph"`` (no method ran), the graph's
    query, and its comprehensiveness S computed by the graph engine (``None`` when the graph
    has no context statement), so every reader of Evaluations also reads bare graphs."""
    from factgraph.graph import SCORE_KEY, analyze

    return Evaluation(id=evaluation_id, method=BARE_GRAPH_METHOD, query=graph.query,
                      scores={SCORE_KEY: analyze(graph).score}, graph=graph,
                      metadata={"bare_graph": str(path)} if path is not None else {})


def _evaluation(obj: Any, path: str | os.PathLike[str], line: int | None) -> Evaluation:
    if is_bare_graph(obj):
        graph = parse_model(FactGraph, obj, path, line)
        stem = file_stem(path)
        return graph_evaluation(graph, stem if line is None else f"{stem}-{line}", path)
    return parse_model(Evaluation, obj, path, line)


def iter_evaluations(path: str | os.PathLike[str]) -> Iterator[Evaluation]:
    """Evaluations of a ``.jsonl`` batch one at a time (memory bounded by the longest line, not
    the file), or the one Evaluation of a ``.json`` file. Errors name the file and line.

    A bare fact graph (a ``.json`` file, or a line of a ``.jsonl``) is read as an Evaluation
    with its computed S (:func:`graph_evaluation`); its id is the file's name (``-LINE`` added
    for a line of a ``.jsonl``)."""
    if is_jsonl(path):
        for lineno, obj in iter_jsonl(path):
            yield _evaluation(obj, path, lineno)
    else:
        yield _evaluation(_read_json(path), path, None)


def check_evaluations(path: str | os.PathLike[str]) -> int:
    """Validate every Evaluation of a results file, one at a time; returns how many there are.

    A first pass for commands that must not start writing from a file that turns out bad
    halfway (``db push``), without holding the file in memory.
    """
    return sum(1 for _ in iter_evaluations(path))


def load_evaluations(path: str | os.PathLike[str]) -> list[Evaluation]:
    """Evaluations from a ``.jsonl`` batch or a single ``.json`` Evaluation."""
    return list(iter_evaluations(path))


def dump_json(model: BaseModel, indent: int | None = 2) -> str:
    """Deterministic JSON for a model (keys in field order, UTF-8 kept as text)."""
    return model.model_dump_json(indent=indent, exclude_none=False)


def write_json(path: str | os.PathLike[str], model: BaseModel) -> None:
    """Write atomically: a temp file in the same folder, then rename."""
    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp{os.getpid()}")
    tmp.write_text(dump_json(model) + "\n", encoding="utf-8")
    os.replace(tmp, p)


# Files shipped with factgraph: the cypher/ query library and the viz/ templates. In the
# repository they live at the top level (``cypher/``, ``viz/``); in an installed wheel they are
# packaged as ``factgraph/_cypher`` and ``factgraph/_viz`` (see pyproject.toml).
_PACKAGE_DIR = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The folder of a shipped resource set: ``"cypher"`` or ``"viz"``."""
    if name not in {"cypher", "viz"}:
        raise ValueError(f"unknown resource set {name!r}")
    packaged = _PACKAGE_DIR / f"_{name}"
    if packaged.is_dir():
        return packaged
    in_repo = _PACKAGE_DIR.parent / name
    if in_repo.is_dir():
        return in_repo
    raise FileNotFoundError(f"factgraph resource folder {name!r} is missing from this install")


def resource_path(name: str, *parts: str) -> Path:
    """A file inside a resource set, e.g. ``resource_path("cypher", "queries", "x.cypher")``."""
    return resource_dir(name).joinpath(*parts)
