"""Which judge a run of ``evaluate`` / ``batch`` uses, known before any model is loaded: the
named judge (``--judge``), or the ones ``coverage_judge="auto"`` will pick for the inputs;
and the check that a judge card given beside the run (``--judge-card``) is that judge's."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from factgraph.cli.main import UserError
from factgraph.inputs import EvaluationInput

if TYPE_CHECKING:
    from factgraph.config import EvaluationConfig
    from factgraph.evaluation.meta_eval import JudgeCard
    from factgraph.evaluation.pairwise_report import PairwiseCard


def is_auto(config: EvaluationConfig) -> bool:
    """Whether the run's e2e judge is ``auto`` (picked per input)."""
    from factgraph.methods.comprehensiveness import DEFAULT_COVERAGE_JUDGE

    return (config.method == "e2e"
            and config.options.get("coverage_judge", DEFAULT_COVERAGE_JUDGE) == "auto")


def auto_choices(config: EvaluationConfig, inputs: Iterable[EvaluationInput]
                 ) -> dict[str, list[EvaluationInput]]:
    """The judge ``auto`` picks for each input (``input_kind`` and ``DEFAULT_JUDGES``), as
    judge name → its inputs in order; empty when the run's judge is not ``auto``."""
    from factgraph.methods.comprehensiveness import E2EOptions, input_kind
    from factgraph.methods.judges import DEFAULT_JUDGES

    if not is_auto(config):
        return {}
    min_words = E2EOptions.model_validate(config.options).long_form_min_words
    out: dict[str, list[EvaluationInput]] = {}
    for inp in inputs:
        out.setdefault(DEFAULT_JUDGES[input_kind(inp, min_words)], []).append(inp)
    return out


def run_judges(config: EvaluationConfig, judge: str | None,
               inputs: Iterable[EvaluationInput]) -> set[str]:
    """The names of the judges the run uses: the named judge, else those auto picks; empty
    for an unnamed configuration (``--method nli`` and options)."""
    if judge:
        return {judge}
    return set(auto_choices(config, inputs))


def card_judge(card: JudgeCard | PairwiseCard) -> str:
    """The judge a card measured: a pairwise card's ``judge``; a WikiContradict card names it
    in ``method`` (``e2e-answers-several``, or a method and a note: ``e2e (recorded)``)."""
    from factgraph.evaluation.pairwise_report import PairwiseCard

    return card.judge if isinstance(card, PairwiseCard) else card.method


def check_card(card: JudgeCard | PairwiseCard, path: str, config: EvaluationConfig,
               judges: set[str]) -> None:
    """UserError, naming both, when the card is another judge's than the run's: another named
    judge, or (for a card that names no known judge) another method."""
    from factgraph.methods.judges import JUDGES

    name = card_judge(card)
    if name in JUDGES and judges and judges != {name}:
        runs = ", ".join(sorted(judges))
        raise UserError(f"--judge-card {path} is the card of judge {name}, not of this run's "
                        f"judge {runs} (give {runs}'s card, or run --judge {name})")
    card_method = JUDGES[name].method if name in JUDGES else card.method.split()[0]
    if card_method != config.method:
        raise UserError(f"--judge-card {path} is the card of judge {name} (method "
                        f"{card_method}), not of this run's method {config.method}")
