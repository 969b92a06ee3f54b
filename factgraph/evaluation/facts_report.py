"""A fact-level meta-evaluation: a judge's covered / missing / contradicted decision for each
given fact set against the people's present / not-present label, beside the reference points
of the same rows — the word share of the fact (no model) at a fixed cut-off and at its best
cut-off on these rows (optimistic), and the people's own agreement (the first annotator against
the second) — per fact and per summary (statistics: ``factgraph.evaluation.fact_agreement``).

Each row of a fact-labels file (``factgraph.datasets.fact_labels``) is evaluated as
``EvaluationInput(query=<row's query or "">, response=summary, facts=<its facts as given>)``.
The judge's verdict on a fact is read from the Evaluation's graph
(:func:`fact_verdicts`): **contradicted** when a ``contradicts`` relation joins the fact and a
response statement (``factgraph.graph.contradictions``), else **covered** when its component is
covered (``factgraph.graph.analyze``), else **missing**. A contradicted fact counts as not
present, and its count and the share of them the people label not present are reported on
their own. A fact the Evaluation does not hold (not judged: no readable model answer), or every
fact of an incomplete Evaluation, is left out of every row and counted as undefined.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from factgraph.datasets.fact_labels import FactLabelsRow
from factgraph.evaluation.cost import Cost, cost_per_item
from factgraph.evaluation.fact_agreement import (
    PER_FACT,
    best_cutoff,
    cluster_bca,
    cluster_cells,
    correlations,
    group_means,
    kendall_per_group,
    per_fact_statistics,
)
from factgraph.evaluation.pairwise import content_word_recall
from factgraph.evaluation.pairwise_report import PROMPTS_DESCRIPTION, Card, own_prompts
from factgraph.graph import analyze, contradictions
from factgraph.inputs import EvaluationInput, GivenFact
from factgraph.methods.given_facts import FACT_ID
from factgraph.models import Evaluation, Origin

Verdict = Literal["covered", "contradicted", "missing"]
WORDS_CUTOFF = 0.3
CANDIDATE_CUTOFFS = tuple(round(0.1 * k, 1) for k in range(1, 10))
PEOPLE = "people (annotator 1 vs 2)"


def word_share_name(cutoff: float, optimistic: bool = False) -> str:
    """The name of a word-share baseline row. The word share of a fact is the share of its
    content-word tokens (lower-case runs of ``[a-z0-9]``, the lexical baseline's stop words
    left out, repeats counted) whose word occurs in the summary
    (``factgraph.evaluation.pairwise.content_word_recall``; 0 for a fact with no content
    word); the fact is covered at ``share ≥ cutoff``. The optimistic row's cut-off is the one
    of 0.1, 0.2, …, 0.9 with the best κ on the rows shown: chosen on them, so it flatters."""
    return f"word share ≥ {cutoff:g} (no model" + ("; optimistic)" if optimistic else ")")


MEAN_WORD_SHARE = "mean word share (no model)"


def facts_inputs(rows: Sequence[FactLabelsRow]) -> list[tuple[str, EvaluationInput]]:
    """One evaluation input per row: the summary, its facts as given facts."""
    return [(r.row_id, EvaluationInput(
        id=r.row_id, query=r.query or "", response=r.summary, response_id=r.row_id,
        model=r.system, facts=[GivenFact(id=f.id, text=f.text) for f in r.scus],
        metadata={"doc": r.doc, "system": r.system})) for r in rows]


class JudgedFacts(BaseModel):
    """What the statistics need of one Evaluation: each judged fact's verdict (by given id)
    and, where the judge recorded one, its probability of being covered."""

    verdicts: dict[str, Verdict]
    p_covered: dict[str, float] = Field(default_factory=dict)


def fact_verdicts(ev: Evaluation) -> JudgedFacts:
    """The verdict of every given fact the Evaluation holds (module docstring); none for an
    incomplete Evaluation."""
    if ev.metadata.get("incomplete"):
        return JudgedFacts(verdicts={})
    graph = ev.graph
    facts = {s.id: s for s in graph.statements
             if s.origin is Origin.context and s.metadata.get(FACT_ID) is not None}
    coverage = analyze(graph)
    covered = {m for comp in coverage.covered() for m in comp.members}
    wrong = {c.statement_id for x in contradictions(graph) for c in x.contradicts}
    verdicts: dict[str, Verdict] = {}
    probs: dict[str, float] = {}
    for sid, s in facts.items():
        fid = str(s.metadata[FACT_ID])
        verdicts[fid] = ("contradicted" if sid in wrong else
                         "covered" if sid in covered else "missing")
        p = s.metadata.get("p_covered")
        if p is not None:
            probs[fid] = float(p)
    return JudgedFacts(verdicts=verdicts, p_covered=probs)


class FactAgreement(BaseModel):
    """One scorer's per-fact agreement with the people's labels (missing = positive)."""

    scorer: str
    facts: int
    summaries: int
    articles: int
    cutoff: float | None = None
    optimistic: bool = False
    accuracy: float | None = None
    balanced_accuracy: float | None = None
    kappa: float | None = None
    precision_missing: float | None = None
    recall_missing: float | None = None
    f1_missing: float | None = None
    accuracy_ci: tuple[float, float] | None = None
    balanced_accuracy_ci: tuple[float, float] | None = None
    kappa_ci: tuple[float, float] | None = None
    precision_missing_ci: tuple[float, float] | None = None
    recall_missing_ci: tuple[float, float] | None = None
    f1_missing_ci: tuple[float, float] | None = None
    contradicted: int | None = Field(None, description="Facts judged contradicted.")
    contradicted_not_present: float | None = Field(
        None, description="Share of the facts judged contradicted that the people label not "
                          "present.")


class SummaryAgreement(BaseModel):
    """One per-summary score (share of facts covered) against the people's share."""

    scorer: str
    summaries: int
    pearson: float | None = None
    kendall_per_article: float | None = None
    kendall_per_article_ci: tuple[float, float] | None = None
    articles_ranked: int = Field(0, description="Articles where Kendall's τ-b is defined.")
    systems: int = 0
    system_pearson: float | None = None
    system_kendall: float | None = None


