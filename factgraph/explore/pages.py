"""The explorer's HTML pages, as pure functions of the data (every text escaped).

The pages carry no script of their own except the named-query graph (vis-network plus
``explore_graph.js``, allowed by hash); the graph views are the same offline pages as
``factgraph view``. Links are relative to the app's root.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple
from urllib.parse import quote, urlencode

from factgraph.explore.named import choice_text
from factgraph.explore.sources import EvaluationSummary, QuerySummary
from factgraph.graph import Contradiction
from factgraph.graph.reasons import Reasons
from factgraph.store.queries import NamedQuery, format_value
from factgraph.viz.matrix import CoverageMatrix, leaderboard, render_matrix
from factgraph.viz.safe_html import fill_template, json_for_script, read_asset, script_hash

e = html.escape
NAV_LIMIT = 300  # queries listed in the side bar; the index page lists them all
# The explorer's own rules over explore.css: a header breaks only between words, so a short
# header over a narrow column ("responses") is never cut into "response" / "s"; cells of
# long text still break anywhere.
EXPLORER_CSS = ("table.fx-table th { word-break: normal; overflow-wrap: normal; "
                "hyphens: manual; }")


class Page(NamedTuple):
    html: str
    csp: str


def explorer_csp(scripts: Sequence[str]) -> str:
    """Like the views' policy (nothing loads from anywhere; only our inline scripts, by hash),
    but forms may submit to the explorer itself and no other site may frame it."""
    sources = " ".join(script_hash(s) for s in scripts) or "'none'"
    return (f"default-src 'none'; script-src {sources}; style-src 'unsafe-inline'; "
            "img-src data: blob:; font-src data:; connect-src 'none'; base-uri 'none'; "
            "form-action 'self'; frame-ancestors 'none'")


def query_url(qid: str) -> str:
    return f"/query/{quote(qid, safe='')}"


def model_url(model: str) -> str:
    return f"/model/{quote(model, safe='')}"


def view_url(evaluation_id: str) -> str:
    return f"/view/{quote(evaluation_id, safe='')}"


def named_url(name: str, params: Mapping[str, str] | None = None) -> str:
    url = f"/queries/{quote(name, safe='')}"
    return url + ("?" + urlencode(params) if params else "")


def layout(title: str, nav: str, main: str, graph: dict[str, Any] | None = None) -> Page:
    scripts: list[str] = []
    tags = ""
    if graph is not None:
        vis, app = read_asset("vendor", "vis-network.min.js"), read_asset("explore_graph.js")
        scripts = [vis, app]
        tags = (f'<script type="application/json" id="fx-graph-data">{json_for_script(graph)}'
                f"</script><script>{vis}</script><script>{app}</script>")
    csp = explorer_csp(scripts)
    text = fill_template(read_asset("explore.html"), {
        "__CSP__": e(csp, quote=True),
        "__TITLE__": e(f"factgraph explore — {title}"),
        "__CSS__": read_asset("explore.css") + read_asset("matrix.css") + EXPLORER_CSS,
        "__NAV__": nav,
        "__MAIN__": main,
        "__SCRIPTS__": tags,
    })
    return Page(text, csp)


def _short(text: str, n: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 1] + "…"


def nav(source_label: str, queries: Sequence[QuerySummary], models: Mapping[str, int],
        current_query: str | None = None, current_model: str | None = None) -> str:
    out = ['<h1><a href="/">factgraph explore</a></h1>',
           f'<p class="fx-source">{e(source_label)}</p>',
           f'<h2>Queries ({len(queries)})</h2><ul id="fx-queries">']
    for q in queries[:NAV_LIMIT]:
        cls = ' class="current"' if q.id == current_query else ""
        out.append(f'<li{cls}><a href="{e(query_url(q.id), quote=True)}">'
                   f"{e(_short(q.text or '(no query)'))}</a> "
                   f'<span class="fx-count">{q.responses}</span></li>')
    out.append("</ul>")
    if len(queries) > NAV_LIMIT:
        out.append(f'<p class="fx-note">{len(queries) - NAV_LIMIT} more on the '
                   '<a href="/">start page</a>.</p>')
    out.append(f'<h2>Models ({len(models)})</h2><ul id="fx-models">')
    for m, n in models.items():
        cls = ' class="current"' if m == current_model else ""
        out.append(f'<li{cls}><a href="{e(model_url(m), quote=True)}">{e(m or "(unknown)")}'
                   f'</a> <span class="fx-count">{n}</span></li>')
    out.append('</ul><h2>Database</h2><ul><li><a href="/queries">Named queries</a></li></ul>')
    return "".join(out)


def _num(x: float | None, digits: int = 3) -> str:
    return "undefined" if x is None else f"{x:.{digits}f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], cls: str = "fx-table") -> str:
    """A table from already-escaped cells."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join("<tr>" + "".join(rows_cell for rows_cell in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def index_main(source_label: str, queries: Sequence[QuerySummary],
               summaries: Sequence[EvaluationSummary]) -> str:
    by_model: dict[str, list[EvaluationSummary]] = {}
    for s in summaries:
        by_model.setdefault(s.model, []).append(s)
    board = []
    for model, evs in by_model.items():
        scores = [s.comprehensiveness for s in evs if s.comprehensiveness is not None]
        board.append((None if not scores else sum(scores) / len(scores), model, len(evs)))
    board.sort(key=lambda b: (b[0] is None, -(b[0] or 0), b[1]))
    out = [f'<h1 class="fx-title">{e(source_label)}: {len(queries)} queries, '
           f"{len(summaries)} evaluations, {len(by_model)} models</h1>",
           "<h2>Leaderboard (all queries)</h2>",
           _table(["model", "evaluations", "mean comprehensiveness"],
                  [[f'<td><a href="{e(model_url(m), quote=True)}">{e(m or "(unknown)")}</a></td>',
                    f'<td class="num">{n}</td>', f'<td class="num">{_num(s)}</td>']
                   for s, m, n in board]),
           "<h2>Queries</h2>",
           _table(["query", "responses", "models"],
                  [[f'<td><a href="{e(query_url(q.id), quote=True)}">{e(q.text or "(no query)")}'
                    "</a></td>", f'<td class="num">{q.responses}</td>',
                    f"<td>{e(', '.join(q.models))}</td>"] for q in queries])]
    return "".join(out)


