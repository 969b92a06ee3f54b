"""The per-fact judge (``coverage_judge="per-fact"``): context facts extracted once per query
and texts, one yes/no question per fact (:mod:`factgraph.methods.e2e.fact_questions`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from factgraph.methods.e2e.fact_questions import run_fact_questions
from factgraph.methods.e2e.kinds import JudgeKind
from factgraph.methods.e2e.options import QuestionFields, cutoff_field


class PerFactJudge(QuestionFields):
    """Context facts extracted once per query and texts, one yes/no question per fact."""

    coverage_judge: Literal["per-fact"] = "per-fact"
    coverage_cutoff: float = cutoff_field(0.3)
    max_facts_per_text: int = Field(8, ge=1, description="E2E per-fact: facts kept per text.")


KIND = JudgeKind(name="per-fact", options=PerFactJudge, run=run_fact_questions,
                 help="context facts extracted once per query and one yes/no question per "
                      "fact ('per-fact')")
