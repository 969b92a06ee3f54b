"""Fact-level human labels: for each response, the facts it should hold and whether people
found each one in it.

The "fact-labels" format, one JSON object per line (JSONL, optionally ``.gz``); the REALSumm
SCU file (Bhandari et al. 2020, "Re-evaluating Evaluation in Text Summarization", EMNLP;
``../shared/data/realsumm/scu_presence_dev.jsonl.gz``) reads as is:

* ``doc`` — the item the responses answer (an article, a query): facts are shared by every
  response to one ``doc``, and statistics resample whole ``doc``\\ s;
* ``system`` — who wrote the response (``doc`` + ``system`` is unique in a file);
* ``summary`` — the response (a summary, an answer);
* ``query`` — optional: the question the response answers ("" when absent);
* ``scus`` — the facts: ``[{id, text, present, votes}]``, ``present`` the people's label (true:
  the fact is stated in the response), ``votes`` the individual annotators' 1 / 0 labels where
  kept (the first two give the people's own agreement).

``factgraph schema facts`` prints the JSON Schema; a bad row is one line naming the file, the
line and the field (``InputError``).
"""

from __future__ import annotations

import os

from pydantic import BaseModel, ConfigDict, Field

from factgraph.io import read_jsonl


class LabelledFact(BaseModel):
    """One fact with the people's label for one response."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, description="The fact's id (shared by every response to "
                                              "the same doc).")
    text: str = Field(min_length=1, description="The fact, one self-contained statement.")
    present: bool = Field(description="The people's label: the fact is stated in the response "
                                      "(for several annotators, their majority).")
    votes: list[int] = Field(default_factory=list,
                             description="The annotators' own labels, 1 = present, 0 = not, "
                                         "in a fixed order.")

    def vote_pair(self) -> tuple[bool, bool] | None:
        """(first annotator, second annotator), None with fewer than two votes."""
        return (bool(self.votes[0]), bool(self.votes[1])) if len(self.votes) >= 2 else None


class FactLabelsRow(BaseModel):
    """One response and its labelled facts."""

    model_config = ConfigDict(extra="forbid")

    doc: str = Field(min_length=1, description="The article / item the response is about.")
    system: str = Field(min_length=1, description="Who wrote the response.")
    summary: str = Field(description="The response (a summary or an answer).")
    query: str | None = Field(None, description="The question the response answers, if any.")
    scus: list[LabelledFact] = Field(min_length=1, description="The facts and their labels.")

    @property
    def row_id(self) -> str:
        """The id of this response's Evaluation: ``"<doc>/<system>"``."""
        return f"{self.doc}/{self.system}"


def load_fact_labels(path: str | os.PathLike[str]) -> list[FactLabelsRow]:
    """Every row of a fact-labels file; a bad row, a repeated (doc, system) or a fact id
    repeated within a row raises ``InputError`` naming its line."""
    from factgraph.errors import InputError

    out: list[FactLabelsRow] = []
    seen: set[str] = set()
    for lineno, row in read_jsonl(path, FactLabelsRow):
        if row.row_id in seen:
            raise InputError(path, f"doc/system {row.row_id!r} appears twice", line=lineno)
        ids = [f.id for f in row.scus]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise InputError(path, f"scus: duplicate fact ids {dup}", line=lineno)
        for n, f in enumerate(row.scus):
            if any(v not in (0, 1) for v in f.votes):
                raise InputError(path, f"scus.{n}.votes: each vote is 0 or 1", line=lineno)
        seen.add(row.row_id)
        out.append(row)
    return out


def select_rows(rows: list[FactLabelsRow], docs: int | None = None,
                limit: int | None = None) -> list[FactLabelsRow]:
    """A fixed subset: the rows of the first ``docs`` docs in sorted order of their ids, then
    the first ``limit`` of those in file order (None: all)."""
    if docs is not None:
        keep = set(sorted({r.doc for r in rows})[:docs])
        rows = [r for r in rows if r.doc in keep]
    return rows if limit is None else rows[:limit]
