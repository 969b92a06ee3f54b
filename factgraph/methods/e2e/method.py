"""``--method e2e``: the options name a judge kind, and the kind's ``run`` judges the input
(:mod:`factgraph.methods.e2e.kinds`). Declaring it imports no stage: the kind's run code is
imported when it first runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from factgraph.methods.e2e.kinds import get_judge_kind
from factgraph.methods.e2e.options import E2EOptions
from factgraph.methods.registry import MethodSpec

if TYPE_CHECKING:
    from factgraph.inputs import EvaluationInput
    from factgraph.methods.context import ContextStore
    from factgraph.models import Evaluation
    from factgraph.stages.session import ModelSession


def run_e2e(inp: EvaluationInput, session: ModelSession, options: E2EOptions,
            context_store: ContextStore | None = None) -> Evaluation:
    """End-to-end comprehensiveness (Dejl et al. 2025, §3.3): the whole response is one response
    statement; each fact of the judge is a context statement, entailed by it when covered."""
    return get_judge_kind(options.coverage_judge).run(inp, session, options, context_store)


E2E = MethodSpec(name="e2e", options=E2EOptions, run=run_e2e, meta_evaluable=True,
                 description="One judge reads the response against the texts (Dejl et al. "
                             "2025, §3.3); coverage_judge picks how.")
