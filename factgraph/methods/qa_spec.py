"""``--method qa``, declared: its options and its spec. The run code
(:mod:`factgraph.methods.qa`) is imported on the first run, not to read the options."""

from __future__ import annotations

from pydantic import Field

from factgraph.methods.options import RelevanceOptions, SummarizeOptions
from factgraph.methods.registry import MethodSpec
from factgraph.plugins import lazy_callable


class QAOptions(RelevanceOptions, SummarizeOptions):
    """Options of ``--method qa`` (defaults follow Dejl et al. 2025, §4)."""

    t_conf: float = Field(2.0, description="Answer confidence threshold T_conf (1-5).")
    use_pint: bool = Field(True, description="Q&A: compare quantities with pint before a model.",
                           json_schema_extra={"flag": "pint"})


QA = MethodSpec(name="qa", options=QAOptions, meta_evaluable=True,
                run=lazy_callable("factgraph.methods.qa:run_qa"),
                description="Questions, answers per text, answer comparison (Dejl et al. 2025, "
                            "§3.2).")
