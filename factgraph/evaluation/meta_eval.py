"""Meta-evaluation of recorded comprehensiveness judgements against WikiContradict labels.

Reads end-to-end judgement rows such as ``ibm_e2e_judgements.jsonl.gz`` (one row per judge,
question and answer: covered / uncovered statements), turns each into a comprehensiveness
score, maps the score to a label and compares it with the adjusted human label
(Dejl et al. 2025, App. B). Aggregates per judge: matches, LMR (strict and moderate), BCa 95%
CI, and what a constant judge cannot fake (issue 16): Cohen's κ, balanced accuracy (both with
BCa 95% CIs), macro-F1, the majority-class baseline of the same items and the confusion matrix.

A **judge card** (:class:`JudgeCard`) is the small JSON summary of one judge's agreement —
method, model, options, split, n, LMR, κ and balanced accuracy with CIs, date — written by
``factgraph meta-eval`` and shown by ``evaluate``, ``batch``, ``report`` and the views beside
every score they print, so a reader sees how far the numbers can be trusted.
"""

from __future__ import annotations

import datetime as _dt
import json
import logging
import os
from collections import defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from factgraph.evaluation.pairwise_report import (
    PAIRWISE_CARD_KIND,
    PROMPTS_DESCRIPTION,
    Card,
    PairwiseCard,
    card_engine_mismatch,
    own_prompts,
)
from factgraph.graph import comprehensiveness_score
from factgraph.io import read_jsonl
from factgraph.metrics.agreement import Agreement, agreement
from factgraph.metrics.bootstrap import bca_interval
from factgraph.metrics.lmr import (
    LABELS,
    adjusted_human_label,
    label_match_rate,
    moderate_label,
    strict_label,
)

log = logging.getLogger(__name__)


class JudgedStatement(BaseModel):
    model_config = ConfigDict(extra="ignore")

    statement: str
    context_indices: list[int] = Field(default_factory=list)


class JudgementRow(BaseModel):
    """One recorded end-to-end judgement (extra fields of the source file are ignored)."""

    model_config = ConfigDict(extra="ignore")

    judge: str
    row: int
    answer_index: int = Field(ge=0, le=4)
    human_label: str
    covered: list[JudgedStatement]
    uncovered: list[JudgedStatement]


class JudgeSummary(BaseModel):
    judge: str
    n: int
    matches: int
    lmr_strict: float | None
    lmr_strict_ci: tuple[float, float] | None
    matches_moderate: int
    lmr_moderate: float | None
    no_statements: int = Field(description="Rows where the judge listed no statement at all.")
    lmr_by_answer_index: dict[int, float | None]
    agreement: Agreement | None = Field(None, description="κ, balanced accuracy, macro-F1, "
                                                          "majority baseline (strict mapping).")


def row_score(row: JudgementRow, empty_score: float | None = 0.0) -> float | None:
    """``S = |covered| / (|covered| + |uncovered|)``; each listed statement is its own component.

    ``empty_score`` is used when the judge listed nothing: IBM's runs store 0.0 there (almost
    always a parse failure of the judge's reply), which is what reproduces the paper.
    """
    return comprehensiveness_score(len(row.covered), len(row.uncovered), empty=empty_score)


def summarize_judgements(
    rows: Iterable[JudgementRow],
    empty_score: float | None = 0.0,
    n_resamples: int = 10_000,
    seed: int = 42,
) -> list[JudgeSummary]:
    """Per-judge label match rates, sorted by judge name.

    Rows whose score is undefined (``empty_score=None`` and nothing listed) count as
    mismatches, so every judge is scored on the same N.
    """
    strict: dict[str, list[bool]] = defaultdict(list)
    truth: dict[str, list[str]] = defaultdict(list)
    predicted: dict[str, list[str]] = defaultdict(list)
    moderate: dict[str, list[bool]] = defaultdict(list)
    by_index: dict[str, dict[int, list[bool]]] = defaultdict(lambda: defaultdict(list))
    empty: dict[str, int] = defaultdict(int)
    for row in rows:
        target = adjusted_human_label(row.human_label, row.answer_index)
        s = row_score(row, empty_score)
        if not row.covered and not row.uncovered:
            empty[row.judge] += 1
        ok = s is not None and strict_label(s) == target
        truth[row.judge].append(target)
        predicted[row.judge].append("undefined" if s is None else strict_label(s))
        strict[row.judge].append(ok)
        moderate[row.judge].append(s is not None and moderate_label(s) == target)
        by_index[row.judge][row.answer_index].append(ok)
    out = []
    for judge in sorted(strict):
        m = strict[judge]
        out.append(JudgeSummary(
            judge=judge,
            n=len(m),
            matches=sum(m),
            lmr_strict=label_match_rate(m),
            lmr_strict_ci=bca_interval([float(x) for x in m], n_resamples=n_resamples, seed=seed)
            if n_resamples else None,
            matches_moderate=sum(moderate[judge]),
            lmr_moderate=label_match_rate(moderate[judge]),
            no_statements=empty[judge],
            lmr_by_answer_index={
                k: label_match_rate(v) for k, v in sorted(by_index[judge].items())
            },
            agreement=agreement(truth[judge], predicted[judge], LABELS,
                                n_resamples=n_resamples, seed=seed),
        ))
    return out


def load_judgements(path: str | os.PathLike[str]) -> list[JudgementRow]:
    """Read a judgements JSONL(.gz) file; a bad row raises InputError naming its line."""
    return [row for _, row in read_jsonl(path, JudgementRow)]


def load_judgement_rows(path: str | os.PathLike[str]) -> list[JudgementRow]:
    """The rows of a judgements file (the one place the file is read: swap for a streaming
    reader here)."""
    return load_judgements(path)


