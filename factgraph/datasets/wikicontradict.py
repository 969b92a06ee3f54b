"""WikiContradict as a meta-evaluation set for comprehensiveness (Dejl et al. 2025, §4, App. B).

Each row of ``wiki_contradict_simple_humaneval.jsonl`` holds a question, two conflicting
self-contained contexts and five answers (``answer0``..``answer4``), each with a human label
(Correct / Partially correct / Incorrect). One row × answer is one EvaluationInput with id
``wc{row}-a{k}``; its adjusted label (``factgraph.metrics.lmr.adjusted_human_label``) is the
target of the label match.

The fixed dev / test split (issue 16) is by question: the 240 rows hold 48 distinct questions,
each answered by five models (rows) with five answers each; every row of a question, and so all
of its 25 answers, lies on one side. ``make_split`` draws it once (seeded) and the result is
shipped as ``factgraph/_data/wikicontradict_split.json`` (row numbers and questions), so that
anything tuned — cut-offs, prompt choices, T_rel — is tuned on dev and every reported number
comes from test. In 35 rows the two "self-contained" contexts are the same text; items carry
``same_contexts`` so results are reported with and without them.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections import Counter
from collections.abc import Callable
from importlib.resources import files
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from factgraph.errors import UserInputError
from factgraph.inputs import Document, EvaluationInput
from factgraph.io import read_jsonl
from factgraph.metrics.agreement import UNDEFINED, Agreement, agreement, cohen_kappa
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
    label: str = Field(
        description="The adjusted human label (Dejl et al. 2025, App. B, footnote 6).")
    row: int = Field(0, description="Row number in the file (0-based).")
    same_contexts: bool = Field(False, description="The row's two contexts are the same text.")


def load_items(path: str | os.PathLike[str]) -> list[LabelledInput]:
    """Every (row, answer) of the file, in file order."""
    items: list[LabelledInput] = []
    for n, (_, row) in enumerate(read_jsonl(path, WikiContradictRow)):
        docs = [Document(id="context1", text=row.context1_self_contained),
                Document(id="context2", text=row.context2_self_contained)]
        same = " ".join(row.context1_self_contained.split()) == " ".join(
            row.context2_self_contained.split())
        for k in range(N_ANSWERS):
            items.append(LabelledInput(
                input=EvaluationInput(id=f"wc{n}-a{k}", query=row.question,
                                      response=getattr(row, f"answer{k}"), documents=docs,
                                      model=row.model, response_id=f"wc{n}-a{k}"),
                label=adjusted_human_label(getattr(row, f"label{k}"), k), row=n,
                same_contexts=same))
    return items


# --- the fixed dev / test split --------------------------------------------------------------

SPLIT_SEED = 16
DEV_QUESTIONS = 16
Split = Literal["dev", "test", "all"]


class WikiContradictSplit(BaseModel):
    """Which rows (and questions) are dev and which are test."""

    seed: int
    how: str
    data_sha256: str = Field(description="sha256 of the questions in file order, to detect a "
                                         "different file.")
    dev_questions: list[str]
    test_questions: list[str]
    dev_rows: list[int]
    test_rows: list[int]


def _questions_digest(questions: list[str]) -> str:
    return hashlib.sha256("\n".join(questions).encode()).hexdigest()


def make_split(questions: list[str], seed: int = SPLIT_SEED,
               dev_questions: int = DEV_QUESTIONS) -> WikiContradictSplit:
    """Shuffle the distinct questions (sorted, then ``random.Random(seed).shuffle``); the first
    ``dev_questions`` are dev, the rest test. ``questions`` is the question of each row in file
    order; every row goes to its question's side."""
    distinct = sorted(set(questions))
    random.Random(seed).shuffle(distinct)
    dev = set(distinct[:dev_questions])
    return WikiContradictSplit(
        seed=seed,
        how=(f"distinct questions sorted, shuffled with random.Random({seed}); the first "
             f"{dev_questions} are dev, the other {len(distinct) - dev_questions} test; a row "
             "follows its question"),
        data_sha256=_questions_digest(questions),
        dev_questions=sorted(dev), test_questions=sorted(set(distinct) - dev),
        dev_rows=[n for n, q in enumerate(questions) if q in dev],
        test_rows=[n for n, q in enumerate(questions) if q not in dev])


