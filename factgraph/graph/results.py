"""Graph and results files: a FactGraph or an Evaluation as one JSON document (``.json``), a
batch of Evaluations as JSON Lines (``.jsonl``), optionally gzip-compressed (``.gz``).

They live beside the graph engine because reading them ends in a graph: a bare FactGraph is
read as an Evaluation with its comprehensiveness computed here (:func:`graph_evaluation`), and
:func:`load_graph_table` hands the fast reader's array form (``graph/file.py``) straight to
the engine. The text underneath (gzip, JSON, line-numbered errors) is ``factgraph.io``'s.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from factgraph.errors import parse_model
from factgraph.graph import SCORE_KEY, GraphTable, analyze
from factgraph.io import is_jsonl, iter_jsonl, read_bytes, read_json
from factgraph.models import Evaluation, FactGraph


def load_graph(path: str | os.PathLike[str]) -> FactGraph:
    """Load a FactGraph from a JSON file holding a FactGraph or an Evaluation (its graph)."""
    data = read_json(path)
    if isinstance(data, dict) and "graph" in data and "method" in data:
        return parse_model(Evaluation, data, path).graph
    return parse_model(FactGraph, data, path)


def load_graph_table(path: str | os.PathLike[str]) -> GraphTable:
    """The array form of the graph in a FactGraph or Evaluation JSON file, read fast.

    Accepts and refuses exactly what :func:`load_graph` does, with the same errors: the
    msgspec reader (``graph/file.py``) handles files it can vouch for, and anything
    else goes through :func:`load_graph` (see ``benchmarks/io_scale.py`` for the speed).
    """
    from factgraph.graph.file import decode_table  # msgspec, only for the readers that need it

    try:
        data = read_bytes(path)
    except (OSError, EOFError, zlib.error):
        data = None  # load_graph names the problem
    table = decode_table(data) if data is not None else None
    del data
    return table if table is not None else GraphTable.from_graph(load_graph(path))


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
        yield _evaluation(read_json(path), path, None)


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