class JudgeCard(Card):
    """How far a judge's scores can be trusted: its agreement with human labels."""

    model_config = ConfigDict(extra="ignore")

    kind: str = Field("factgraph judge card", description="Marks the file as a judge card.")
    method: str
    model: str | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    dataset: str = "WikiContradict (human-labelled answers, labels of Dejl et al. 2025, App. B)"
    split: str = Field(description="dev, test or all (factgraph/_data/wikicontradict_split.json)")
    n: int
    undefined: int = 0
    lmr_strict: float | None = None
    lmr_strict_ci: tuple[float, float] | None = None
    lmr_moderate: float | None = None
    kappa: float | None = None
    kappa_ci: tuple[float, float] | None = None
    balanced_accuracy: float | None = None
    balanced_accuracy_ci: tuple[float, float] | None = None
    macro_f1: float | None = None
    majority_baseline: float | None = None
    date: str = Field(default_factory=lambda: _dt.date.today().isoformat())
    note: str | None = None
    prompts: dict[str, str] | None = Field(None, description=PROMPTS_DESCRIPTION)

    def one_line(self) -> str:
        """``judge: e2e (qwen, test, n=60): κ 0.31 [0.12, 0.48], balanced acc. …``"""
        def num(v: float | None, ci: tuple[float, float] | None = None) -> str:
            if v is None:
                return "undefined"
            return f"{v:.2f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")

        who = ", ".join(x for x in (self.model, self.split, f"n={self.n}") if x)
        return (f"judge card: {self.method} ({who}): κ {num(self.kappa, self.kappa_ci)}, "
                f"balanced accuracy {num(self.balanced_accuracy, self.balanced_accuracy_ci)}, "
                f"LMR {num(self.lmr_strict)} vs constant {num(self.majority_baseline)}"
                f"{own_prompts(self.prompts)}")

    @classmethod
    def from_agreement(cls, *, method: str, model: str | None, options: dict[str, Any],
                       split: str, a: Agreement, undefined: int = 0,
                       lmr_strict_ci: tuple[float, float] | None = None,
                       lmr_moderate: float | None = None, note: str | None = None,
                       dataset: str | None = None,
                       prompts: dict[str, str] | None = None) -> JudgeCard:
        extra = {"dataset": dataset} if dataset else {}
        return cls(method=method, model=model, options=options, split=split, n=a.n,
                   prompts=prompts or None,
                   undefined=undefined, lmr_strict=a.lmr, lmr_strict_ci=lmr_strict_ci,
                   lmr_moderate=lmr_moderate, kappa=a.kappa, kappa_ci=a.kappa_ci,
                   balanced_accuracy=a.balanced_accuracy,
                   balanced_accuracy_ci=a.balanced_accuracy_ci, macro_f1=a.macro_f1,
                   majority_baseline=a.majority_baseline, note=note, **extra)


def write_judge_card(card: JudgeCard, path: str | os.PathLike[str]) -> None:
    Path(path).write_text(json.dumps(card.model_dump(mode="json"), indent=2,
                                     ensure_ascii=False) + "\n", encoding="utf-8")


def read_judge_card(path: str | os.PathLike[str]) -> JudgeCard | PairwiseCard:
    """A judge card file — a WikiContradict card, or a pairwise (long-form) card written by
    ``meta-eval pairwise``; a bad file raises InputError naming the file and field."""
    from pydantic import ValidationError

    from factgraph.errors import InputError

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as e:
        raise InputError(path, f"cannot read judge card: {e.strerror}") from None
    except json.JSONDecodeError as e:
        raise InputError(path, f"not JSON: {e.msg}", line=e.lineno) from None
    try:
        return _card_model(data).model_validate(data)
    except ValidationError as e:
        err = e.errors()[0]
        loc = ".".join(str(x) for x in err["loc"]) or "(top level)"
        raise InputError(path, f"{loc}: {err['msg']}") from None


def _card_model(data: Any) -> type[JudgeCard] | type[PairwiseCard]:
    pairwise = isinstance(data, dict) and data.get("kind") == PAIRWISE_CARD_KIND
    return PairwiseCard if pairwise else JudgeCard


def card_of(evaluation: Any) -> JudgeCard | PairwiseCard | None:
    """The judge card an Evaluation carries in ``metadata["judge_card"]`` (None if none)."""
    data = getattr(evaluation, "metadata", {}).get("judge_card")
    if not isinstance(data, dict):
        return None
    try:
        return _card_model(data).model_validate(data)
    except ValueError:
        return None


def attach_card(evaluation: Any, card: JudgeCard | PairwiseCard, warn: bool = True) -> bool:
    """Store the card in the Evaluation (``metadata["judge_card"]``) and, with ``warn``, log
    one warning when the run embedded with another model than the card was fitted with.
    True when it warned."""
    evaluation.metadata["judge_card"] = card.model_dump(mode="json")
    mismatch = card_engine_mismatch(card, evaluation) if warn else None
    if mismatch:
        log.warning(mismatch)
    return mismatch is not None


class CardedEvaluator:
    """Wraps an evaluator so that every Evaluation it returns carries the judge card
    (``metadata["judge_card"]``), warning once per run when the run's embedding model is not
    the card's; everything else is the wrapped evaluator's."""

    def __init__(self, evaluator: Any, card: JudgeCard | PairwiseCard) -> None:
        self._evaluator = evaluator
        self._card = card
        self._warned = False

    def __call__(self, inp: Any) -> Any:
        ev = self._evaluator(inp)
        self._warned |= attach_card(ev, self._card, warn=not self._warned)
        return ev

    def __getattr__(self, name: str) -> Any:
        return getattr(self._evaluator, name)