class FactsReport(BaseModel):
    """Every scorer's agreement on the same facts and summaries, and the judge's cost."""

    facts: int = Field(description="Facts scored (judged by the judge; all without a judge).")
    summaries: int
    articles: int
    of_summaries: int = Field(description="Summaries in the file (or the subset).")
    undefined: int = Field(0, description="Facts of evaluated summaries the judge left "
                                          "undecided (left out of every row).")
    present_share: float | None = Field(None, description="Share of the scored facts the "
                                                          "people label present.")
    judge: str | None = None
    rows: list[FactAgreement]
    summary_rows: list[SummaryAgreement]
    cost: Cost | None = Field(None, description="Model work per fact.")


def _fact_row(name: str, present: list[bool], judged: list[bool], docs: list[str],
              summaries: int, n_resamples: int, seed: int, **extra: Any) -> FactAgreement:
    point = per_fact_statistics(present, judged)
    cis = cluster_bca(cluster_cells(present, judged, docs), n_resamples, seed)
    return FactAgreement(scorer=name, facts=len(present), summaries=summaries,
                         articles=len(set(docs)), **point,
                         **{f"{k}_ci": ci for k, ci in zip(PER_FACT, cis, strict=True)},
                         **extra)


def _summary_row(name: str, score: list[float], human: list[float], docs: list[str],
                 systems: list[str], n_resamples: int, seed: int) -> SummaryAgreement:
    from factgraph.metrics.bootstrap import bca_interval

    r, _ = correlations(score, human)
    mean_tau, taus = kendall_per_group(score, human, docs)
    ci = bca_interval(taus, n_resamples=n_resamples, seed=seed) \
        if n_resamples and len(taus) >= 3 else None
    sys_score, sys_human = group_means(score, systems), group_means(human, systems)
    names = sorted(sys_score)
    sp, sk = correlations([sys_score[s] for s in names], [sys_human[s] for s in names])
    return SummaryAgreement(scorer=name, summaries=len(score), pearson=r,
                            kendall_per_article=mean_tau, kendall_per_article_ci=ci,
                            articles_ranked=len(taus), systems=len(names), system_pearson=sp,
                            system_kendall=sk)