def _count(x: int | None) -> str:
    return "—" if x is None else str(x)


def _why(why: Reasons | None, response_id: str, context_id: str) -> str:
    """The pair's one-line reason (``factgraph.graph.reasons``), escaped; empty when unknown."""
    reason = None if why is None else why.pair(response_id, context_id)
    return "" if reason is None else f' <span class="fx-why">why: {e(reason.line())}</span>'


def contradictions_main(columns: Sequence[tuple[str, str, str]],
                        contradicted: Mapping[str, Sequence[Contradiction]],
                        why: Mapping[str, Reasons] | None = None) -> str:
    """Per response (``(evaluation id, response id, model)``), its statements that contradict
    a background statement, each with the statements it contradicts and (``why``: per
    evaluation id) the pair's reason; empty when none does."""
    items = []
    for eid, rid, model in columns:
        found = contradicted.get(eid) or ()
        if not found:
            continue
        mine = (why or {}).get(eid)
        lis = "".join(
            f'<li><span class="fx-contradicted">{e(c.text)}</span> contradicts '
            + "; ".join(f"{e(f.text)}" + (f" ({e(f.source_id)})" if f.source_id else "")
                        + _why(mine, c.statement_id, f.statement_id)
                        for f in c.contradicts) + "</li>" for c in found)
        items.append(f'<div class="fx-contradictions" data-evaluation="{e(eid, quote=True)}">'
                     f'<h3><a href="{e(view_url(eid), quote=True)}">{e(rid)}</a> · {e(model)}: '
                     f"{len(found)} contradicted</h3><ul>{lis}</ul></div>")
    if not items:
        return ""
    return ("<h2>Contradicted response statements</h2><p class=\"fx-note\">Response "
            "statements that contradict a background statement: what the answer gets wrong "
            "(contradictions never count as coverage).</p>" + "".join(items))


