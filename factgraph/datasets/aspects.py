"""Query aspects and aspect-level relevance judgements from files (ICAT-M / ICAT-S; Samarinas
et al. 2025, §3.3).

Aspect files:

* JSON: a list of aspects, each a string or ``{"id": ..., "text": ..., "topic": ...?}``
  (or an object ``{"aspects": [...]}``); ids default to ``1, 2, ...`` in file order.
* JSONL: one aspect per line, same shapes.
* TREC Web Track topic files (NIST XML, ``topics.web.1-50.txt`` ...): the subtopics of one
  topic, ids = subtopic numbers. A folder of such files is read as one set of topics.

Rows that carry a ``topic`` field are kept only for the selected topic, so one file can hold the
aspects of many queries.

Qrels (ICAT-M): TREC diversity judgements, one ``TOPIC SUBTOPIC DOCID REL`` per line
(whitespace-separated; blank lines and ``#`` comments ignored). ``REL > 0`` means the document
is relevant to that aspect; DOCID is the corpus document id.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from factgraph.errors import InputError
from factgraph.io import iter_jsonl, open_text


class Aspect(BaseModel):
    """One aspect (subtopic) of a query."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1)
    text: str = Field(min_length=1)


class TrecSubtopic(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    number: str
    type: str | None = None
    text: str


class TrecTopic(BaseModel):
    """A TREC Web Track topic: query (title), description, type and subtopics."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    number: str
    type: str | None = None
    query: str
    description: str
    subtopics: list[TrecSubtopic]

    def aspects(self) -> list[Aspect]:
        return [Aspect(id=s.number, text=s.text) for s in self.subtopics]


def _clean(text: str | None) -> str:
    return " ".join((text or "").split())


def _trec_file(path: Path) -> list[TrecTopic]:
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        raise InputError(path, f"not a TREC topic XML file: {e}", line=e.position[0]) from None
    topics = []
    for t in root.iter("topic"):
        number = t.get("number")
        if not number:
            raise InputError(path, "a <topic> has no number attribute")
        topics.append(TrecTopic(
            number=number.strip(), type=t.get("type"), query=_clean(t.findtext("query")),
            description=_clean(t.findtext("description")),
            subtopics=[TrecSubtopic(number=(s.get("number") or str(n)).strip(),
                                    type=s.get("type"), text=_clean(s.text))
                       for n, s in enumerate(t.findall("subtopic"), 1)]))
    return topics


def read_trec_topics(path: str | os.PathLike[str]) -> list[TrecTopic]:
    """Topics of a TREC Web Track topic file, or of every ``topics*`` file in a folder,
    sorted by topic number; duplicate topic numbers are an error."""
    p = Path(path)
    if p.is_dir():
        files = sorted(f for f in p.iterdir() if f.is_file() and f.name.startswith("topics"))
        if not files:
            raise InputError(p, "no topics* files in this folder")
    elif p.is_file():
        files = [p]
    else:
        raise InputError(p, "no such file or folder")
    seen: dict[str, Path] = {}
    out: list[TrecTopic] = []
    for f in files:
        for t in _trec_file(f):
            if t.number in seen:
                raise InputError(f, f"topic {t.number} also appears in {seen[t.number]}")
            seen[t.number] = f
            out.append(t)
    return sorted(out, key=lambda t: (len(t.number), t.number))


def _is_trec(path: Path) -> bool:
    if path.is_dir():
        return True
    with open_text(path) as f:
        head = f.read(2048).lstrip()
    return head.startswith("<") or "<topic" in head


def _aspect_rows(path: Path) -> list[tuple[int | None, Any]]:
    name = path.name.removesuffix(".gz")
    if name.endswith(".jsonl"):
        return list(iter_jsonl(path))
    try:
        with open_text(path) as f:
            data = json.load(f)
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except json.JSONDecodeError as e:
        raise InputError(path, f"invalid JSON: {e.msg} (column {e.colno})", line=e.lineno) from None
    if isinstance(data, dict) and isinstance(data.get("aspects"), list):
        data = data["aspects"]
    if not isinstance(data, list):
        raise InputError(path, 'expected a JSON list of aspects (or {"aspects": [...]})')
    return [(None, row) for row in data]


def load_aspects(path: str | os.PathLike[str], topic: str | None = None) -> list[Aspect]:
    """The aspects of a query from an aspects file or TREC topics (``topic`` picks one)."""
    p = Path(path)
    if not p.exists():
        raise InputError(p, "no such file or folder")
    if _is_trec(p):
        topics = read_trec_topics(p)
        if topic is None:
            if len(topics) != 1:
                raise InputError(p, f"{len(topics)} TREC topics here: pick one with --topic")
            return topics[0].aspects()
        for t in topics:
            if t.number == str(topic).strip():
                return t.aspects()
        raise InputError(p, f"no TREC topic {topic}")
    aspects: list[Aspect] = []
    for n, (line, row) in enumerate(_aspect_rows(p), 1):
        if isinstance(row, str):
            row = {"text": row}
        if not isinstance(row, dict) or not isinstance(row.get("text"), str):
            raise InputError(p, f"aspect {n}: expected a string or an object with 'text'",
                             line=line)
        if topic is not None and "topic" in row and str(row["topic"]) != str(topic):
            continue
        text = _clean(row["text"])
        if not text:
            raise InputError(p, f"aspect {n}: empty text", line=line)
        aspects.append(Aspect(id=str(row.get("id", len(aspects) + 1)), text=text))
    ids = [a.id for a in aspects]
    dup = next((i for i in ids if ids.count(i) > 1), None)
    if dup is not None:
        raise InputError(p, f"duplicate aspect id {dup!r}")
    if not aspects:
        raise InputError(p, "no aspects" + (f" for topic {topic}" if topic else ""))
    return aspects


Qrels = dict[str, dict[str, set[str]]]
"""topic -> document id -> the aspect (subtopic) ids it is relevant to."""

_QREL = re.compile(r"^(\S+)\s+(\S+)\s+(\S+)\s+(-?\d+)\s*$")


def load_qrels(path: str | os.PathLike[str]) -> Qrels:
    """Aspect-level relevance judgements (``TOPIC SUBTOPIC DOCID REL`` lines)."""
    p = Path(path)
    out: Qrels = defaultdict(lambda: defaultdict(set))
    try:
        f = open_text(p)
    except FileNotFoundError:
        raise InputError(p, "no such file") from None
    with f:
        for line, raw in enumerate(f, 1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            m = _QREL.match(text)
            if m is None:
                raise InputError(p, "expected 'TOPIC SUBTOPIC DOCID REL' (REL an integer)",
                                 line=line)
            topic, sub, doc, rel = m.groups()
            if int(rel) > 0:
                out[topic][doc].add(sub)
            else:
                out[topic].setdefault(doc, set())
    return {t: dict(d) for t, d in out.items()}
