"""Named queries from a web form: reading the form's values, drawing results as a graph."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from factgraph.errors import UserInputError
from factgraph.store.queries import NamedQuery

MAX_VALUE_CHARS = 10_000


def form_value(raw: str) -> Any:
    """A form field as a query parameter: empty is null, a JSON number / boolean / null / list
    is that value (as on the CLI's ``-p key=value``), anything else is the text itself."""
    raw = raw.strip()
    if raw == "":
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return raw
    return value if not isinstance(value, dict) else raw


def form_params(q: NamedQuery, form: Mapping[str, str],
                stored: Mapping[str, Sequence[Any]] | None = None,
                ) -> tuple[dict[str, Any], list[str]]:
    """The declared parameters of ``q`` read from ``form`` (anything else in the form is
    ignored), and the names of required parameters the form lacks (an optional one left out
    is null).

    ``stored``: per parameter, the values the database holds (the form offers them as
    choices); a field equal to a stored text stays that text even where it would read as JSON
    (a response id ``"17"`` is not the number 17)."""
    params: dict[str, Any] = {}
    missing = []
    for p in q.params:
        if p not in form:
            if p in q.optional:
                params[p] = None
            else:
                missing.append(p)
            continue
        raw = form[p]
        if len(raw) > MAX_VALUE_CHARS:
            raise UserInputError(f"{p}: value longer than {MAX_VALUE_CHARS} characters")
        texts = {v for v in (stored or {}).get(p, ()) if isinstance(v, str) and v.strip()}
        if raw in texts or raw.strip() in texts:
            params[p] = raw if raw in texts else raw.strip()
        else:
            params[p] = form_value(raw)
    return params, missing


def choice_text(value: Any) -> str:
    """A stored value as a form field holds it (read back by ``form_params``): text as it is,
    anything else as JSON."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False,
                                                           default=str)


def _label(text: Any, n: int = 40) -> str:
    t = " ".join(str(text or "").split())
    return t if len(t) <= n else t[: n - 1] + "…"


def result_graph(q: NamedQuery, params: Mapping[str, Any],
                 rows: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """Nodes and edges when a result describes a graph, else None.

    * rows with a ``path`` (statement ids) and its ``texts``: the entailment chain;
    * rows of statements with ``hops`` from the ``statement_id`` parameter: a star around it,
      each edge labelled with the number of hops.
    """
    if rows and isinstance(rows[0].get("path"), list) and isinstance(rows[0].get("texts"), list):
        nodes: dict[str, dict[str, Any]] = {}
        edges = []
        for r in rows:
            path, texts = r["path"], r["texts"]
            for i, (sid, text) in enumerate(zip(path, texts, strict=False)):
                nodes.setdefault(str(sid), {"id": str(sid), "label": _label(text),
                                            "text": str(text),
                                            "shape": "box" if i == 0 else "ellipse"})
                if i:
                    edges.append({"from": str(path[i - 1]), "to": str(sid), "arrows": "to",
                                  "label": "entails"})
        return {"nodes": list(nodes.values()), "edges": edges}
    centre = params.get("statement_id")
    if rows and "hops" in rows[0] and "statement_id" in rows[0] and centre is not None:
        nodes = {str(centre): {"id": str(centre), "label": "start", "text": str(centre),
                               "shape": "box", "color": "#f28e2b"}}
        edges = []
        for r in rows:
            sid = str(r["statement_id"])
            nodes.setdefault(sid, {"id": sid, "label": _label(r.get("text")),
                                   "text": str(r.get("text") or "")})
            edges.append({"from": str(centre), "to": sid, "label": f"{r['hops']} hop(s)"})
        return {"nodes": list(nodes.values()), "edges": edges}
    return None
