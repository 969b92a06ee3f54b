"""``--method nli``, declared: its options and its spec. The run code
(:mod:`factgraph.methods.nli`) is imported on the first run, not to read the options."""

from __future__ import annotations

from pydantic import Field

from factgraph.methods.options import RelevanceOptions, SummarizeOptions
from factgraph.methods.registry import EmbeddingNeed, MethodSpec
from factgraph.plugins import lazy_callable


class NLIOptions(RelevanceOptions, SummarizeOptions):
    """Options of ``--method nli`` (defaults follow Dejl et al. 2025, §4)."""

    revise: bool = Field(True, description="NLI: revise atoms (resolve references, split).")
    relevance_filter: bool = Field(True, description="NLI: drop context atoms with r < T_rel.")
    prune_top_k: int | None = Field(None, description="NLI lever: judge only the k most similar "
                                                      "premises of each hypothesis.")
    prune_min_similarity: float | None = Field(
        None, description="NLI lever: judge only pairs with cosine similarity ≥ this.")
    skip_implied: bool = Field(False, description="NLI lever: skip pairs a judged path implies.")
    skip_inert: bool = Field(False, description="NLI lever: judge a context→response pair only "
                                                "when the response atom reaches the context "
                                                "atom (coverage unchanged).")
    nli_cutoff: float | None = Field(
        None, ge=0.0, le=1.0, description="NLI: a pair entails when P(entails) ≥ this (tuned "
                                          "on dev); None: when entailment is the most "
                                          "probable label.")

    def embeddings_needed(self) -> EmbeddingNeed:
        """The pruning levers rank premises by embedding similarity."""
        pruned = self.prune_top_k is not None or self.prune_min_similarity is not None
        return "now" if pruned else "none"


NLI = MethodSpec(name="nli", options=NLIOptions, meta_evaluable=True,
                 run=lazy_callable("factgraph.methods.nli:run_nli"),
                 description="Atoms, relevance filter, NLI pairs (Dejl et al. 2025, §3.1).")
