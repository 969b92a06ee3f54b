"""Claim grounding (Samarinas et al. 2025, §3.2, §4.3): retrieve the top-k passages of each claim
from the corpus index, judge every (passage, claim) pair with the NLI judge, and call a claim
supported when at least one retrieved passage entails it.

All claims are retrieved in one search call and judged in one batch. A pair whose judgement
failed is recorded by the session and never counts as support; a claim none of whose pairs
could be judged is marked ``unjudged`` (and counted), never silently "unsupported".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from factgraph.backends.base import NLIResult
from factgraph.retrieval.index_store import RetrievalIndex
from factgraph.retrieval.types import Hit
from factgraph.stages.session import ModelSession


@dataclass
class Judged:
    """One retrieved passage of a claim and the NLI judgement of passage ⇒ claim."""

    hit: Hit
    result: NLIResult


@dataclass
class ClaimGrounding:
    """Everything retrieval and NLI found for one claim, in retrieval rank order."""

    claim_id: str
    judged: list[Judged] = field(default_factory=list)

    @property
    def entailing(self) -> list[int]:
        """Passage indices that entail the claim, best-ranked first."""
        return [j.hit.passage for j in self.judged
                if j.result.source != "failed" and j.result.label == "entails"]

    @property
    def contradicting(self) -> list[int]:
        return [j.hit.passage for j in self.judged
                if j.result.source != "failed" and j.result.label == "contradicts"]

    @property
    def supported(self) -> bool:
        return bool(self.entailing)

    @property
    def unjudged(self) -> bool:
        """Passages were retrieved but no judgement of them could be read."""
        return bool(self.judged) and all(j.result.source == "failed" for j in self.judged)

    @property
    def status(self) -> str:
        if self.supported:
            return "supported"
        if self.unjudged:
            return "unjudged"
        return "contradicted" if self.contradicting else "unsupported"


def ground_claims(session: ModelSession, index: RetrievalIndex, claims: Mapping[str, str],
                  top_k: int = 10, stage: str = "grounding") -> dict[str, ClaimGrounding]:
    """Grounding of each claim (keyed like ``claims``)."""
    ids = list(claims)
    hits = index.search([claims[i] for i in ids], top_k)
    session.count(f"{stage}.retrieved", sum(len(h) for h in hits))
    todo: list[tuple[str, Hit]] = [(cid, h) for cid, hs in zip(ids, hits, strict=True)
                                   for h in hs]
    cap = session.limits.max_pairs
    if len(todo) > cap:
        session.hit_limit(f"max_pairs={cap}: grounding judged {cap} of {len(todo)} "
                          "(passage, claim) pairs")
        todo = todo[:cap]
    pairs = [(index.passages[h.passage].premise, claims[cid]) for cid, h in todo]
    results = session.judge(stage, pairs)
    out = {cid: ClaimGrounding(cid) for cid in ids}
    for (cid, h), r in zip(todo, results, strict=True):
        out[cid].judged.append(Judged(h, r))
    for g in out.values():
        session.count(f"{stage}.{g.status}")
    return out
