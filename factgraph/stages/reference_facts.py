"""Reference fact set F(q) from evidence passages (Jafari et al. 2026, §3.2.2).

Facts are extracted per passage (``atomize`` with the ``facts`` prompt, stage ``facts``), merged,
and de-duplicated in two steps:

1. exact duplicates (same text up to case and spacing) are merged without any model;
2. near duplicates are merged by agglomerative clustering of the facts' embeddings
   (``scipy.cluster.hierarchy``, average linkage, cosine distance): facts whose clusters are
   closer than ``threshold`` (cosine distance ``1 − cos``) end in one cluster.

The canonical fact of a cluster is its **medoid** — the member with the highest mean cosine
similarity to the other members — ties going to the member extracted first (passage order,
then position in the passage). Clusters are ordered by their first-extracted member, so the
output is deterministic. Without an embedding model only step 1 runs (recorded).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray
from scipy.cluster.hierarchy import fcluster, linkage

from factgraph.stages.atomize import atomize
from factgraph.stages.session import ModelSession

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ExtractedFact:
    text: str
    passage: str  # the passage id it came from
    trace_id: str | None = None


@dataclass
class FactCluster:
    """One reference fact: the canonical member and every member it stands for."""

    canonical: ExtractedFact
    members: list[ExtractedFact] = field(default_factory=list)

    @property
    def sources(self) -> list[str]:
        return list(dict.fromkeys(m.passage for m in self.members))


def extract_facts(session: ModelSession,
                  passages: Mapping[str, str]) -> tuple[list[ExtractedFact], list[str]]:
    """Facts of every passage, in passage order, and the ids of unreadable passages."""
    replies = atomize(session, passages, stage="facts", prompt="facts")
    facts: list[ExtractedFact] = []
    failed: list[str] = []
    for pid, items in replies.items():
        if items is None:
            failed.append(pid)
            session.count("facts.unreadable_passages")
            log.warning("evidence passage %s gave no readable facts", pid)
            continue
        trace = session.trace_for("facts", pid)
        facts += [ExtractedFact(text=t, passage=pid, trace_id=trace) for t in items]
    return facts, failed


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold().rstrip(".")


def cluster_vectors(vectors: NDArray[np.float64], threshold: float) -> list[list[int]]:
    """Agglomerative clusters (average linkage, cosine distance, cut at ``threshold``) as lists
    of row indices, each sorted, clusters ordered by their first row."""
    n = len(vectors)
    if n == 0:
        return []
    if n == 1:
        return [[0]]
    if threshold < 0:
        raise ValueError("threshold must be a non-negative cosine distance")
    z = linkage(np.asarray(vectors, dtype=np.float64), method="average", metric="cosine")
    labels = fcluster(z, t=threshold, criterion="distance")
    groups: dict[int, list[int]] = {}
    for i, lab in enumerate(labels.tolist()):
        groups.setdefault(lab, []).append(i)
    return sorted(groups.values(), key=lambda g: g[0])


def medoid(vectors: NDArray[np.float64], members: Sequence[int]) -> int:
    """The member with the highest mean cosine similarity to the others (first on ties)."""
    if len(members) <= 2:
        return members[0]
    v = np.asarray(vectors, dtype=np.float64)[list(members)]
    v = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    sim = v @ v.T
    score = (sim.sum(axis=1) - np.diag(sim)) / (len(members) - 1)
    best = int(np.flatnonzero(np.isclose(score, score.max(), rtol=0, atol=1e-9))[0])
    return members[best]


def deduplicate(session: ModelSession, facts: Sequence[ExtractedFact],
                threshold: float) -> list[FactCluster]:
    """Exact, then near-duplicate merging (see the module docstring)."""
    exact: dict[str, FactCluster] = {}
    for f in facts:
        key = _norm(f.text)
        if key in exact:
            exact[key].members.append(f)
        else:
            exact[key] = FactCluster(canonical=f, members=[f])
    unique = list(exact.values())
    session.count("facts.exact_duplicates", len(facts) - len(unique))
    if session.embeddings is None or len(unique) < 2:
        if session.embeddings is None and len(unique) >= 2:
            session.count("facts.near_duplicates_skipped")
            log.warning("no embedding model: near-duplicate facts are not merged")
        return unique
    vectors = np.asarray(session.embeddings.embed([c.canonical.text for c in unique]))
    out: list[FactCluster] = []
    for group in cluster_vectors(vectors, threshold):
        best = medoid(vectors, group)
        members = [m for i in group for m in unique[i].members]
        out.append(FactCluster(canonical=unique[best].canonical, members=members))
    session.count("facts.near_duplicates", len(unique) - len(out))
    return out
