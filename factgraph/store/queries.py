"""The named query library in cypher/queries/*.cypher."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from factgraph.resources import resource_dir


class NamedQuery(BaseModel):
    name: str
    cypher: str
    params: list[str]
    columns: list[str]
    description: str
    # parameter -> a read-only query listing the values it can take in the database (column
    # ``value``), from ``// known: PARAM = CYPHER`` header lines: run when the query finds
    # nothing, to say that a given value matches nothing stored.
    known: dict[str, str] = {}


def _header_list(lines: list[str], key: str) -> list[str]:
    for ln in lines:
        body = ln.lstrip("/").strip()
        if body.startswith(f"{key}:"):
            items = body.split(":", 1)[1]
            # "name (explanation), other" -> ["name", "other"]
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
            return [o.split("(")[0].strip() for o in out if o.strip()]
    return []


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
    return NamedQuery(
        name=path.stem, cypher=text, params=_header_list(header, "params"),
        columns=_header_list(header, "columns"), description=description, known=known,
    )


def named_queries() -> dict[str, NamedQuery]:
    folder = resource_dir("cypher") / "queries"
    return {p.stem: parse_query_file(p) for p in sorted(folder.glob("*.cypher"))}


def get_query(name: str) -> NamedQuery:
    queries = named_queries()
    if name not in queries:
        raise KeyError(f"no named query {name!r}; available: {', '.join(sorted(queries))}")
    return queries[name]
