"""Input files of ARGUE report evaluation (Mayfield et al. 2024) and of evidence documents
(Jafari et al. 2026).

Formats (every file may be ``.json`` or ``.jsonl``, optionally ``.gz``; errors name file, line
and field):

* request — plain text (``.txt``/``.md``) or JSON ``{"id": ..., "text": ...}``.
* report — JSON ``{"id": ..., "sentences": [{"id": "s1", "text": ..., "citations": ["D1"]}]}``,
  or JSONL with one sentence per line. Sentence ids default to ``s1, s2, ...`` by position.
* nuggets — JSON list / JSONL of ``{"id": "1", "question": ..., "answers": [{"text": ...,
  "docs": ["D1"]}], "importance": 1.0}``. Answer ids default to ``a1, a2, ...`` per nugget.
* documents (cited docs, evidence) — JSON list / ``{"documents": [...]}`` / JSONL of
  ``{"id", "text"}``.
* judgements — JSON list / ``{"sentences": [...]}`` / JSONL of per-sentence records
  ``{"sentence": "s3", "support": {"D13": true}, "nuggets": [{"nugget": "2", "answer": "a2"}],
  "negative": false, "needs_citation": true, "first_occurrence": true}``. Every field but
  ``sentence`` is optional; an absent field is left to the model judge (``"nuggets": []`` is a
  judgement: the sentence answers no nugget). ``answer`` is an answer id, a 1-based position,
  or the answer text.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from factgraph.errors import InputError, parse_model
from factgraph.inputs import Document
from factgraph.io import iter_jsonl, read_json

M = TypeVar("M", bound=BaseModel)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReportRequest(_Strict):
    id: str = "request"
    text: str


class ReportSentence(_Strict):
    id: str = ""
    text: str
    citations: list[str] = Field(default_factory=list)


class Report(_Strict):
    id: str = "report"
    sentences: list[ReportSentence]

    @model_validator(mode="after")
    def _ids(self) -> Report:
        seen: set[str] = set()
        for n, s in enumerate(self.sentences, 1):
            s.id = s.id or f"s{n}"
            if s.id in seen:
                raise ValueError(f"sentences.{n - 1}.id: duplicate sentence id {s.id!r}")
            seen.add(s.id)
            s.citations = list(dict.fromkeys(s.citations))  # a repeated citation is one
        return self


class NuggetAnswer(_Strict):
    id: str = ""
    text: str = Field(min_length=1)
    docs: list[str] = Field(default_factory=list, description="Documents attesting the answer.")


class Nugget(_Strict):
    id: str = Field(min_length=1)
    question: str = Field(min_length=1)
    answers: list[NuggetAnswer] = Field(min_length=1)
    importance: float | None = Field(default=None, ge=0.0)

    @model_validator(mode="after")
    def _answer_ids(self) -> Nugget:
        seen: set[str] = set()
        for n, a in enumerate(self.answers, 1):
            a.id = a.id or f"a{n}"
            if a.id in seen:
                raise ValueError(f"answers.{n - 1}.id: duplicate answer id {a.id!r}")
            seen.add(a.id)
        return self

    def answer(self, ref: str | int) -> NuggetAnswer | None:
        """The answer named by id, 1-based position or exact text (case-insensitive)."""
        if isinstance(ref, int):
            return self.answers[ref - 1] if 1 <= ref <= len(self.answers) else None
        for a in self.answers:
            if a.id == ref:
                return a
        low = " ".join(ref.split()).casefold()
        return next((a for a in self.answers if " ".join(a.text.split()).casefold() == low),
                    None)


class NuggetMatch(_Strict):
    nugget: str
    answer: str | int


class SentenceJudgements(_Strict):
    """Manual judgements of one sentence; None = not judged here (ask the model)."""

    sentence: str
    support: dict[str, bool] | None = None
    nuggets: list[NuggetMatch] | None = None
    negative: bool | None = None
    needs_citation: bool | None = None
    first_occurrence: bool | None = None


def _records(path: str | os.PathLike[str], key: str | None) -> list[tuple[int | None, Any]]:
    """Objects of a JSONL file (with line numbers) or of a JSON list / ``{key: [...]}``."""
    name = str(path)
    if name.endswith((".jsonl", ".jsonl.gz")):
        return [(line, obj) for line, obj in iter_jsonl(path)]
    data = read_json(path)
    if isinstance(data, dict) and key is not None and key in data:
        data = data[key]
    if not isinstance(data, list):
        raise InputError(path, f"expected a JSON list{f' or {{{key!r}: [...]}}' if key else ''}")
    return [(None, obj) for obj in data]


def _load_list(path: str | os.PathLike[str], model: type[M], key: str | None,
               what: str) -> list[M]:
    out: list[M] = []
    for n, (line, obj) in enumerate(_records(path, key)):
        try:
            out.append(parse_model(model, obj, path, line))
        except InputError as e:
            if line is None:  # a JSON list: name the item
                raise InputError(path, f"{what} {n}: {e.detail}") from None
            raise
    return out


def _unique(path: str | os.PathLike[str], ids: list[str], what: str) -> None:
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise InputError(path, f"duplicate {what} ids {dup}")


def load_documents(path: str | os.PathLike[str]) -> list[Document]:
    """Documents ``{id, text}`` from JSON / JSONL (ids must be unique)."""
    docs = _load_list(path, Document, "documents", "document")
    _unique(path, [d.id for d in docs], "document")
    return docs


def load_request(path: str | os.PathLike[str]) -> ReportRequest:
    """A report request: JSON ``{id, text}`` or the whole of a text file."""
    p = Path(path)
    if p.name.endswith((".json", ".json.gz")):
        return parse_model(ReportRequest, read_json(path), path)
    try:
        return ReportRequest(id=p.stem or "request", text=p.read_text(encoding="utf-8").strip())
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(path, f"cannot read: {e}") from None


def load_report(path: str | os.PathLike[str]) -> Report:
    """A report: JSON ``{id, sentences}`` or JSONL of sentences."""
    name = str(path)
    if name.endswith((".jsonl", ".jsonl.gz")):
        sentences = _load_list(path, ReportSentence, None, "sentence")
        return parse_model(Report, {"id": Path(name).name.split(".")[0],
                                    "sentences": [s.model_dump() for s in sentences]}, path)
    return parse_model(Report, read_json(path), path)


def load_nuggets(path: str | os.PathLike[str]) -> list[Nugget]:
    nuggets = _load_list(path, Nugget, "nuggets", "nugget")
    _unique(path, [n.id for n in nuggets], "nugget")
    return nuggets


def load_judgements(path: str | os.PathLike[str]) -> dict[str, SentenceJudgements]:
    records = _load_list(path, SentenceJudgements, "sentences", "judgement")
    _unique(path, [r.sentence for r in records], "judged sentence")
    return {r.sentence: r for r in records}


_CITE = re.compile(r"\s*\[([^\[\]]+)\]")
_LEADING = re.compile(r"^(?:\s*\[[^\[\]]+\])+")
_SENT = re.compile(r"(?<=[.!?])\s+(?=\S)|\n+")


def _cites(text: str) -> list[str]:
    return [c.strip() for m in _CITE.finditer(text) for c in m.group(1).split(",") if c.strip()]


def report_from_text(text: str, report_id: str = "report") -> Report:
    """A report from plain text: one sentence per ``.``/``!``/``?`` or line break; bracketed
    citations ``[D1, D2]`` in a sentence, or right after its full stop, are its citations."""
    sentences: list[dict[str, Any]] = []
    for piece in (p.strip() for p in _SENT.split(text)):
        lead = _LEADING.match(piece)
        if lead and sentences:  # "... billion. [D12]": the citation belongs to the sentence before
            sentences[-1]["citations"] += _cites(lead.group())
            piece = piece[lead.end():].strip()
        clean = " ".join(_CITE.sub("", piece).split())
        if clean:
            sentences.append({"text": clean, "citations": _cites(piece)})
    return Report.model_validate({"id": report_id, "sentences": sentences})
