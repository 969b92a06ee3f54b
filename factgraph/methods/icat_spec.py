"""``--method icat-m / icat-s / icat-a``, declared: each variant's options and spec. The run
code (:mod:`factgraph.methods.icat`) is imported on the first run, not to read the options."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from factgraph.methods.registry import MethodSpec
from factgraph.plugins import lazy_callable


class ICATShared(BaseModel):
    """The options every ICAT variant takes (defaults follow Samarinas et al. 2025, §4)."""

    model_config = ConfigDict(extra="forbid")

    corpus: str | None = Field(None, description="Corpus: JSONL of {id, text, title?}, a .txt "
                                                 "file or a folder of .txt files (default: the "
                                                 "input's documents).",
                               json_schema_extra={"flag": "icat-corpus"})
    beta: float = Field(1.0, gt=0, description="β of ICAT_β (> 1 weighs coverage more).",
                        json_schema_extra={"flag": "icat-beta"})
    top_k: int = Field(10, ge=1, description="Passages retrieved per claim.")
    retriever: Literal["bm25", "dense"] = Field("bm25", description="bm25, or dense (needs an "
                                                                    "embedding model).")
    index_dir: str | None = Field(None, description="Keep indexes here and reuse them (keyed "
                                                    "by corpus content, chunking and model).")
    topic: str | None = Field(None, description="Topic id selecting aspects / qrels (default: "
                                                "the input's metadata.topic).")


class ICATAOptions(ICATShared):
    """Options of ICAT-A: the model writes the aspects."""

    max_aspects: int = Field(10, ge=1, description="ICAT-A: at most this many aspects.")


class ICATSOptions(ICATShared):
    """Options of ICAT-S: ground-truth aspects, aligned by the model."""

    aspects: str | None = Field(None, description="Aspects file (JSON/JSONL list, or TREC Web "
                                                  "topics); ICAT-M and ICAT-S.")


class ICATMOptions(ICATSOptions):
    """Options of ICAT-M: ground-truth aspects, aligned by aspect-level qrels."""

    qrels: str | None = Field(None, description="Aspect-level qrels 'TOPIC SUBTOPIC DOCID REL' "
                                                "(ICAT-M).")


class ICATOptions(ICATMOptions, ICATAOptions):
    """Every ICAT variant's options in one model: what :func:`run_icat` reads (a variant's
    own model leaves the others' options at their defaults). Each method takes only its
    variant's model, so ``--method icat-m --max-aspects 3`` is refused."""


_ICAT = "ICAT (Samarinas et al. 2025): factuality of the response's claims against a corpus, "
ICAT_M = MethodSpec(name="icat-m", options=ICATMOptions, main_score="icat",
                    run=lazy_callable("factgraph.methods.icat:run_icat_m"),
                    description=_ICAT + "coverage of ground-truth aspects by qrels.")
ICAT_S = MethodSpec(name="icat-s", options=ICATSOptions, main_score="icat",
                    run=lazy_callable("factgraph.methods.icat:run_icat_s"),
                    description=_ICAT + "coverage of ground-truth aspects by the model.")
ICAT_A = MethodSpec(name="icat-a", options=ICATAOptions, main_score="icat",
                    run=lazy_callable("factgraph.methods.icat:run_icat_a"),
                    description=_ICAT + "coverage of generated aspects.")
