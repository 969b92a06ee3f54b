"""Which judge a run of ``evaluate`` / ``batch`` uses, known before any model is loaded: the
named judge (``--judge``), or the ones ``coverage_judge="auto"`` will pick for the inputs
(said in one line per run, with whether the text model is used; a judge that needs a model
missing one stops the run at once); and the check that a judge card given beside the run
(``--judge-card``) is that judge's."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from factgraph.cli.output import UserError
from factgraph.inputs import EvaluationInput

log = logging.getLogger(__name__)  # INFO shown without -v (factgraph.cli.quiet sets its level)

if TYPE_CHECKING:
    from factgraph.config import EvaluationConfig
    from factgraph.evaluation.meta_eval import JudgeCard
    from factgraph.evaluation.pairwise_report import PairwiseCard


def is_auto(config: EvaluationConfig) -> bool:
    """Whether the run's e2e judge is ``auto`` (picked per input)."""
    from factgraph.methods.e2e.options import DEFAULT_COVERAGE_JUDGE

    return (config.method == "e2e"
            and config.options.get("coverage_judge", DEFAULT_COVERAGE_JUDGE) == "auto")


def auto_choices(config: EvaluationConfig, inputs: Iterable[EvaluationInput]
                 ) -> dict[str, list[EvaluationInput]]:
    """The judge ``auto`` picks for each input (``input_kind`` and ``DEFAULT_JUDGES``), as
    judge name → its inputs in order; empty when the run's judge is not ``auto``."""
    from factgraph.methods.e2e.auto import input_kind
    from factgraph.methods.e2e.options import E2EOptions
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


def reads_query(config: EvaluationConfig, judge: str | None, inp: EvaluationInput) -> bool:
    """Whether the run reads the input's query: every method and judge does but the evidence
    judge (``coverage_judge="evidence"``, named, set, or the one ``auto`` picks for this input),
    which judges the response against the facts of its texts whatever was asked."""
    from factgraph.methods.judges import JUDGES

    if config.method != "e2e":
        return True
    names = run_judges(config, judge, [inp])
    kinds = {JUDGES[n].options.get("coverage_judge") for n in names if n in JUDGES} if names \
        else {config.options.get("coverage_judge")}
    return kinds != {"evidence"}


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


def check_card_of_evaluation(card: JudgeCard | PairwiseCard, path: str, judge: str | None
                             ) -> None:
    """UserError, naming both, when an Evaluation recorded the judge that made it (``judge``:
    its ``parameters["judge"]``) and the card is another named judge's."""
    from factgraph.methods.judges import JUDGES

    name = card_judge(card)
    if judge in JUDGES and name in JUDGES and name != judge:
        raise UserError(f"--judge-card {path} is the card of judge {name}, not of judge "
                        f"{judge}, which made this evaluation")


# --- what auto picked, said once per run -----------------------------------------------------


def announce_auto(config: EvaluationConfig, inputs: Sequence[EvaluationInput]) -> None:
    """One line (stderr, through ``log``) naming the judges ``auto`` picks for these inputs and
    why, and whether the text model is used; a UserError, before anything runs, when a picked
    judge needs a text model and none is given (naming the model-free judge to name instead).
    Nothing when the run's judge is not ``auto``."""
    from factgraph.methods.judges import JUDGES

    choices = auto_choices(config, inputs)
    if not choices:
        return
    model = config.text_model_spec()
    min_words = _min_words(config)
    if model is None:
        for name, picked in choices.items():
            if JUDGES[name].needs_model:
                raise UserError(_needs_model_line(name, picked, min_words))
    parts = [f"{name} for {_why(name, picked, min_words)}" for name, picked in choices.items()]
    line = "auto judge: " + "; ".join(parts)
    unused = [name for name in choices if not JUDGES[name].needs_model]
    if model is not None and unused and all(name in unused for name in choices):
        line += f". --model {model} is not used: {_model_not_needed(unused[0])}"
    log.info("%s", line)


def _min_words(config: EvaluationConfig) -> int:
    from factgraph.methods.e2e.options import E2EOptions

    return int(E2EOptions.model_validate(config.options).long_form_min_words)


def _why(name: str, picked: Sequence[EvaluationInput], min_words: int) -> str:
    """``1 long-form answer (judged against one text)`` / ``2 short answers (under 80 words,
    over several texts)``."""
    from factgraph.methods.judges import JUDGES

    n = len(picked)
    if JUDGES[name].inputs == "short answer":
        return (f"{n} short answer{'s' if n != 1 else ''} (under {min_words} words, over "
                "several texts)")
    what = f"{n} long-form answer{'s' if n != 1 else ''}"
    given = sum(1 for inp in picked if inp.facts)
    one_text = sum(1 for inp in picked if not inp.facts and len(inp.documents) == 1)
    reasons = []
    if given:
        reasons.append("with given facts" if n == 1 else f"{given} with given facts")
    if one_text:
        reasons.append("judged against one text" if n == 1
                       else f"{one_text} judged against one text")
    if given + one_text < n:
        rest = n - given - one_text
        reasons.append(f"{min_words} words or more" if n == 1
                       else f"{rest} of {min_words} words or more")
    return f"{what} ({', '.join(reasons)})"


def _model_free_judge() -> str:
    """The judge to name instead of one that needs a model: the long-form default when it
    needs none (it judges any input against its texts or given facts), else the first that
    needs none."""
    from factgraph.methods.judges import DEFAULT_JUDGES, JUDGES

    default = DEFAULT_JUDGES["long-form"]
    if not JUDGES[default].needs_model:
        return default
    return next(j.name for j in JUDGES.values() if not j.needs_model)


def _model_not_needed(name: str) -> str:
    """Why the model-free long-form judge leaves the text model unused, and the judge of the
    same kind that asks it."""
    from factgraph.methods.judges import JUDGES

    kind = JUDGES[name].options.get("coverage_judge")
    with_model = sorted((j for j in JUDGES.values()
                         if j.inputs == JUDGES[name].inputs and j.needs_model),
                        key=lambda j: j.options.get("coverage_judge") != kind)
    alternative = f"; --judge {with_model[0].name} asks it" if with_model else ""
    return f"{name} judges long-form answers without a model (docs/judges.md){alternative}"


def _needs_model_line(name: str, picked: Sequence[EvaluationInput], min_words: int) -> str:
    ids = ", ".join(inp.id for inp in picked[:3]) + (", …" if len(picked) > 3 else "")
    why = _why(name, picked, min_words)[:-1]  # without its closing parenthesis
    return (f"auto judge: {name} for {why}; id {ids}) needs a text model (--model): it asks "
            f"the model which answers the texts give and whether the response gives each. "
            f"Give --model SPEC, or --judge {_model_free_judge()} to judge without a model")