def facts_report(rows: Sequence[FactLabelsRow], judged: Mapping[str, JudgedFacts] | None = None,
                 judge: str | None = None, evaluations: Sequence[Evaluation] = (),
                 n_resamples: int = 2_000, seed: int = 42) -> FactsReport:
    """The judge's rows (when ``judged`` — verdicts by row id — is given) and the reference
    rows, on the facts the judge decided of the rows it evaluated (every fact without a
    judge). ``evaluations`` (their traces) give the cost per fact."""
    scored = [r for r in rows if judged is None or r.row_id in judged]
    # one entry per scored fact
    present: list[bool] = []
    docs: list[str] = []
    share: list[float] = []
    verdict: list[str] = []
    votes: list[tuple[bool, bool] | None] = []
    fact_summary: list[int] = []
    undefined = 0
    p_mean: list[float | None] = []
    for k, r in enumerate(scored):
        j = judged[r.row_id] if judged is not None else None
        probs: list[float] = []
        for f in r.scus:
            if j is not None and f.id not in j.verdicts:
                undefined += 1
                continue
            present.append(f.present)
            docs.append(r.doc)
            share.append(content_word_recall(f.text, r.summary) or 0.0)
            verdict.append(j.verdicts[f.id] if j is not None else "")
            votes.append(f.vote_pair())
            fact_summary.append(k)
            if j is not None and f.id in j.p_covered:
                probs.append(j.p_covered[f.id])
        decided = sum(1 for x in fact_summary if x == k)
        p_mean.append(float(np.mean(probs)) if probs and len(probs) == decided else None)
    summaries = sorted(set(fact_summary))
    n_sum = len(summaries)
    fact_rows: list[FactAgreement] = []
    ws = np.asarray(share)
    if judged is not None:
        covered = [v == "covered" for v in verdict]
        wrong = [p for p, v in zip(present, verdict, strict=True) if v == "contradicted"]
        fact_rows.append(_fact_row(
            judge or "judge", present, covered, docs, n_sum, n_resamples, seed,
            contradicted=len(wrong),
            contradicted_not_present=(1.0 - float(np.mean(wrong))) if wrong else None))
    fact_rows.append(_fact_row(word_share_name(WORDS_CUTOFF), present,
                               (ws >= WORDS_CUTOFF).tolist(), docs, n_sum, n_resamples, seed,
                               cutoff=WORDS_CUTOFF))
    if present:
        best, _ = best_cutoff(present, share, CANDIDATE_CUTOFFS)
        fact_rows.append(_fact_row(word_share_name(best, optimistic=True), present,
                                   (ws >= best).tolist(), docs, n_sum, n_resamples, seed,
                                   cutoff=best, optimistic=True))
    paired = [(v[0], v[1], d) for v, d in zip(votes, docs, strict=True) if v is not None]
    if paired:
        fact_rows.append(_fact_row(PEOPLE, [a for a, _, _ in paired], [b for _, b, _ in paired],
                                   [d for _, _, d in paired],
                                   len({s for s, v in zip(fact_summary, votes, strict=True)
                                        if v is not None}), n_resamples, seed))
    summary_rows = _summary_rows(scored, summaries, fact_summary, present, verdict, share,
                                 votes, p_mean, judge if judged is not None else None,
                                 n_resamples, seed)
    cost = None
    if judged is not None and evaluations:
        cost = cost_per_item(evaluations, len(present))
    return FactsReport(facts=len(present), summaries=n_sum,
                       articles=len({scored[k].doc for k in summaries}),
                       of_summaries=len(rows), undefined=undefined,
                       present_share=float(np.mean(present)) if present else None,
                       judge=judge if judged is not None else None, rows=fact_rows,
                       summary_rows=summary_rows, cost=cost)


