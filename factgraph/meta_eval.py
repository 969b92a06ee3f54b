"""Meta-evaluation of recorded comprehensiveness judgements against WikiContradict labels.

Reads end-to-end judgement rows such as ``ibm_e2e_judgements.jsonl.gz`` (one row per judge,
question and answer: covered / uncovered statements), turns each into a comprehensiveness
score, maps the score to a label and compares it with the adjusted human label
(seed 001 App. B). Aggregates per judge: matches, LMR (strict and moderate), BCa 95% CI.
"""

from __future__ import annotations

import os
from collections import defaultdict
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from factgraph.graph import comprehensiveness_score
from factgraph.io import read_jsonl
from factgraph.metrics.bootstrap import bca_interval
from factgraph.metrics.lmr import (
    adjusted_human_label,
    label_match_rate,
    moderate_label,
    strict_label,
)


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
    moderate: dict[str, list[bool]] = defaultdict(list)
    by_index: dict[str, dict[int, list[bool]]] = defaultdict(lambda: defaultdict(list))
    empty: dict[str, int] = defaultdict(int)
    for row in rows:
        target = adjusted_human_label(row.human_label, row.answer_index)
        s = row_score(row, empty_score)
        if not row.covered and not row.uncovered:
            empty[row.judge] += 1
        ok = s is not None and strict_label(s) == target
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
            lmr_strict_ci=bca_interval([float(x) for x in m], n_resamples=n_resamples, seed=seed),
            matches_moderate=sum(moderate[judge]),
            lmr_moderate=label_match_rate(moderate[judge]),
            no_statements=empty[judge],
            lmr_by_answer_index={
                k: label_match_rate(v) for k, v in sorted(by_index[judge].items())
            },
        ))
    return out


def load_judgements(path: str | os.PathLike[str]) -> list[JudgementRow]:
    """Read a judgements JSONL(.gz) file; a bad row raises InputError naming its line."""
    return [row for _, row in read_jsonl(path, JudgementRow)]
