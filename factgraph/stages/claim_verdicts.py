"""Precision and recall verdicts by NLI (Jafari et al. 2026, §3.4).

* Precision: every claim is judged against every evidence passage (premise = passage,
  hypothesis = claim). The verdict takes the strongest passage: SUPPORTED when some passage
  entails the claim (probability = the highest entailment), else CONTRADICTED when some passage
  contradicts it, else NOT SUPPORTED. A claim with no usable judgement is UNJUDGED (recorded,
  left out of the rates — never counted as unsupported).
* Recall: every reference fact is judged against every claim (premise = claim, hypothesis =
  fact). A fact is COVERED when some claim entails it; the covering claims are kept.

Pairs beyond ``limits.max_pairs`` are not judged (recorded with ``hit_limit``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from factgraph.backends.base import NLIResult
from factgraph.models import Relation, RelationLabel
from factgraph.stages.session import ModelSession

ClaimLabel = Literal["supported", "contradicted", "not_supported", "unjudged"]


@dataclass
class ClaimVerdict:
    label: ClaimLabel
    probability: float | None = None
    passages: list[str] = field(default_factory=list)  # passages that decided the label


def _judge(session: ModelSession, stage: str,
           pairs: list[tuple[str, str]], texts: Mapping[str, str]) -> list[NLIResult | None]:
    cap = session.limits.max_pairs
    judged = pairs
    if len(pairs) > cap:
        session.hit_limit(f"max_pairs={cap}: {stage} judged {cap} of {len(pairs)} pairs")
        judged = pairs[:cap]
    results: list[NLIResult | None] = list(
        session.judge(stage, [(texts[p], texts[h]) for p, h in judged]))
    return results + [None] * (len(pairs) - len(judged))


def _relation(src: str, dst: str, r: NLIResult) -> Relation | None:
    if r.source == "failed" or r.label == "neutral":
        return None  # neutral edges add nothing to coverage or verdicts
    label = RelationLabel.entails if r.label == "entails" else RelationLabel.contradicts
    prob = r.entailment if r.label == "entails" else r.contradiction
    return Relation(src=src, dst=dst, label=label, probability=round(prob, 6), method="nli",
                    trace_id=r.trace.id if r.trace else None)


def precision_verdicts(
    session: ModelSession, claims: Mapping[str, str], passages: Mapping[str, str],
) -> tuple[dict[str, ClaimVerdict], list[Relation]]:
    """A verdict per claim id, and passage → claim entails / contradicts relations."""
    pairs = [(p, c) for c in claims for p in passages]
    texts = {**claims, **passages}
    results = _judge(session, "prf.precision", pairs, texts)
    by_claim: dict[str, list[tuple[str, NLIResult]]] = {c: [] for c in claims}
    relations: list[Relation] = []
    for (p, c), r in zip(pairs, results, strict=True):
        if r is None or r.source == "failed":
            continue
        by_claim[c].append((p, r))
        rel = _relation(p, c, r)
        if rel is not None:
            relations.append(rel)
    verdicts: dict[str, ClaimVerdict] = {}
    for c, judged in by_claim.items():
        if not judged:
            verdicts[c] = ClaimVerdict("unjudged")
            continue
        ent = [(p, r) for p, r in judged if r.label == "entails"]
        con = [(p, r) for p, r in judged if r.label == "contradicts"]
        if ent:
            verdicts[c] = ClaimVerdict("supported", max(r.entailment for _, r in ent),
                                       [p for p, _ in ent])
        elif con:
            verdicts[c] = ClaimVerdict("contradicted", max(r.contradiction for _, r in con),
                                       [p for p, _ in con])
        else:
            verdicts[c] = ClaimVerdict("not_supported",
                                       max(r.neutral for _, r in judged), [])
    return verdicts, relations


def coverage(
    session: ModelSession, claims: Mapping[str, str], facts: Mapping[str, str],
) -> tuple[dict[str, list[str]], dict[str, bool], list[Relation]]:
    """Covering claim ids per fact id, whether each fact had any usable judgement, and the
    claim → fact relations."""
    pairs = [(c, f) for f in facts for c in claims]
    results = _judge(session, "prf.recall", pairs, {**claims, **facts})
    covering: dict[str, list[str]] = {f: [] for f in facts}
    judged: dict[str, bool] = {f: False for f in facts}
    relations: list[Relation] = []
    for (c, f), r in zip(pairs, results, strict=True):
        if r is None or r.source == "failed":
            continue
        judged[f] = True
        rel = _relation(c, f, r)
        if rel is not None:
            relations.append(rel)
            if rel.label is RelationLabel.entails:
                covering[f].append(c)
    return covering, judged, relations
