"""Claim → aspect alignment (Samarinas et al. 2025, §3.3, "Methods of Obtaining the Aspects of an
Atomic Claim"; the well / partial degree as in an ICAT integration guide for a LangGraph
multi-agent RAG system).

* ``align_with_qrels`` (ICAT-M): a supported claim covers the aspects that its best-ranked
  entailing passage's document is judged relevant to (aspect-level qrels).
* ``align_with_model`` (ICAT-S / ICAT-A): one model call lists, per covered aspect, the claims
  that address it (their numbers are the evidence) and a degree, ``well`` or ``partial``.
  Numbers outside the lists shown are dropped, counted (``<stage>.invalid_aspect_ids``,
  ``<stage>.invalid_claim_ids``, ``<stage>.aspects_without_evidence``) and recorded in
  ``Alignment.dropped``; an aspect is covered only with at least one valid claim number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from factgraph.stages.prompting import numbered
from factgraph.stages.session import ModelSession

Degree = Literal["well", "partial"]


class CoveredAspect(BaseModel):
    model_config = ConfigDict(extra="ignore")

    aspect: Any
    claims: list[Any] = Field(default_factory=list)
    degree: Any = "well"


class AlignReply(BaseModel):
    """The reply: ``{"covered": [{"aspect": 1, "claims": [2], "degree": "well"}]}``."""

    model_config = ConfigDict(extra="ignore")

    covered: list[CoveredAspect]


@dataclass
class Alignment:
    """``covers[aspect][claim] = degree`` with positions into the lists given; ``dropped``
    lists what the reply named that did not exist."""

    covers: dict[int, dict[int, Degree]] = field(default_factory=dict)
    dropped: list[dict[str, Any]] = field(default_factory=list)

    def degree(self, aspect: int) -> Degree | None:
        """``well`` if any claim covers the aspect well, ``partial`` if only partially."""
        got = set(self.covers.get(aspect, {}).values())
        return "well" if "well" in got else ("partial" if got else None)


_NUMBER = re.compile(r"^\s*[A-Za-z#]*\s*(\d+)\s*$")


def _number(value: Any, n: int) -> int | None:
    """A 1-based number shown to the model -> a 0-based position, or None when invalid.
    Accepts ``3``, ``"3"``, ``"C3"``, ``"#3"``; booleans and floats are invalid."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        k = value
    elif isinstance(value, str) and (m := _NUMBER.match(value)):
        k = int(m.group(1))
    else:
        return None
    return k - 1 if 1 <= k <= n else None


def _degree(value: Any) -> Degree:
    return "partial" if str(value).strip().lower().startswith("part") else "well"


def parse_alignment(reply: AlignReply, n_aspects: int, n_claims: int, session: ModelSession,
                    stage: str = "align") -> Alignment:
    """Validated alignment of a reply; invalid numbers dropped, counted and recorded."""
    out = Alignment()
    for entry in reply.covered:
        a = _number(entry.aspect, n_aspects)
        if a is None:
            session.count(f"{stage}.invalid_aspect_ids")
            out.dropped.append({"aspect": entry.aspect, "claims": entry.claims,
                                "reason": "unknown aspect"})
            continue
        claims = []
        for c in entry.claims:
            k = _number(c, n_claims)
            if k is None:
                session.count(f"{stage}.invalid_claim_ids")
                out.dropped.append({"aspect": entry.aspect, "claim": c,
                                    "reason": "unknown claim"})
            else:
                claims.append(k)
        if not claims:
            session.count(f"{stage}.aspects_without_evidence")
            out.dropped.append({"aspect": entry.aspect, "claims": entry.claims,
                                "reason": "no valid claim as evidence"})
            continue
        slot = out.covers.setdefault(a, {})
        for k in claims:
            if slot.get(k) != "well":  # "well" from any entry wins over "partial"
                slot[k] = _degree(entry.degree)
    return out


def align_with_model(session: ModelSession, query: str, aspects: Sequence[str],
                     claims: Sequence[str], stage: str = "align") -> Alignment | None:
    """Which aspects the (supported) claims cover; ``None`` when the reply was unusable.
    No claims: nothing can be covered, and no call is made."""
    if not claims or not aspects:
        return Alignment()
    chat = session.prompt("align").messages(query=query, aspects=numbered(list(aspects)),
                                         claims=numbered(list(claims)))
    reply = session.structured(stage, [chat], AlignReply, items=["alignment"])[0]
    if reply is None:
        return None
    return parse_alignment(reply, len(aspects), len(claims), session, stage)


def align_with_qrels(supporting: Mapping[str, str | None], relevant: Mapping[str, set[str]],
                     aspect_ids: Sequence[str]) -> dict[str, tuple[set[str], str]]:
    """ICAT-M: ``claim -> (aspect ids, via document)`` for each claim whose best-ranked
    entailing passage comes from a document judged relevant to some of ``aspect_ids``.

    ``supporting`` maps a claim to the document id of its best-ranked entailing passage (None:
    unsupported, covers nothing); ``relevant`` maps a document id to its relevant aspect ids.
    """
    known = set(aspect_ids)
    out: dict[str, tuple[set[str], str]] = {}
    for claim, doc in supporting.items():
        if doc is None:
            continue
        hit = relevant.get(doc, set()) & known
        if hit:
            out[claim] = (hit, doc)
    return out
