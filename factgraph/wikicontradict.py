"""WikiContradict as a meta-evaluation set for comprehensiveness (seed 001 §4, App. B).

Each row of ``wiki_contradict_simple_humaneval.jsonl`` holds a question, two conflicting
self-contained contexts and five answers (``answer0``..``answer4``), each with a human label
(Correct / Partially correct / Incorrect). One row × answer is one EvaluationInput with id
``wc{row}-a{k}``; its adjusted label (``factgraph.metrics.lmr.adjusted_human_label``) is the
target of the label match.
"""

from __future__ import annotations

import os
import random
from collections import Counter

from pydantic import BaseModel, ConfigDict, Field

from factgraph.inputs import Document, EvaluationInput
from factgraph.io import read_jsonl
from factgraph.metrics.bootstrap import bca_interval
from factgraph.metrics.lmr import (
    LABELS,
    adjusted_human_label,
    label_match_rate,
    moderate_label,
    strict_label,
)
from factgraph.models import Evaluation

N_ANSWERS = 5


class WikiContradictRow(BaseModel):
    model_config = ConfigDict(extra="ignore")

    question: str
    context1_self_contained: str
    context2_self_contained: str
    answer0: str
    answer1: str
    answer2: str
    answer3: str
    answer4: str
    label0: str
    label1: str
    label2: str
    label3: str
    label4: str
    model: str | None = None


class LabelledInput(BaseModel):
    input: EvaluationInput
    label: str = Field(description="The adjusted human label (seed 001 App. B, footnote 6).")


def load_items(path: str | os.PathLike[str]) -> list[LabelledInput]:
    """Every (row, answer) of the file, in file order."""
    items: list[LabelledInput] = []
    for n, (_, row) in enumerate(read_jsonl(path, WikiContradictRow)):
        docs = [Document(id="context1", text=row.context1_self_contained),
                Document(id="context2", text=row.context2_self_contained)]
        for k in range(N_ANSWERS):
            items.append(LabelledInput(
                input=EvaluationInput(id=f"wc{n}-a{k}", query=row.question,
                                      response=getattr(row, f"answer{k}"), documents=docs,
                                      model=row.model, response_id=f"wc{n}-a{k}"),
                label=adjusted_human_label(getattr(row, f"label{k}"), k)))
    return items


def sample_items(items: list[LabelledInput], n: int | None, seed: int) -> list[LabelledInput]:
    """A fixed random sample of ``n`` items (all when ``n`` is None), kept in file order."""
    if n is None or n >= len(items):
        return items
    chosen = set(random.Random(seed).sample(range(len(items)), n))
    return [it for i, it in enumerate(items) if i in chosen]


class MetaEvalResult(BaseModel):
    method: str
    n: int
    undefined: int = Field(description="Evaluations whose score is undefined (counted as "
                                       "mismatches).")
    lmr_strict: float | None
    lmr_strict_ci: tuple[float, float] | None
    lmr_moderate: float | None
    lmr_moderate_ci: tuple[float, float] | None
    confusion: dict[str, dict[str, int]] = Field(
        description="confusion[human label][predicted label] (strict mapping; 'undefined').")


def label_match_summary(method: str, labelled: list[tuple[float | None, str]],
                        n_resamples: int = 10_000, seed: int = 42) -> MetaEvalResult:
    """LMR (strict and moderate) with BCa 95% CIs and the confusion matrix."""
    strict = [s is not None and strict_label(s) == lab for s, lab in labelled]
    moderate = [s is not None and moderate_label(s) == lab for s, lab in labelled]
    confusion: dict[str, Counter[str]] = {lab: Counter() for lab in LABELS}
    for s, lab in labelled:
        confusion[lab][strict_label(s) if s is not None else "undefined"] += 1

    def ci(m: list[bool]) -> tuple[float, float] | None:
        return bca_interval([float(x) for x in m], n_resamples=n_resamples, seed=seed) \
            if len(m) > 1 else None

    return MetaEvalResult(
        method=method, n=len(labelled), undefined=sum(s is None for s, _ in labelled),
        lmr_strict=label_match_rate(strict), lmr_strict_ci=ci(strict),
        lmr_moderate=label_match_rate(moderate), lmr_moderate_ci=ci(moderate),
        confusion={lab: dict(c) for lab, c in confusion.items()})


def score_results(method: str, items: list[LabelledInput], results: list[Evaluation],
                  n_resamples: int = 10_000, seed: int = 42) -> MetaEvalResult:
    """Match each item with its Evaluation (by id) and summarise."""
    by_id = {ev.id: ev for ev in results}
    missing = [it.input.id for it in items if it.input.id not in by_id]
    if missing:
        raise ValueError(f"no result for {len(missing)} inputs (first: {missing[0]})")
    return label_match_summary(method, [(by_id[it.input.id].scores.get("comprehensiveness"),
                                         it.label) for it in items], n_resamples, seed)
