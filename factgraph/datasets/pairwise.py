"""Pairwise human preferences between two long-form answers to one query.

The format of RAGChecker's meta-evaluation set (Ru et al. 2024, "RAGChecker: A Fine-grained
Framework for Diagnosing Retrieval-Augmented Generation", §4): one JSON object per line with a
query, a long reference answer (``gt_answer``), two responses from different systems
(``model1`` / ``model2``) and one or more annotators' preference labels in −2..2, where a label
> 0 means model2's answer is the better one. ``documents`` (optional) are background texts a
data set may give instead of, or beside, the reference answer.

``factgraph schema pairwise`` prints the JSON Schema; a bad row is one line naming the file,
the line and the field (``InputError``).
"""

from __future__ import annotations

import os
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from factgraph.errors import UserInputError
from factgraph.inputs import Document
from factgraph.io import read_jsonl

Label = Literal["completeness", "correctness", "overall"]
LABELS: tuple[Label, ...] = ("completeness", "correctness", "overall")


class PreferenceLabels(BaseModel):
    """One annotator's preferences for one pair: > 0 prefers model2's answer, 0 is a tie."""

    model_config = ConfigDict(extra="forbid")

    correctness_label: int = Field(ge=-2, le=2)
    completeness_label: int = Field(ge=-2, le=2)
    overall_label: int = Field(ge=-2, le=2)

    def label(self, name: Label) -> int:
        return int(getattr(self, f"{name}_label"))


class PairedResponse(BaseModel):
    """One system's answer, with the scores another tool recorded for it (e.g. RAGChecker's
    ``completeness_label``, its claim recall against the reference)."""

    model_config = ConfigDict(extra="forbid")

    model_name: str = Field(min_length=1)
    response: str
    ragchecker: dict[str, float] | None = Field(
        None, description="RAGChecker's recorded scores of this response, by label name "
                          "(correctness_label, completeness_label, overall_label).")


class PairwiseInstance(BaseModel):
    """One query, its reference answer, two responses and the annotators' labels."""

    model_config = ConfigDict(extra="forbid")

    instance_id: int | str
    dataset: str | None = Field(None, description="Domain or source data set.")
    query_id: str | None = None
    query: str = Field(min_length=1)
    gt_answer: str | None = Field(None, description="The long reference answer.")
    documents: list[Document] = Field(default_factory=list,
                                      description="Background texts, where a data set has "
                                                  "them.")
    model1: PairedResponse
    model2: PairedResponse
    human: list[PreferenceLabels] = Field(min_length=1)

    def background(self, use: Literal["reference", "documents", "both"] = "reference"
                   ) -> list[Document]:
        """The texts a response is judged against: the reference answer (as one document
        ``reference``), the given documents, or both. ValueError when the row lacks them."""
        docs: list[Document] = []
        if use in ("reference", "both"):
            if not self.gt_answer:
                raise UserInputError(f"instance {self.instance_id}: no gt_answer to judge against")
            docs.append(Document(id="reference", text=self.gt_answer))
        if use in ("documents", "both"):
            if not self.documents:
                raise UserInputError(f"instance {self.instance_id}: no documents to judge against")
            docs.extend(self.documents)
        return docs


def load_pairwise(path: str | os.PathLike[str]) -> list[PairwiseInstance]:
    """Every instance of a pairwise file (JSONL, optionally .gz); a bad row raises
    ``InputError`` naming its line and field; a repeated ``instance_id`` is an error too."""
    from factgraph.errors import InputError

    out: list[PairwiseInstance] = []
    seen: set[str] = set()
    for lineno, row in read_jsonl(path, PairwiseInstance):
        key = str(row.instance_id)
        if key in seen:
            raise InputError(path, f"instance_id {key!r} appears twice", line=lineno)
        seen.add(key)
        out.append(row)
    return out