def _summary_rows(scored: Sequence[FactLabelsRow], summaries: list[int], fact_summary: list[int],
                  present: list[bool], verdict: list[str], share: list[float],
                  votes: list[tuple[bool, bool] | None], p_mean: list[float | None],
                  judge: str | None, n_resamples: int, seed: int) -> list[SummaryAgreement]:
    """Per summary: each scorer's share against the people's share of present facts."""
    by: dict[int, list[int]] = {}
    for i, k in enumerate(fact_summary):
        by.setdefault(k, []).append(i)

    def mean(values: Sequence[float], k: int) -> float:
        return float(np.mean([values[i] for i in by[k]]))

    human = [mean([float(p) for p in present], k) for k in summaries]
    docs = [scored[k].doc for k in summaries]
    systems = [scored[k].system for k in summaries]
    scores: list[tuple[str, list[float]]] = []
    if judge is not None:
        scores.append((f"{judge} (share covered)",
                       [mean([float(v == "covered") for v in verdict], k) for k in summaries]))
        expected = [p_mean[k] for k in summaries]
        if expected and all(p is not None for p in expected):
            scores.append((f"{judge} (expected coverage)", [float(p or 0.0) for p in expected]))
    scores.append((f"share with {word_share_name(WORDS_CUTOFF)}",
                   [mean([float(s >= WORDS_CUTOFF) for s in share], k) for k in summaries]))
    scores.append((MEAN_WORD_SHARE, [mean(share, k) for k in summaries]))
    out = [_summary_row(name, s, human, docs, systems, n_resamples, seed) for name, s in scores]
    both = [k for k in summaries if all(votes[i] is not None for i in by[k])]
    if both:
        first = [float(np.mean([votes[i][0] for i in by[k]])) for k in both]  # type: ignore[index]
        second = [float(np.mean([votes[i][1] for i in by[k]])) for k in both]  # type: ignore[index]
        out.append(_summary_row(PEOPLE, second, first, [scored[k].doc for k in both],
                                [scored[k].system for k in both], n_resamples, seed))
    return out


FACTS_CARD_KIND = "factgraph fact-level judge card"


class FactsCard(Card):
    """A judge card for fact-level coverage: the judge's per-fact and per-summary agreement
    with people's presence labels beside the reference points of the same rows, and its
    cost per fact."""

    model_config = ConfigDict(extra="ignore")

    kind: str = Field(FACTS_CARD_KIND)
    judge: str
    method: str
    model: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    dataset: str
    split: str = Field(description="Which part of the data set (dev: the part tuned on).")
    report: FactsReport
    date: str = Field(default_factory=lambda: _dt.date.today().isoformat())
    note: str | None = None
    prompts: dict[str, str] | None = Field(None, description=PROMPTS_DESCRIPTION)

    def one_line(self) -> str:
        """``judge card: NAME (dev, n=2525 facts): κ 0.240, recall of missing 0.29 at
        precision 0.91 (word share ≥ 0.3: κ 0.292; people κ 0.747)``"""
        rows = {r.scorer: r for r in self.report.rows}
        me = rows.get(self.report.judge or "")

        def kappa(r: FactAgreement | None) -> str:
            return "undefined" if r is None or r.kappa is None else f"{r.kappa:.3f}"

        def num(v: float | None) -> str:
            return "undefined" if v is None else f"{v:.2f}"

        who = ", ".join(x for x in (self.model, self.split, f"n={self.report.facts} facts")
                        if x)
        return (f"judge card: {self.judge} ({who}): κ {kappa(me)}, recall of missing "
                f"{num(me.recall_missing if me else None)} at precision "
                f"{num(me.precision_missing if me else None)} (word share ≥ {WORDS_CUTOFF:g}: "
                f"κ {kappa(rows.get(word_share_name(WORDS_CUTOFF)))}; people κ "
                f"{kappa(rows.get(PEOPLE))}){own_prompts(self.prompts)}")


def write_facts_card(card: FactsCard, path: str | os.PathLike[str]) -> None:
    Path(path).write_text(json.dumps(card.model_dump(mode="json"), indent=2,
                                     ensure_ascii=False) + "\n", encoding="utf-8")
