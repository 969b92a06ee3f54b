"""The named query library in cypher/queries/*.cypher, and how its results and its parameter
values are shown (shared by ``factgraph db query`` and ``factgraph explore``)."""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from factgraph.errors import UnknownNameError
from factgraph.store.cypher_files import cypher_dir

# Runs one read-only Cypher statement with parameters (a store's ``run``).
Runner = Callable[[str, Mapping[str, Any]], list[dict[str, Any]]]

SHOWN_STORED = 10  # stored values listed in a "no such value" message


class NamedQuery(BaseModel):
    name: str
    cypher: str
    params: list[str]
    columns: list[str]
    description: str
    # parameter -> a read-only query listing the values it can take in the database (column
    # ``value``), from ``// known: PARAM = CYPHER`` header lines: run when the query finds
    # nothing, to say that a given value matches nothing stored, and to offer choices.
    known: dict[str, str] = {}
    # parameters that may be left out (then null), marked ``name (optional ...)`` in the
    # ``// params:`` header line
    optional: list[str] = []


def _header_items(lines: list[str], key: str) -> list[tuple[str, str]]:
    """``// key: name (explanation), other`` -> ``[("name", "explanation"), ("other", "")]``
    (commas inside parentheses do not split)."""
    for ln in lines:
        body = ln.lstrip("/").strip()
        if body.startswith(f"{key}:"):
            items = body.split(":", 1)[1]
            out = []
            depth = 0
            current = ""
            for ch in items:
                depth += ch == "("
                depth -= ch == ")"
                if ch == "," and depth == 0:
                    out.append(current)
                    current = ""
                else:
                    current += ch
            out.append(current)
            pairs = []
            for o in out:
                if not o.strip():
                    continue
                name, _, rest = o.partition("(")
                pairs.append((name.strip(), rest.rsplit(")", 1)[0].strip()))
            return pairs
    return []


def _header_list(lines: list[str], key: str) -> list[str]:
    return [name for name, _ in _header_items(lines, key)]


def parse_query_file(path: Path) -> NamedQuery:
    text = path.read_text(encoding="utf-8")
    header = [ln for ln in text.splitlines() if ln.startswith("//")]
    description = " ".join(
        ln.lstrip("/").strip() for ln in header
        if not ln.lstrip("/").strip().startswith(("params:", "columns:", "known:"))
    )
    known = {}
    for ln in header:
        body = ln.lstrip("/").strip()
        if body.startswith("known:"):
            param, _, cypher = body.split(":", 1)[1].partition("=")
            known[param.strip()] = cypher.strip()
    params = _header_items(header, "params")
    return NamedQuery(
        name=path.stem, cypher=text, params=[p for p, _ in params],
        columns=_header_list(header, "columns"), description=description, known=known,
        optional=[p for p, note in params if note.lower().startswith("optional")],
    )


def named_queries() -> dict[str, NamedQuery]:
    folder = cypher_dir() / "queries"
    return {p.stem: parse_query_file(p) for p in sorted(folder.glob("*.cypher"))}


def get_query(name: str) -> NamedQuery:
    queries = named_queries()
    if name not in queries:
        raise UnknownNameError(f"no named query {name!r}; available: {', '.join(sorted(queries))}")
    return queries[name]


def missing_params(q: NamedQuery, values: Mapping[str, Any]) -> list[str]:
    """The parameters of ``q`` that must be given and are not (optional ones may be left out:
    they are then null)."""
    return [p for p in q.params if p not in values and p not in q.optional]


def query_values(q: NamedQuery, values: Mapping[str, Any]) -> dict[str, Any]:
    """Exactly the declared parameters of ``q``: given values, null for those left out
    (anything else in ``values`` is dropped)."""
    return {p: values.get(p) for p in q.params}


def format_value(value: Any) -> str:
    """A result value as a table shows it: text as it is, floats to three decimals (whole ones
    as integers; JSON output keeps every digit), anything else as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and math.isfinite(value):
        if value.is_integer():
            return str(int(value))
        return f"{value:.3f}" if abs(value) >= 0.001 else f"{value:.3g}"
    return json.dumps(value, ensure_ascii=False, default=str)


_TYPOGRAPHIC = str.maketrans({
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "`": "'",
    "\u00b4": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2212": "-",
    "\u00a0": " ",
})


def loose_key(text: str) -> str:
    """``text`` with the differences nobody types folded away: curly quotes and apostrophes
    as straight ones, dashes as hyphens, runs of spaces as one, case, Unicode compatibility
    forms (so "D'Oyly" and "D’Oyly" share a key)."""
    folded = unicodedata.normalize("NFKC", text).translate(_TYPOGRAPHIC)
    return " ".join(folded.split()).casefold()


def near_matches(value: Any, stored: Sequence[Any]) -> list[Any]:
    """The stored values that differ from ``value`` only in what ``loose_key`` folds (empty
    for a value that is not text)."""
    if not isinstance(value, str):
        return []
    key = loose_key(value)
    return [s for s in stored if isinstance(s, str) and s != value and loose_key(s) == key]


def unknown_value_message(stored: Mapping[str, Sequence[Any]],
                          values: Mapping[str, Any]) -> str | None:
    """Why a named query found nothing, when it is a parameter value that matches nothing
    stored: ``no method 'nli-x' in the database; stored: e2e, nli``, naming the stored value
    that differs from the given one only in quotes, dashes, spaces or case, if any. None
    when every given value is stored (the query simply has no rows) or left out (null).

    ``stored``: per parameter, the values the database holds (from its ``known`` query)."""
    for param, choices in stored.items():
        value = values.get(param)
        if value is None or value in choices:
            continue
        shown = ", ".join(str(v) for v in choices[:SHOWN_STORED])
        more = (f" (and {len(choices) - SHOWN_STORED} more)"
                if len(choices) > SHOWN_STORED else "")
        near = near_matches(value, choices)
        hint = (f" (the stored value {near[0]!r} differs only in quotes, dashes, spaces or "
                "case)" if near else "")
        return (f"no {param} {value!r} in the database{hint}; stored: "
                f"{shown or 'none'}{more}")
    return None


def stored_values(run: Runner, known: Mapping[str, str],
                  limit: int | None = None) -> dict[str, list[Any]]:
    """Per key of ``known``, the values its read-only query lists (column ``value``, nulls
    dropped); each distinct query runs once. ``limit`` keeps the first values of each (sent
    as a parameter, ``LIMIT $limit``)."""
    by_cypher: dict[str, list[Any]] = {}
    out: dict[str, list[Any]] = {}
    for key, cypher in known.items():
        if cypher not in by_cypher:
            text, params = (cypher, {}) if limit is None else (
                f"{cypher} LIMIT $limit", {"limit": int(limit)})
            by_cypher[cypher] = [r["value"] for r in run(text, params)
                                 if r.get("value") is not None]
        out[key] = by_cypher[cypher]
    return out
