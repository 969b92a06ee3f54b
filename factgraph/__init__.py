"""factgraph: fact graphs that explain why a long-form answer is incomplete or wrong.

The graph vocabulary and engine are imported here; the evaluation API (``evaluate``,
``evaluate_many``, ``evaluator``, ``load_results``, ``to_frame``, ``to_pyvis``, the typed
``EvaluationConfig``) is loaded on first use, so ``import factgraph`` pulls in no model
engine, pandas, pyvis or Ray.

A fact graph and what the graph engine reads off it: the response entails c1, c1 entails c2,
c3 and c4 are equivalent and uncovered, c5 is entailed by c3 (so only c3/c4 are in the
uncovered basis: adding them would cover c5 too).

>>> from factgraph import FactGraph, Relation, Statement, analyze
>>> graph = FactGraph(query="Who was Mara Voss?", statements=[
...     Statement(id="r1", text="Mara Voss, born in Bergen in 1871.", origin="response"),
...     Statement(id="c1", text="Mara Voss was born in Bergen in 1871.", origin="context"),
...     Statement(id="c2", text="Mara Voss was born in Bergen.", origin="context"),
...     Statement(id="c3", text="She studied in Paris.", origin="context"),
...     Statement(id="c4", text="Paris is where she studied.", origin="context"),
...     Statement(id="c5", text="She studied abroad.", origin="context")],
...     relations=[Relation(src="r1", dst="c1", label="entails"),
...                Relation(src="c1", dst="c2", label="entails"),
...                Relation(src="c3", dst="c4", label="entails"),
...                Relation(src="c4", dst="c3", label="entails"),
...                Relation(src="c3", dst="c5", label="entails")])
>>> coverage = analyze(graph)
>>> coverage.score  # 2 covered of 4 context components
0.5
>>> coverage.explain("c2")  # the entailment path from the response
['r1', 'c1', 'c2']
>>> [c.members for c in coverage.basis()]
[('c3', 'c4')]
>>> [c.members for c in coverage.uncovered()]
[('c3', 'c4'), ('c5',)]
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from factgraph.graph import Component, Coverage, analyze, comprehensiveness_score
from factgraph.models import (
    Evaluation,
    FactGraph,
    Origin,
    Relation,
    RelationLabel,
    Statement,
    StatementKind,
    Trace,
    Verdict,
)
from factgraph.models import register_display as _register_display

if TYPE_CHECKING:
    from factgraph.api import evaluate, evaluate_many, evaluator, load_results
    from factgraph.config import ConfigError, EvaluationConfig
    from factgraph.export.frames import to_frame
    from factgraph.inputs import Document, EvaluationInput
    from factgraph.methods.run import Backends, Evaluator
    from factgraph.viz.pyvis_graph import to_pyvis

__version__ = "0.1.0"

# name -> module that defines it (imported on first attribute access)
_LAZY: dict[str, str] = {
    "evaluate": "factgraph.api",
    "evaluate_many": "factgraph.api",
    "evaluator": "factgraph.api",
    "load_results": "factgraph.api",
    "EvaluationConfig": "factgraph.config",
    "ConfigError": "factgraph.config",
    "to_frame": "factgraph.export.frames",
    "Document": "factgraph.inputs",
    "EvaluationInput": "factgraph.inputs",
    "Backends": "factgraph.methods.run",
    "Evaluator": "factgraph.methods.run",
    "to_pyvis": "factgraph.viz.pyvis_graph",
}


def _notebook_html(obj: Evaluation | FactGraph) -> str:
    """``_repr_html_`` of a graph or an evaluation: the view in an iframe (loads viz)."""
    from factgraph.viz.notebook import iframe

    return iframe(obj)


def _pyvis(obj: Evaluation | FactGraph, **kwargs: Any) -> Any:
    """``.to_pyvis()`` of a graph or an evaluation (loads viz and pyvis)."""
    from factgraph.viz.pyvis_graph import to_pyvis

    return to_pyvis(obj, **kwargs)


# The vocabulary (models) never imports viz; its display methods call these.
_register_display("html", _notebook_html)
_register_display("pyvis", _pyvis)


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'factgraph' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Backends",
    "Component",
    "ConfigError",
    "Coverage",
    "Document",
    "Evaluation",
    "EvaluationConfig",
    "EvaluationInput",
    "Evaluator",
    "FactGraph",
    "Origin",
    "Relation",
    "RelationLabel",
    "Statement",
    "StatementKind",
    "Trace",
    "Verdict",
    "__version__",
    "analyze",
    "comprehensiveness_score",
    "evaluate",
    "evaluate_many",
    "evaluator",
    "load_results",
    "to_frame",
    "to_pyvis",
]
