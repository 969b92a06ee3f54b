"""Reading the one graph a command works on, from any file that holds graphs.

``analyze``, ``basis``, ``explain`` and ``view`` read one fact graph: a graph or Evaluation
JSON, or one evaluation of a results JSONL (``--id``, or the only one there). Every one of them
says the same thing when a results file holds several.
"""

from __future__ import annotations

import click

from factgraph.cli.output import UserError
from factgraph.errors import parse_model
from factgraph.graph import GraphTable
from factgraph.graph.results import iter_evaluations, load_graph_table
from factgraph.io import is_jsonl, read_json
from factgraph.models import Evaluation, FactGraph

ID_OPTION = click.option("--id", "evaluation_id", default=None, metavar="ID",
                         help="Which evaluation of a results JSONL (needed when it holds more "
                              "than one).")
SHOWN_IDS = 5


def several_message(path: str, n: int, ids: list[str]) -> str:
    """The one message every reader of one graph gives for a file that holds ``n``."""
    shown = ", ".join(ids[:SHOWN_IDS]) + (", …" if n > SHOWN_IDS else "")
    return (f"{path} holds {n} evaluations: choose one with --id ({shown}), or read them all "
            "with factgraph report / export")


def pick_evaluation(path: str, evaluation_id: str | None) -> Evaluation:
    """The evaluation ``evaluation_id`` of a results JSONL (read one line at a time), or its
    only one when no id is given; a UserError names the choice otherwise."""
    found: Evaluation | None = None
    ids: list[str] = []
    n = 0
    for ev in iter_evaluations(path):
        n += 1
        if evaluation_id is not None and ev.id == evaluation_id:
            return ev
        if found is None:
            found = ev
        if len(ids) < SHOWN_IDS:
            ids.append(ev.id)
    if evaluation_id is not None:
        raise UserError(f"{path}: no evaluation with id {evaluation_id!r}")
    if found is None:
        raise UserError(f"{path}: no evaluations in the file")
    if n > 1:
        raise UserError(several_message(path, n, ids))
    return found


def load_one(path: str, evaluation_id: str | None) -> Evaluation | FactGraph:
    """The graph or Evaluation a one-graph command reads from ``path`` (see the module)."""
    if is_jsonl(path):
        return pick_evaluation(path, evaluation_id)
    data = read_json(path)
    if isinstance(data, dict) and "method" in data and "graph" in data:
        return parse_model(Evaluation, data, path)
    return parse_model(FactGraph, data, path)


def load_one_table(path: str, evaluation_id: str | None) -> GraphTable:
    """The array form of the graph a one-graph command reads: a JSON file through the fast
    reader (:func:`factgraph.graph.results.load_graph_table`), one evaluation of a JSONL as
    :func:`pick_evaluation` chooses it."""
    if is_jsonl(path):
        return GraphTable.from_graph(pick_evaluation(path, evaluation_id).graph)
    return load_graph_table(path)