def load_split() -> WikiContradictSplit:
    """The shipped split (``factgraph/_data/wikicontradict_split.json``)."""
    text = (files("factgraph") / "_data" / "wikicontradict_split.json").read_text("utf-8")
    return WikiContradictSplit.model_validate(json.loads(text))


def split_items(items: list[LabelledInput], split: Split,
                shipped: WikiContradictSplit | None = None) -> list[LabelledInput]:
    """The items of one side of the shipped split (``all``: every item)."""
    if split == "all":
        return items
    shipped = shipped or load_split()
    n_rows = max((it.row for it in items), default=-1) + 1
    if n_rows != len(shipped.dev_rows) + len(shipped.test_rows):
        raise UserInputError(f"the split covers {len(shipped.dev_rows) + len(shipped.test_rows)} "
                         f"rows but the file has {n_rows}: not the WikiContradict human-eval "
                         "file the split was made for")
    rows = set(shipped.dev_rows if split == "dev" else shipped.test_rows)
    return [it for it in items if it.row in rows]


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
    agreement: Agreement | None = Field(
        None, description="κ, balanced accuracy, macro-F1, majority baseline (strict mapping).")
    kappa_moderate: float | None = None
    without_same_contexts: MetaEvalResult | None = Field(
        None, description="The same figures without the rows whose two contexts are one text.")


def predicted_label(score: float | None, mode: Literal["strict", "moderate"] = "strict") -> str:
    """The label a score implies; ``"undefined"`` for no score."""
    if score is None:
        return UNDEFINED
    return strict_label(score) if mode == "strict" else moderate_label(score)


def label_match_summary(method: str, labelled: list[tuple[float | None, str]],
                        n_resamples: int = 10_000, seed: int = 42) -> MetaEvalResult:
    """LMR (strict and moderate) with BCa 95% CIs, the confusion matrix, and the
    chance-corrected agreement (κ, balanced accuracy with BCa CIs, macro-F1, majority
    baseline; ``factgraph.metrics.agreement``) of the strict labels."""
    strict = [s is not None and strict_label(s) == lab for s, lab in labelled]
    moderate = [s is not None and moderate_label(s) == lab for s, lab in labelled]
    confusion: dict[str, Counter[str]] = {lab: Counter() for lab in LABELS}
    for s, lab in labelled:
        confusion[lab][strict_label(s) if s is not None else "undefined"] += 1

    def ci(m: list[bool]) -> tuple[float, float] | None:
        return bca_interval([float(x) for x in m], n_resamples=n_resamples, seed=seed) \
            if len(m) > 1 and n_resamples else None

    y_true = [lab for _, lab in labelled]
    return MetaEvalResult(
        method=method, n=len(labelled), undefined=sum(s is None for s, _ in labelled),
        lmr_strict=label_match_rate(strict), lmr_strict_ci=ci(strict),
        lmr_moderate=label_match_rate(moderate), lmr_moderate_ci=ci(moderate),
        confusion={lab: dict(c) for lab, c in confusion.items()},
        agreement=agreement(y_true, [predicted_label(s) for s, _ in labelled], LABELS,
                            n_resamples=n_resamples, seed=seed) if labelled else None,
        kappa_moderate=cohen_kappa(y_true, [predicted_label(s, "moderate")
                                            for s, _ in labelled]) if labelled else None)


def score_results(method: str, items: list[LabelledInput], results: list[Evaluation],
                  n_resamples: int = 10_000, seed: int = 42,
                  score_of: Callable[[Evaluation], float | None] | None = None,
                  ) -> MetaEvalResult:
    """Match each item with its Evaluation (by id) and summarise, with and without the rows
    whose two contexts are the same text. ``score_of`` reads an Evaluation's score (default
    its recorded ``comprehensiveness``; e.g. a per-fact evaluation re-read at a cut-off)."""
    by_id = {ev.id: ev for ev in results}
    missing = [it.input.id for it in items if it.input.id not in by_id]
    if missing:
        raise UserInputError(f"no result for {len(missing)} inputs (first: {missing[0]})")
    read = score_of or (lambda ev: ev.scores.get("comprehensiveness"))
    labelled = [(read(by_id[it.input.id]), it.label) for it in items]
    result = label_match_summary(method, labelled, n_resamples, seed)
    distinct = [x for x, it in zip(labelled, items, strict=True) if not it.same_contexts]
    if len(distinct) != len(labelled):
        result.without_same_contexts = label_match_summary(method, distinct, n_resamples, seed)
    return result
