"""Idempotent, batched, parameterised writes of Evaluations into a graph store.

Every write is ``UNWIND $rows AS row MERGE ...`` on stable ids (see records.py), so re-pushing
the same results leaves node and relationship counts unchanged. Batches are bounded by row
count *and* by the JSON size of their parameters (FalkorDB's Bolt endpoint fails on requests
over ~4 KiB; big batches also hurt any server's memory).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import BaseModel

from factgraph.models import Evaluation
from factgraph.resources import resource_path
from factgraph.store.base import GraphStore
from factgraph.store.records import evaluation_rows

# One statement per step; the only inputs are $rows. Labels and types are fixed here.
STEPS: list[tuple[str, str]] = [
    ("queries", "UNWIND $rows AS row MERGE (q:Query {id: row.id}) SET q.text = row.text"),
    ("documents",
     "UNWIND $rows AS row MATCH (q:Query {id: row.query_id}) "
     "MERGE (d:Document {id: row.id}) SET d.source_id = row.source_id, d.query_id = row.query_id "
     "MERGE (q)-[:HAS_DOCUMENT]->(d)"),
    ("responses",
     "UNWIND $rows AS row MATCH (q:Query {id: row.query_id}) "
     "MERGE (r:Response {id: row.id}) SET r.model = row.model, r.query_id = row.query_id, "
     "r.response_id = row.response_id MERGE (q)-[:HAS_RESPONSE]->(r)"),
    ("evaluations",
     "UNWIND $rows AS row MATCH (r:Response {id: row.response}) "
     "MERGE (e:Evaluation {id: row.id}) SET e += row.props MERGE (e)-[:EVALUATES]->(r)"),
    ("context_statements",
     "UNWIND $rows AS row MATCH (d:Document {id: row.document}) "
     "MERGE (s:Statement {id: row.id}) SET s += row.props, s.query_id = row.query_id "
     "MERGE (d)-[:STATES]->(s)"),
    ("response_statements",
     "UNWIND $rows AS row MATCH (r:Response {id: row.response}) "
     "MERGE (s:Statement {id: row.id}) SET s += row.props, s.query_id = row.query_id, "
     "s.local_id = row.local_id MERGE (r)-[:STATES]->(s)"),
    ("entails",
     "UNWIND $rows AS row MATCH (a:Statement {id: row.src}), (b:Statement {id: row.dst}) "
     "MERGE (a)-[x:ENTAILS]->(b) SET x.probability = row.probability, x.method = row.method"),
    ("contradicts",
     "UNWIND $rows AS row MATCH (a:Statement {id: row.src}), (b:Statement {id: row.dst}) "
     "MERGE (a)-[x:CONTRADICTS]->(b) SET x.probability = row.probability, x.method = row.method"),
    ("covers",
     "UNWIND $rows AS row MATCH (r:Response {id: row.response}), (s:Statement {id: row.statement}) "
     "MERGE (r)-[x:COVERS]->(s) SET x.evaluation = row.evaluation, x.path = row.path"),
    ("misses",
     "UNWIND $rows AS row MATCH (r:Response {id: row.response}), (s:Statement {id: row.statement}) "
     "MERGE (r)-[x:MISSES]->(s) SET x.evaluation = row.evaluation, x.basis = row.basis"),
]


class PushSummary(BaseModel):
    evaluations: int = 0
    batches: int = 0
    rows: int = 0


def batches(
    rows: list[dict[str, Any]], max_rows: int, max_bytes: int
) -> Iterator[list[dict[str, Any]]]:
    """Split rows into batches of at most ``max_rows`` rows and about ``max_bytes`` of JSON.

    A single row larger than ``max_bytes`` goes alone in its batch.
    """
    batch: list[dict[str, Any]] = []
    size = 0
    for row in rows:
        n = len(json.dumps(row, ensure_ascii=False).encode("utf-8"))
        if batch and (len(batch) >= max_rows or size + n > max_bytes):
            yield batch
            batch, size = [], 0
        batch.append(row)
        size += n
    if batch:
        yield batch


def ensure_schema(store: GraphStore) -> None:
    """Create the indexes of the store's dialect (cypher/schema/<backend>.cypher); idempotent."""
    text = resource_path("cypher", "schema", f"{store.backend}.cypher").read_text()
    for stmt in (s.strip() for s in text.split(";")):
        lines = [ln for ln in stmt.splitlines() if not ln.strip().startswith("//")]
        stmt = "\n".join(lines).strip()
        if not stmt:
            continue
        try:
            store.run(stmt, write=True)
        except Exception as e:  # an existing index is not an error (FalkorDB has no IF NOT EXISTS)
            if "already" not in str(e).lower():
                raise


def push_evaluations(
    store: GraphStore,
    evaluations: Iterable[Evaluation],
    max_rows: int = 500,
    max_bytes: int = 1_000_000,
) -> PushSummary:
    """Write evaluations (all steps of one evaluation before the next); returns counts."""
    summary = PushSummary()
    for ev in evaluations:
        rows = evaluation_rows(ev)
        for step, cypher in STEPS:
            for batch in batches(rows[step], max_rows, max_bytes):
                store.run(cypher, {"rows": batch}, write=True)
                summary.batches += 1
                summary.rows += len(batch)
        summary.evaluations += 1
    return summary
