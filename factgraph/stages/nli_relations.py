"""NLI relations between atoms (Dejl et al. 2025, §3.1), with the cost levers of DESIGN.md.

Exhaustively the NLI method judges ``2·|R|·|C| + |C|·(|C|−1)`` ordered pairs: response→context,
context→response and context→context — never response→response (two response atoms entailing
each other cannot change coverage). Two switchable levers cut that number:

* **Embedding pruning** (``prune_top_k``, ``prune_min_similarity``): for each hypothesis only the
  premises among its ``k`` most cosine-similar candidates *and* at or above the similarity floor
  are judged. Entailment needs shared content, so dissimilar pairs are rarely edges; the edge
  recall this loses is measured in ``benchmarks/nli_pairs.py``.
* **Implied-pair skipping** (``skip_implied``): entailment is transitive, so a pair ``p→h`` is
  not judged when a path ``p ⇝ h`` of edges already judged exists. Pairs are judged in rounds
  ordered to make that likely: context→context first, then context→response from the most
  general premises up, then response→context from the most specific hypotheses down (waves of
  the context condensation's topological order). Skipped pairs never remove coverage: their
  hypothesis is reachable from their premise by construction.
* **Inert-pair skipping** (``skip_inert``): a context→response edge ``c→r`` never changes
  which statements are covered — coverage is reachability from the response, and whatever is
  reachable through ``c→r`` is reachable from ``r`` itself — and it can merge components only
  by closing a cycle, i.e. when ``r ⇝ c``. So response→context pairs are judged first, then a
  ``c→r`` pair only once ``r ⇝ c`` holds (repeated until no pair becomes live). Every
  context statement's covered / uncovered status is the exhaustive one (property-tested); the
  component count, hence S, can differ only where context statements are equivalent solely
  through two or more response atoms (``c1→r2→c2→r1→c1``). It saves about half the
  response-side pairs; ``benchmarks/nli_pairs.py`` reports the measured ``|ΔS|``.

A pair becomes a relation when its most probable label is entailment or contradiction;
``probability`` is that label's probability. Neutral pairs are counted, not stored. With an
entailment cut-off (``PairPolicy.entail_cutoff``, the NLI method's ``nli_cutoff``, tuned on the
WikiContradict dev split) a pair entails exactly when ``P(entails) ≥ cut-off``; otherwise it
contradicts when contradiction is more probable than neutral (``decide_label``).
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import networkx as nx
import numpy as np

from factgraph.backends.base import NLIResult
from factgraph.errors import UserInputError
from factgraph.models import Relation, RelationLabel
from factgraph.stages.session import ModelSession

Pair = tuple[str, str]


@dataclass(frozen=True)
class PairPolicy:
    """Which pairs to judge; all levers off = exhaustive."""

    prune_top_k: int | None = None
    prune_min_similarity: float | None = None
    skip_implied: bool = False
    skip_inert: bool = False
    entail_cutoff: float | None = None

    @property
    def prunes(self) -> bool:
        return self.prune_top_k is not None or self.prune_min_similarity is not None


@dataclass
class PairStats:
    candidates: int = 0
    pruned: int = 0
    skipped_implied: int = 0
    skipped_inert: int = 0
    judged: int = 0
    capped: int = 0
    by_label: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def decide_label(result: NLIResult, entail_cutoff: float | None = None
                 ) -> Literal["entails", "neutral", "contradicts"]:
    """The relation a judged pair becomes: the most probable label, or with ``entail_cutoff``
    ``entails`` iff ``P(entails) ≥ entail_cutoff``, else the more probable of contradicts and
    neutral."""
    if entail_cutoff is None:
        return result.label
    if result.entailment >= entail_cutoff:
        return "entails"
    return "contradicts" if result.contradiction > result.neutral else "neutral"


def exhaustive_pairs(response: Sequence[str], context: Sequence[str],
                     include_context_pairs: bool = True) -> list[Pair]:
    """All ordered pairs the NLI method may judge: r→c, c→r and (optionally) c→c."""
    pairs = [(r, c) for r in response for c in context]
    pairs += [(c, r) for c in context for r in response]
    if include_context_pairs:
        pairs += [(a, b) for a in context for b in context if a != b]
    return pairs


def prune_pairs(pairs: Sequence[Pair], vectors: Mapping[str, np.ndarray],
                top_k: int | None, min_similarity: float | None) -> list[Pair]:
    """Keep ``(p, h)`` when ``p`` is among the ``top_k`` candidate premises of ``h`` most similar
    to it (cosine; ties by id) and ``cos(p, h) ≥ min_similarity`` (each test only when set)."""
    by_hyp: dict[str, list[str]] = defaultdict(list)
    for p, h in pairs:
        by_hyp[h].append(p)
    keep: set[Pair] = set()
    for h, premises in by_hyp.items():
        sims = {p: float(np.dot(vectors[p], vectors[h])) for p in premises}
        ranked = sorted(premises, key=lambda p: (-sims[p], p))
        if top_k is not None:
            ranked = ranked[:top_k]
        for p in ranked:
            if min_similarity is None or sims[p] >= min_similarity:
                keep.add((p, h))
    return [pair for pair in pairs if pair in keep]


def _reachable(adj: Mapping[str, set[str]], src: str, dst: str) -> bool:
    if src == dst:
        return True
    seen = {src}
    queue = deque([src])
    while queue:
        for nxt in adj.get(queue.popleft(), ()):
            if nxt == dst:
                return True
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return False


def _context_depth(context: Sequence[str], adj: Mapping[str, set[str]]) -> dict[str, int]:
    """Depth of each context atom in the condensation of the context→context entailments
    (0 = nothing entails it: the most specific statements)."""
    g = nx.DiGraph()
    g.add_nodes_from(context)
    g.add_edges_from((a, b) for a in context for b in adj.get(a, ()) if b in g)
    cond = nx.condensation(g)
    depth: dict[str, int] = {}
    for level, comps in enumerate(nx.topological_generations(cond)):
        for comp in comps:
            for member in cond.nodes[comp]["members"]:
                depth[member] = level
    return depth


def judge_pairs(
    session: ModelSession, texts: Mapping[str, str], response: Sequence[str],
    context: Sequence[str], policy: PairPolicy, *, known: Sequence[Relation] = (),
    include_context_pairs: bool = True, stage: str = "nli",
) -> tuple[list[Relation], PairStats]:
    """Judge the pairs ``policy`` selects; returns the non-neutral relations and the counts.

    ``known`` relations (e.g. reused context→context edges) seed the implied-pair test and are
    not returned again.
    """
    stats = PairStats()
    pairs = exhaustive_pairs(response, context, include_context_pairs)
    stats.candidates = len(pairs)
    if policy.prunes and pairs:
        if session.embeddings is None:
            raise UserInputError("embedding pruning needs an embedding model (--embed-model)")
        ids = list(dict.fromkeys([*response, *context]))
        matrix = np.asarray(session.embeddings.embed([texts[i] for i in ids]), dtype=np.float32)
        session.count("embed.texts", len(ids))
        vectors = dict(zip(ids, matrix, strict=True))
        kept = prune_pairs(pairs, vectors, policy.prune_top_k, policy.prune_min_similarity)
        stats.pruned = len(pairs) - len(kept)
        pairs = kept
    cap = session.limits.max_pairs
    if len(pairs) > cap:
        session.hit_limit(f"max_pairs={cap}: {len(pairs)} candidate pairs, judged the first {cap}")
        stats.capped = len(pairs) - cap
        pairs = pairs[:cap]

    adj: dict[str, set[str]] = defaultdict(set)
    for r in known:
        if r.label == RelationLabel.entails:
            adj[r.src].add(r.dst)
    resp, ctx = set(response), set(context)
    rounds: list[list[Pair]]
    ordered = policy.skip_implied or policy.skip_inert
    if ordered:
        cc = [(p, h) for p, h in pairs if p in ctx and h in ctx]
        rounds = [cc]
    else:
        rounds = [list(pairs)]  # one batch: nothing to learn from earlier rounds
    relations: list[Relation] = []

    def run_round(batch: list[Pair]) -> None:
        if policy.skip_implied:
            todo = [pair for pair in batch if not _reachable(adj, *pair)]
            stats.skipped_implied += len(batch) - len(todo)
        else:
            todo = batch
        results = session.judge(stage, [(texts[p], texts[h]) for p, h in todo])
        stats.judged += len(todo)
        for (p, h), res in zip(todo, results, strict=True):
            if res.source == "failed":
                stats.by_label["failed"] += 1
                continue
            label = decide_label(res, policy.entail_cutoff)
            stats.by_label[label] += 1
            if label == "neutral":
                continue
            if label == "entails":
                adj[p].add(h)
            relations.append(Relation(
                src=p, dst=h, label=RelationLabel(label),
                probability=round(res.entailment if label == "entails" else res.contradiction, 6),
                method=f"{getattr(session.nli, 'engine', 'nli')}",
                trace_id=res.trace.id if res.trace else None,
            ))

    for batch in rounds:
        run_round(batch)
    if not ordered:
        return relations, stats
    depth = _context_depth(context, adj) if policy.skip_implied else {c: 0 for c in context}
    deepest = max(depth.values(), default=0)
    cr = [(p, h) for p, h in pairs if p in ctx and h in resp]
    rc = [(p, h) for p, h in pairs if p in resp and h in ctx]

    def context_to_response() -> None:
        # General premises (deep) first, so specific ones become implied.
        for level in range(deepest, -1, -1):
            batch = [(p, h) for p, h in cr if depth.get(p, 0) == level]
            if not policy.skip_inert:
                run_round(batch)
                continue
            # Judge the live pairs (r ⇝ c); edges they add can make others live: repeat.
            while batch:
                live = [(c, r) for c, r in batch if _reachable(adj, r, c)]
                if not live:
                    break
                run_round(live)
                batch = [pair for pair in batch if pair not in set(live)]
            stats.skipped_inert += len(batch)

    def response_to_context() -> None:
        # Specific hypotheses (shallow) first, so general ones become implied.
        for level in range(deepest + 1):
            run_round([(p, h) for p, h in rc if depth.get(h, 0) == level])

    if policy.skip_inert:  # r ⇝ c must be known before deciding on c→r
        response_to_context()
        context_to_response()
    else:
        context_to_response()
        response_to_context()
    return relations, stats
