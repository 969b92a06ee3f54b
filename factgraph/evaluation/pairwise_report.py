"""A pairwise meta-evaluation: a judge's scores of both answers of each instance set against
the annotators' preferences, beside the reference points — the lexical and length baselines,
the scores another tool recorded (RAGChecker's), and the annotators' agreement with each other —
on the same instances, so that no agreement figure is shown alone (statistics:
``factgraph.evaluation.pairwise``).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from factgraph.datasets.pairwise import Label, PairwiseInstance
from factgraph.evaluation.cost import Cost, cost_per_item
from factgraph.evaluation.pairwise import (
    PairwiseAgreement,
    annotator_agreement,
    content_word_recall,
    preference_agreement,
    response_length,
)
from factgraph.inputs import EvaluationInput
from factgraph.models import Evaluation

Background = Literal["reference", "documents", "both"]
SIDES = ("model1", "model2")
LEXICAL = "content-word recall of the reference (no model)"
LENGTH = "response length (no model)"
RECORDED = "RAGChecker (recorded)"


def response_id(instance: PairwiseInstance, side: str) -> str:
    """The id under which one answer's Evaluation is recorded: ``"<instance_id>/model1"``."""
    return f"{instance.instance_id}/{side}"


def pairwise_inputs(instances: Iterable[PairwiseInstance], background: Background = "reference"
                    ) -> list[tuple[str, EvaluationInput]]:
    """Two evaluation inputs per instance (model1's and model2's answer), judged against the
    reference answer and / or the given documents."""
    out = []
    for inst in instances:
        docs = inst.background(background)
        for side in SIDES:
            r = getattr(inst, side)
            rid = response_id(inst, side)
            out.append((rid, EvaluationInput(
                id=rid, query=inst.query, response=r.response, documents=docs,
                model=r.model_name, response_id=rid,
                metadata={"instance_id": inst.instance_id, "side": side,
                          **({"dataset": inst.dataset} if inst.dataset else {})})))
    return out


class PairwiseReport(BaseModel):
    """Every scorer's agreement on the same instances, and the judge's cost."""

    label: str
    instances: int = Field(description="Instances scored (both answers evaluated, or all "
                                       "instances when no judge ran).")
    of_instances: int = Field(description="Instances in the file (or the sample).")
    judge: str | None = None
    rows: list[PairwiseAgreement]
    cost: Cost | None = None


def label_rows(instances: Sequence[PairwiseInstance], label: Label) -> list[list[int]]:
    """Each instance's annotators' labels of one kind."""
    return [[h.label(label) for h in inst.human] for inst in instances]


def score_pairs(instances: Sequence[PairwiseInstance],
           score: Callable[[PairwiseInstance, str], float | None]
           ) -> list[tuple[float | None, float | None]]:
    """(score of model1's answer, score of model2's answer) per instance."""
    return [(score(inst, "model1"), score(inst, "model2")) for inst in instances]


def evaluated(instances: Sequence[PairwiseInstance], by_id: Mapping[str, Evaluation]
              ) -> list[PairwiseInstance]:
    """The instances whose two answers both have an Evaluation in ``by_id``."""
    return [inst for inst in instances if all(response_id(inst, s) in by_id for s in SIDES)]


EXPECTED_COVERAGE = "expected_coverage"


def graded_row(judge: str) -> str:
    """The name of a judge's graded-companion row (its expected coverage) in a report."""
    return f"{judge} (expected coverage)"


def headline_scorer(judge: str, scorers: Sequence[str]) -> str | None:
    """The row a judge is quoted by: its graded companion where the report has one (the score
    it ranks answers by), else its own row (S); None when neither is there."""
    return next((name for name in (graded_row(judge), judge) if name in scorers), None)


def judge_score(evaluation: Evaluation, score: str = "comprehensiveness") -> float | None:
    """The score a judge gives one answer: comprehensiveness S, or another of its scores such
    as the graded companion ``expected_coverage`` (None when undefined or absent)."""
    value = evaluation.scores.get(score)
    return None if value is None else float(value)


def pairwise_report(instances: Sequence[PairwiseInstance], label: Label,
                    evaluations: Sequence[Evaluation] | None = None,
                    judge: str | None = None, n_resamples: int = 2_000,
                    seed: int = 42) -> PairwiseReport:
    """The judge's row (when ``evaluations`` are given) and the reference rows, all on the
    instances whose two answers were both evaluated (every instance without a judge)."""
    by_id = {ev.id: ev for ev in evaluations or []}
    scored = evaluated(instances, by_id) if evaluations is not None else list(instances)
    labels = label_rows(scored, label)
    rows: list[PairwiseAgreement] = []

    def judged(inst: PairwiseInstance, side: str) -> float | None:
        return judge_score(by_id[response_id(inst, side)])

    def graded(inst: PairwiseInstance, side: str) -> float | None:
        return judge_score(by_id[response_id(inst, side)], EXPECTED_COVERAGE)

    def lexical(inst: PairwiseInstance, side: str) -> float | None:
        return content_word_recall(inst.gt_answer or "", getattr(inst, side).response)

    def length(inst: PairwiseInstance, side: str) -> float | None:
        return response_length(getattr(inst, side).response)

    key = f"{label}_label"

    def recorded(inst: PairwiseInstance, side: str) -> float | None:
        return (getattr(inst, side).ragchecker or {}).get(key)

    if evaluations is not None:
        rows.append(preference_agreement(judge or "judge", score_pairs(scored, judged), labels,
                                         n_resamples, seed))
        if scored and all(EXPECTED_COVERAGE in by_id[response_id(inst, s)].scores
                          for inst in scored for s in SIDES):
            # a judge with per-fact probabilities: its graded companion score, same instances
            rows.append(preference_agreement(graded_row(judge or "judge"),
                                             score_pairs(scored, graded), labels, n_resamples,
                                             seed))
    for name, score in ((LEXICAL, lexical), (LENGTH, length)):
        rows.append(preference_agreement(name, score_pairs(scored, score), labels, n_resamples,
                                         seed))
    recorded_pairs = score_pairs(scored, recorded)
    if any(a is not None for a, _ in recorded_pairs):
        rows.append(preference_agreement(RECORDED, recorded_pairs, labels, n_resamples, seed))
    rows.append(annotator_agreement(labels, n_resamples, seed))
    cost = None
    if evaluations is not None:
        used = [by_id[response_id(inst, s)] for inst in scored for s in SIDES]
        cost = cost_per_item(used, len(scored))
    return PairwiseReport(label=label, instances=len(scored), of_instances=len(instances),
                          judge=judge, rows=rows, cost=cost)


