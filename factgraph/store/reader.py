"""Reading Evaluations back out of a graph store."""

from __future__ import annotations

from factgraph.models import Evaluation
from factgraph.store.base import GraphStore


def load_evaluation(store: GraphStore, evaluation_id: str) -> Evaluation | None:
    """The Evaluation pushed under this id, or None. Equal to the pushed one (round trip)."""
    rows = store.run("MATCH (e:Evaluation {id: $id}) RETURN e.json AS json", {"id": evaluation_id})
    if not rows:
        return None
    return Evaluation.model_validate_json(rows[0]["json"])


def list_evaluation_ids(store: GraphStore) -> list[str]:
    rows = store.run("MATCH (e:Evaluation) RETURN e.id AS id ORDER BY id")
    return [r["id"] for r in rows]
