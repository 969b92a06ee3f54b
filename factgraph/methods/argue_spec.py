"""``--method argue``, declared: its options and its spec. The run code
(:mod:`factgraph.methods.argue`) is imported on the first run, not to read the options."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from factgraph.methods.registry import MethodSpec
from factgraph.plugins import lazy_callable


class ArgueOptions(BaseModel):
    """Files of an ARGUE evaluation (paths; the report and request override the input's)."""

    model_config = ConfigDict(extra="forbid")

    request: str | None = Field(None, description="Report request: text, or JSON {id, text}.")
    report: str | None = Field(None, description="Report: JSON {id, sentences} or JSONL of "
                                                 "{text, citations}.")
    nuggets: str | None = Field(None, description="Nuggets JSON/JSONL.")
    docs: str | None = Field(None, description="Cited documents JSON/JSONL {id, text}.")
    judgements: str | None = Field(None, description="Manual judgements JSON/JSONL.")


ARGUE = MethodSpec(name="argue", options=ArgueOptions, main_score="recall",
                   run=lazy_callable("factgraph.methods.argue:run_argue"),
                   needs_response=False,
                   description="ARGUE: a report with citations against nuggets (Mayfield et "
                               "al. 2024).")