def query_main(matrix: CoverageMatrix,
               contradicted: Mapping[str, Sequence[Contradiction]] | None = None,
               why: Mapping[str, Reasons] | None = None) -> str:
    """The page of one query: leaderboard, coverage matrix, responses and the response
    statements that contradict the background (``contradicted``: per evaluation id), each
    pair with its reason (``why``: per evaluation id)."""
    contradicted = contradicted or {}
    links = {c.evaluation_id: view_url(c.evaluation_id) for c in matrix.columns}
    board = leaderboard(matrix)
    out = [f'<h1 class="fx-title">{e(matrix.query or "(no query)")}</h1>',
           "<h2>Leaderboard</h2>",
           _table(["model", "responses", "mean comprehensiveness", "covered facts / response",
                   "basis facts / response", "facts only this model covers"],
                  [[f'<td><a href="{e(model_url(b.model), quote=True)}">{e(b.model)}</a></td>',
                    f'<td class="num">{b.responses}</td>',
                    f'<td class="num">{_num(b.mean_comprehensiveness)}</td>',
                    f'<td class="num">{b.mean_covered:.1f}</td>',
                    f'<td class="num">{b.mean_basis:.1f}</td>',
                    f'<td class="num">{b.only_this_model}</td>'] for b in board],
                  cls="fx-table fx-leaderboard"),
           "<h2>Coverage matrix</h2>",
           '<p class="fx-note">Rows: the context facts of this query, merged across responses '
           "as the fact database merges them; columns: responses grouped by model. Facts every "
           "response misses come first. Click a cell to open the response's graph at that fact "
           "with its covering path highlighted.</p>",
           render_matrix(matrix, links),
           "<h2>Responses</h2>",
           _table(["response", "model", "method", "comprehensiveness", "contradicted", "graph"],
                  [[f"<td>{e(c.response_id)}</td>", f"<td>{e(c.model)}</td>",
                    f"<td>{e(c.method)}</td>", f'<td class="num">{_num(c.comprehensiveness)}</td>',
                    f'<td class="num">{len(contradicted.get(c.evaluation_id) or ())}</td>',
                    f'<td><a href="{e(links[c.evaluation_id], quote=True)}">view</a></td>']
                   for c in matrix.columns]),
           contradictions_main([(c.evaluation_id, c.response_id, c.model)
                                for c in matrix.columns], contradicted, why)]
    return "".join(out)


def model_main(model: str, summaries: Sequence[EvaluationSummary]) -> str:
    rows = [[f'<td><a href="{e(query_url(s.query_id), quote=True)}">{e(s.query or "(no query)")}'
             "</a></td>", f"<td>{e(s.response_id)}</td>", f"<td>{e(s.method)}</td>",
             f'<td class="num">{_num(s.comprehensiveness)}</td>',
             f'<td class="num">{_count(s.contradicted)}</td>',
             f'<td><a href="{e(view_url(s.id), quote=True)}">view</a></td>'] for s in summaries]
    return (f'<h1 class="fx-title">Model {e(model or "(unknown)")}: {len(summaries)} '
            "evaluations</h1>"
            + _table(["query", "response", "method", "comprehensiveness", "contradicted",
                      "graph"], rows))


