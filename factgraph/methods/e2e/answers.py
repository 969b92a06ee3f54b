"""The answers judge (``coverage_judge="answers"``): the answers each text gives to the query,
one yes/no question per answer, after a word check, with the polarity question and the
several-answers check (:mod:`factgraph.methods.e2e.fact_questions`)."""

from __future__ import annotations

from typing import Literal

from factgraph.methods.e2e.fact_questions import run_fact_questions
from factgraph.methods.e2e.kinds import JudgeKind
from factgraph.methods.e2e.options import AnswerFields, cutoff_field


class AnswersJudge(AnswerFields):
    """The answers each text gives to the query, one yes/no question per answer."""

    coverage_judge: Literal["answers"] = "answers"
    coverage_cutoff: float = cutoff_field(0.7)


KIND = JudgeKind(name="answers", options=AnswersJudge, run=run_fact_questions,
                 help="the answers each text gives to the query and one yes/no question per "
                      "answer ('answers')")
