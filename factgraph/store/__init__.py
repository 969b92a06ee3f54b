"""The cross-response fact database: Evaluations in Neo4j or FalkorDB, queried in Cypher."""

from factgraph.store.base import GraphStore, ReadOnlyViolation, assert_read_only
from factgraph.store.reader import list_evaluation_ids, load_evaluation
from factgraph.store.records import context_statement_id, evaluation_rows, query_id
from factgraph.store.writer import PushSummary, ensure_schema, push_evaluations

__all__ = [
    "GraphStore",
    "PushSummary",
    "ReadOnlyViolation",
    "assert_read_only",
    "context_statement_id",
    "ensure_schema",
    "evaluation_rows",
    "list_evaluation_ids",
    "load_evaluation",
    "push_evaluations",
    "query_id",
]
