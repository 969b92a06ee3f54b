"""ICAT as the iteration gate of an agentic RAG loop (as in an ICAT integration guide for a
LangGraph multi-agent RAG system, "Termination Logic").

After each draft the loop scores it with ICAT and asks ``iteration_gate`` whether to stop.
Checks, in order: ICAT ≥ ``threshold`` (stop: ``threshold_met``); ``iteration ≥
max_iterations`` (stop: ``max_iterations``); ``budget_spent ≥ budget`` (stop:
``budget_exhausted``); otherwise continue, with a warning when ICAT improved by less than
``min_improvement`` over the previous draft. Every decision carries actionable feedback: the
component to improve first (factuality or coverage), the unsupported claims and the uncovered
aspects. Pure and deterministic: same inputs, same decision.

ICAT here is ``icat_score(S_fact, S_cov, β)`` (Samarinas et al. 2025, Eq. 3); with the graded
coverage of the ICAT integration guide (well + 0.5 · partial) when the DraftScore is built with
``graded=True``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from factgraph.metrics.icat import icat_score
from factgraph.models import Evaluation, Origin, StatementKind

StopReason = Literal["threshold_met", "max_iterations", "budget_exhausted", "continue"]
Component = Literal["factuality", "coverage"]


class GateConfig(BaseModel):
    """Thresholds of the gate (defaults: the ICAT integration guide's "General Q&A" row)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    threshold: float = Field(0.85, ge=0.0, le=1.0, description="Stop when ICAT ≥ this.")
    max_iterations: int = Field(3, ge=1, description="Stop after this many drafts.")
    budget: float | None = Field(None, ge=0.0, description="Stop when budget_spent reaches "
                                 "this (the caller's unit: tokens, seconds, dollars).")
    min_improvement: float = Field(0.02, ge=0.0, description="Warn when ICAT rose less.")
    min_fact: float = Field(0.80, ge=0.0, le=1.0, description="S_fact below this needs work.")
    min_coverage: float = Field(0.80, ge=0.0, le=1.0, description="S_cov below this needs "
                                                                  "work.")
    beta: float = Field(1.0, gt=0.0, description="β of ICAT_β.")
    max_listed: int = Field(10, ge=0, description="List at most this many claims / aspects.")


class DraftScore(BaseModel):
    """What the gate needs from one draft's ICAT evaluation."""

    model_config = ConfigDict(extra="forbid")

    s_fact: float | None = Field(None, ge=0.0, le=1.0)
    s_coverage: float | None = Field(None, ge=0.0, le=1.0)
    unsupported_claims: list[str] = Field(default_factory=list)
    uncovered_aspects: list[str] = Field(default_factory=list)
    partial_aspects: list[str] = Field(default_factory=list)

    @classmethod
    def from_evaluation(cls, ev: Evaluation, graded: bool = False) -> DraftScore:
        """From an ICAT Evaluation (``factgraph.methods.icat``); ``graded`` uses the well /
        partial coverage of the ICAT integration guide."""
        text = {s.id: s.text for s in ev.graph.statements}
        kind = {s.id: s.kind for s in ev.graph.statements if s.origin == Origin.response
                or s.kind == StatementKind.aspect}
        unsupported, uncovered, partial = [], [], []
        for v in ev.verdicts:
            k = kind.get(v.statement_id)
            if k == StatementKind.claim and v.label != "supported":
                unsupported.append(text[v.statement_id])
            elif k == StatementKind.aspect and v.label == "uncovered":
                uncovered.append(text[v.statement_id])
            elif k == StatementKind.aspect and v.label == "partially_covered":
                partial.append(text[v.statement_id])
        cov = ev.scores.get("s_coverage_graded" if graded else "s_coverage")
        return cls(s_fact=ev.scores.get("s_fact"), s_coverage=cov,
                   unsupported_claims=unsupported, uncovered_aspects=uncovered,
                   partial_aspects=partial)


class GateDecision(BaseModel):
    """The gate's answer for one draft."""

    model_config = ConfigDict(extra="forbid")

    stop: bool
    reason: StopReason
    iteration: int
    icat: float | None
    s_fact: float | None
    s_coverage: float | None
    improvement: float | None = Field(None, description="ICAT minus the previous draft's.")
    focus: Component | None = Field(None, description="The component to improve first.")
    unsupported_claims: list[str] = Field(default_factory=list)
    uncovered_aspects: list[str] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    feedback: list[str] = Field(default_factory=list)


def _focus(s_fact: float, s_cov: float, cfg: GateConfig) -> Component:
    """Below-minimum components first (the larger shortfall wins); else the lower one, which
    moves a harmonic mean most. Ties go to factuality: unsupported text is the worse fault."""
    short_f, short_c = cfg.min_fact - s_fact, cfg.min_coverage - s_cov
    if short_f > 0 or short_c > 0:
        return "factuality" if short_f >= short_c else "coverage"
    return "factuality" if s_fact <= s_cov else "coverage"


def _listed(items: list[str], n: int) -> str:
    shown = "; ".join(items[:n])
    return shown + (f"; … ({len(items) - n} more)" if len(items) > n else "")


def iteration_gate(score: DraftScore, iteration: int, config: GateConfig | None = None,
                   history: Sequence[float | None] = (), budget_spent: float = 0.0
                   ) -> GateDecision:
    """Whether the loop stops after draft number ``iteration`` (1-based). ``history``: the ICAT
    of earlier drafts, oldest first; ``budget_spent``: in the unit of ``config.budget``."""
    cfg = config or GateConfig()
    if iteration < 1:
        raise ValueError(f"iteration is 1-based, got {iteration}")
    icat = (None if score.s_fact is None or score.s_coverage is None
            else icat_score(score.s_fact, score.s_coverage, cfg.beta))
    warnings: list[str] = []
    previous = next((h for h in reversed(history) if h is not None), None)
    improvement = None if icat is None or previous is None else icat - previous
    if icat is None:
        warnings.append("ICAT could not be computed for this draft (see the evaluation's "
                        "incomplete reason)")
    if improvement is not None and improvement < cfg.min_improvement:
        warnings.append(f"ICAT improved by {improvement:+.3f} (< {cfg.min_improvement:.3f}): "
                        "diminishing returns")

    if icat is not None and icat >= cfg.threshold:
        reason: StopReason = "threshold_met"
    elif iteration >= cfg.max_iterations:
        reason = "max_iterations"
    elif cfg.budget is not None and budget_spent >= cfg.budget:
        reason = "budget_exhausted"
    else:
        reason = "continue"

    focus: Component | None = None
    feedback: list[str] = []
    if icat is not None and reason != "threshold_met":
        assert score.s_fact is not None and score.s_coverage is not None
        focus = _focus(score.s_fact, score.s_coverage, cfg)
        feedback.append(f"ICAT {icat:.3f} is {cfg.threshold - icat:.3f} below the target "
                        f"{cfg.threshold:.3f}; improve {focus} first (S_fact "
                        f"{score.s_fact:.3f}, S_coverage {score.s_coverage:.3f}).")
    n = cfg.max_listed
    if score.unsupported_claims and reason != "threshold_met":
        feedback.append(f"Find evidence for or remove {len(score.unsupported_claims)} "
                        f"unsupported claim(s): {_listed(score.unsupported_claims, n)}")
    if score.uncovered_aspects and reason != "threshold_met":
        feedback.append(f"Address {len(score.uncovered_aspects)} uncovered aspect(s): "
                        f"{_listed(score.uncovered_aspects, n)}")
    if score.partial_aspects and reason != "threshold_met":
        feedback.append(f"Expand {len(score.partial_aspects)} partially covered aspect(s): "
                        f"{_listed(score.partial_aspects, n)}")
    return GateDecision(
        stop=reason != "continue", reason=reason, iteration=iteration, icat=icat,
        s_fact=score.s_fact, s_coverage=score.s_coverage, improvement=improvement,
        focus=focus, unsupported_claims=list(score.unsupported_claims),
        uncovered_aspects=list(score.uncovered_aspects), warnings=warnings, feedback=feedback)