def _field(q: NamedQuery, p: str, value: str, choices: Sequence[Any]) -> str:
    """One parameter's input; the values stored for it (if any) as choices (a datalist: pick
    one or type anything)."""
    list_id = f"fx-choices-{q.name}-{p}"
    options = "".join(f'<option value="{e(choice_text(v), quote=True)}"></option>'
                      for v in choices)
    datalist = (f'<datalist id="{e(list_id, quote=True)}">{options}</datalist>'
                if choices else "")
    attrs = (f' list="{e(list_id, quote=True)}"' if choices else "") + (
        ' placeholder="optional: empty for all"' if p in q.optional else "")
    return (f'<label>{e(p)}<input name="{e(p, quote=True)}" value="{e(value, quote=True)}"'
            f' aria-label="{e(q.name + " " + p, quote=True)}"{attrs}>{datalist}</label>')


def _form(q: NamedQuery, values: Mapping[str, str],
          choices: Mapping[str, Sequence[Any]] | None = None) -> str:
    """The form of one named query; ``choices``: per parameter, the stored values offered."""
    inputs = "".join(_field(q, p, values.get(p, ""), (choices or {}).get(p, ()))
                     for p in q.params)
    return (f'<form class="fx-form" method="get" action="{e(named_url(q.name), quote=True)}" '
            f'data-query="{e(q.name, quote=True)}">{inputs}'
            f'<button type="submit">Run {e(q.name)}</button></form>')


def named_index_main(queries: Mapping[str, NamedQuery], note: str | None = None,
                     choices: Mapping[str, Mapping[str, Sequence[Any]]] | None = None) -> str:
    """Every named query with its form; ``choices``: per query name, per parameter, the
    stored values its field offers."""
    choices = choices or {}
    out = ['<h1 class="fx-title">Named queries</h1>',
           '<p class="fx-note">Read-only queries from <code>cypher/queries</code>. Values are '
           "sent as query parameters (JSON values such as numbers, true or null are read as "
           "such; an empty field is null); a field with stored values offers them as choices; "
           "no other Cypher can be run from here.</p>"]
    if note:
        out.append(f'<p class="fx-error">{e(note)}</p>')
    for q in queries.values():
        out.append(f'<div class="fx-query-card" id="q-{e(q.name, quote=True)}"><h3>{e(q.name)}'
                   f"</h3><p>{e(q.description)}</p>{_form(q, {}, choices.get(q.name))}</div>")
    return "".join(out)


def _cell(value: Any) -> str:
    """A result cell as the CLI's table shows it (floats to three decimals, whole ones as
    integers), numbers right-aligned; the exact value stays in the title when it was rounded."""
    text = format_value(value)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return f"<td>{e(text)}</td>"
    rounded = isinstance(value, float) and math.isfinite(value) and float(text) != value
    title = f' title="{e(repr(value), quote=True)}"' if rounded else ""
    return f'<td class="num"{title}>{e(text)}</td>'


def named_result_main(q: NamedQuery, values: Mapping[str, str], rows: Sequence[dict[str, Any]],
                      error: str | None, has_graph: bool,
                      choices: Mapping[str, Sequence[Any]] | None = None) -> str:
    """A named query's page: its form (with ``choices``), then the error or the rows."""
    out = [f'<h1 class="fx-title">{e(q.name)}</h1><p>{e(q.description)}</p>',
           _form(q, values, choices)]
    if error is not None:
        out.append(f'<p class="fx-error" id="fx-error">{e(error)}</p>')
        return "".join(out)
    columns = list(q.columns) or (list(rows[0]) if rows else [])
    out.append(f'<p class="fx-note" id="fx-row-count">{len(rows)} row(s)</p>')
    if has_graph:
        out.append('<div id="fx-graph"></div>')
    out.append(_table([e(c) for c in columns], [[_cell(r.get(c)) for c in columns] for r in rows],
                      cls="fx-table fx-result"))
    return "".join(out)


def error_main(message: str) -> str:
    return f'<h1 class="fx-title">Not here</h1><p class="fx-error">{e(message)}</p>'
