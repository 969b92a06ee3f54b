"""``--method prf``, declared: its options and its spec. The run code
(:mod:`factgraph.methods.precision_recall`) is imported on the first run, not to read the
options."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from factgraph.methods.registry import MethodSpec
from factgraph.plugins import lazy_callable


class PRFOptions(BaseModel):
    """Options of ``--method prf`` (defaults: α = β = 0.5, so importance ∈ [0, 1])."""

    model_config = ConfigDict(extra="forbid")

    evidence: str | None = Field(None, description="Evidence documents JSON/JSONL {id, text}; "
                                                   "default: the input's documents.")
    corpus: str | None = Field(None, description="Corpus (JSONL / folder of .txt) to retrieve "
                                                 "evidence passages from with BM25.",
                               json_schema_extra={"flag": "prf-corpus"})
    retrieve_k: int = Field(10, gt=0, description="Passages retrieved from --prf-corpus.")
    alpha: float = Field(0.5, ge=0.0, description="Weight α of relevance in importance.")
    beta: float = Field(0.5, ge=0.0, description="Weight β of salience in importance.",
                        json_schema_extra={"flag": "prf-beta"})
    k: int | None = Field(None, gt=0, description="Budget K of F*(q): the K most important.")
    importance_threshold: float | None = Field(
        None, description="Keep facts with importance ≥ this in F*(q).")
    dedup_threshold: float = Field(0.15, ge=0.0, le=2.0,
                                   description="Cosine distance below which facts merge.")


PRF = MethodSpec(name="prf", options=PRFOptions, main_score="f1",
                 run=lazy_callable("factgraph.methods.precision_recall:run_prf"),
                 description="Importance-weighted factual precision and recall (Jafari et al. "
                             "2026).")
