"""factgraph: fact graphs that explain why a long-form answer is incomplete or wrong."""

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

__version__ = "0.1.0"

__all__ = [
    "Component",
    "Coverage",
    "Evaluation",
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
]