PAIRWISE_CARD_KIND = "factgraph pairwise judge card"
PROMPTS_DESCRIPTION = ("The prompts the judge's run replaced with a user's own (name -> "
                       "content hash, from the Evaluations' parameters); absent: the packaged "
                       "prompts.")


EMBEDDINGS_DESCRIPTION = ("The embedding model the judge was fitted with (name, version and "
                          "content hash, as Evaluations record it); absent when it used none.")


class Card(BaseModel):
    """What every judge card shares: its JSON leaves out ``prompts`` when the packaged prompts
    were used and ``embeddings`` when the judge embedded nothing (so such a card reads as it
    always has)."""

    embeddings: str | None = Field(None, description=EMBEDDINGS_DESCRIPTION)

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for optional in ("prompts", "embeddings"):
            if data.get(optional) is None:
                data.pop(optional, None)
        return data


def embeddings_of(evaluation: Any) -> str | None:
    """The embedding model an Evaluation records having used (``metadata["models"]``, written
    after the run, else ``parameters["models"]``); None when it used none."""
    for where in (getattr(evaluation, "metadata", None), getattr(evaluation, "parameters", None)):
        models = (where or {}).get("models") or {}
        if models.get("embeddings"):
            return str(models["embeddings"])
    return None


def card_engine_mismatch(card: Card, evaluation: Any) -> str | None:
    """One line when a run embedded with another model than its judge card was fitted with
    (both named by content hash, so a model recorded before hashes, or one never loaded, is not
    compared); None when they agree."""
    fitted, used = card.embeddings, embeddings_of(evaluation)
    if not fitted or not used or fitted == used or "sha256:" not in fitted \
            or "sha256:" not in used:
        return None
    name = getattr(card, "judge", None) or getattr(card, "method", "the judge")
    return (f"the judge card of {name} was fitted with embeddings {fitted}; this run used "
            f"{used}: the card's agreement may not hold for it")


def own_prompts(prompts: Mapping[str, str] | None) -> str:
    """`` (own prompts: nli, e2e)`` for a card's one line; empty for the packaged prompts."""
    return f" (own prompts: {', '.join(sorted(prompts))})" if prompts else ""


class PairwiseCard(Card):
    """A judge card for long-form answers: the judge's agreement with pairwise human
    preferences beside the reference points of the same instances, and its cost."""

    model_config = ConfigDict(extra="ignore")

    kind: str = Field(PAIRWISE_CARD_KIND)
    judge: str
    method: str
    model: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    dataset: str
    split: str = Field(description="Which part of the data set (dev: the part tuned on).")
    label: str
    report: PairwiseReport
    date: str = Field(default_factory=lambda: _dt.date.today().isoformat())
    note: str | None = None
    prompts: dict[str, str] | None = Field(None, description=PROMPTS_DESCRIPTION)

    def judge_row(self) -> PairwiseAgreement | None:
        """The judge's headline row: its graded companion (expected coverage) where it has
        one — the score it ranks answers by — else S."""
        rows = {r.scorer: r for r in self.report.rows}
        name = headline_scorer(self.report.judge or "", list(rows))
        return None if name is None else rows[name]

    def one_line(self) -> str:
        """``judge card: NAME (model, dev, n=84, completeness): Pearson 61.2 / Spearman 58.1
        (lexical baseline 63.3 / 59.4; annotators 74.3 / 69.8)``"""
        def pair(r: PairwiseAgreement | None) -> str:
            if r is None or r.pearson is None or r.spearman is None:
                return "undefined"
            return f"{100 * r.pearson:.1f} / {100 * r.spearman:.1f}"

        rows = {r.scorer: r for r in self.report.rows}
        who = ", ".join(x for x in (self.model, self.split, f"n={self.report.instances}",
                                     self.label) if x)
        head = self.judge_row()
        by = " by expected coverage" if head is not None and head.scorer == graded_row(
            self.judge) else ""
        return (f"judge card: {self.judge} ({who}): Pearson / Spearman "
                f"{pair(head)}{by} (lexical baseline {pair(rows.get(LEXICAL))}; "
                f"annotators {pair(rows.get('annotator vs annotator'))})"
                f"{own_prompts(self.prompts)}")


def write_pairwise_card(card: PairwiseCard, path: str | os.PathLike[str]) -> None:
    Path(path).write_text(json.dumps(card.model_dump(mode="json"), indent=2,
                                     ensure_ascii=False) + "\n", encoding="utf-8")
