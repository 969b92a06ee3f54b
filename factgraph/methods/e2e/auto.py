"""The default judge (``coverage_judge="auto"``): per input, the judge that measured best for
its kind (``DEFAULT_JUDGES`` of ``factgraph.methods.judges``: the answers judge for a short
answer, the sentences judge for a long-form one)."""

from __future__ import annotations

import logging
from typing import Literal

from factgraph.inputs import EvaluationInput
from factgraph.methods.context import ContextStore
from factgraph.methods.e2e.kinds import JUDGE_OPTIONS, get_judge_kind
from factgraph.methods.e2e.options import E2EOptions
from factgraph.models import Evaluation
from factgraph.stages.session import ModelSession

log = logging.getLogger(__name__)


def input_kind(inp: EvaluationInput, long_form_min_words: int) -> Literal["short answer",
                                                                         "long-form"]:
    """What ``coverage_judge="auto"`` decides by: ``long-form`` when the response has at least
    ``long_form_min_words`` words or is judged against one text alone (a reference answer, as
    in RAGChecker's set), else ``short answer`` (a short response to a question over several
    background texts, as in WikiContradict). On the two dev sets this routes every RAGChecker
    answer to the long-form judge and 1,167 of WikiContradict's 1,200 answers to the
    short-answer judge (the 33 others have 80 words or more). An input with given facts is
    long-form: its facts are judged as the long-form judge judges a reference's clauses."""
    if inp.facts or len(inp.documents) == 1 \
            or len(inp.response.split()) >= long_form_min_words:
        return "long-form"
    return "short answer"


def resolve_auto_judge(inp: EvaluationInput, options: E2EOptions
                       ) -> tuple[E2EOptions, str]:
    """The options of the default judge for this input's kind (``DEFAULT_JUDGES``), with every
    option the user set explicitly kept where that judge takes it; and the judge's name.
    Logged once per input."""
    from factgraph.methods.judges import DEFAULT_JUDGES, get_judge

    kind = input_kind(inp, options.long_form_min_words)
    judge = get_judge(DEFAULT_JUDGES[kind])
    auto = options.judge
    chosen = JUDGE_OPTIONS[judge.options["coverage_judge"]]
    given = {k: getattr(auto, k) for k in auto.model_fields_set
             if k != "coverage_judge" and k in chosen.model_fields}
    log.info("%s: a %s (%d words): judge %s", inp.id, kind, len(inp.response.split()),
             judge.name)
    resolved = chosen.model_validate({**judge.options, **given})
    return options.model_copy(update={"judge": resolved}), judge.name


def run_auto(inp: EvaluationInput, session: ModelSession, options: E2EOptions,
             context_store: ContextStore | None = None) -> Evaluation:
    """Run the judge :func:`resolve_auto_judge` chooses; its name is recorded as the
    parameter ``judge``."""
    options, chosen = resolve_auto_judge(inp, options)
    ev = get_judge_kind(options.coverage_judge).run(inp, session, options, context_store)
    # the judge that ran, and its options (recorded instead of auto's)
    ev.parameters = {**options.flat(), **ev.parameters, "judge": chosen}
    return ev
