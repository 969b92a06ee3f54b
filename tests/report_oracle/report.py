"""FROZEN ORACLE (tests only): ``factgraph/viz/report.py`` as it was before the report was
made streaming (commit 9ea73b6), list-based: every Evaluation held at once. The streaming
report must write byte-identical HTML; tests/test_report_streaming.py compares them.
Do not edit, except to follow a deliberate change of the report's HTML.

Original docstring: An HTML report over many Evaluations: tables per evaluation and per
model, and plots.

Plots (inline SVG, drawn only when the scores exist): ICAT_β over β per model (Samarinas et al.
2025, Fig. 3), factual precision vs recall per model (Jafari et al. 2026), coverage by aspect
(ICAT), and the distribution of comprehensiveness per model (Dejl et al. 2025).
"""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Sequence
from statistics import mean

from factgraph.graph import analyze
from factgraph.graph.reasons import reasons
from factgraph.metrics.icat import DEFAULT_BETAS, icat_beta_sweep
from factgraph.models import Evaluation, RelationLabel, StatementKind
from factgraph.viz import svg
from factgraph.viz.safe_html import read_asset

FACT_KEYS = ("S_fact", "icat_fact", "fact_score")
COVERAGE_KEYS = ("S_coverage", "icat_coverage", "coverage_score")


def _first(scores: dict[str, float | None], keys: Sequence[str]) -> float | None:
    for k in keys:
        if scores.get(k) is not None:
            return scores[k]
    return None


def _model(ev: Evaluation) -> str:
    return ev.model or "(unknown model)"


def _fmt(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def render_report(evaluations: Sequence[Evaluation], view_links: dict[str, str] | None = None,
                  title: str = "factgraph report", judge_cards: Sequence[str] = ()) -> str:
    """The report page. ``view_links`` maps evaluation ids to relative URLs of their views;
    ``judge_cards`` (one line each, ``JudgeCard.one_line``) are shown beside every score table
    so a reader sees how far the scores can be trusted."""
    e = html.escape
    links = view_links or {}
    # Followed deliberate change (issue 28): a comprehensiveness the file does not carry is the
    # graph's S, as every other reader shows it.
    evaluations = [ev if "comprehensiveness" in ev.scores else ev.model_copy(update={
        "scores": {**ev.scores, "comprehensiveness": analyze(ev.graph).score}})
        for ev in evaluations]
    cards_html = "".join(f"<p class=judge-card>{e(line)}</p>" for line in judge_cards)
    by_model: dict[str, list[Evaluation]] = defaultdict(list)
    for ev in evaluations:
        by_model[_model(ev)].append(ev)
    score_keys = sorted({k for ev in evaluations for k, v in ev.scores.items() if v is not None})
    basis = {ev.id: analyze(ev.graph).basis() for ev in evaluations}

    out = [f"<h1>{e(title)}</h1>",
           f"<p>{len(evaluations)} evaluations of {len(by_model)} models.</p>",
           "<h2>Per model</h2>", cards_html,
           "<table><tr><th>model</th><th>evaluations</th>"]
    out += [f"<th>mean {e(k)}</th>" for k in score_keys]
    out.append("<th>mean basis size</th></tr>")
    for model, evs in sorted(by_model.items()):
        out.append(f"<tr><td>{e(model)}</td><td class=num>{len(evs)}</td>")
        for k in score_keys:
            vals = [v for ev in evs if (v := ev.scores.get(k)) is not None]
            out.append(f"<td class=num>{_fmt(mean(vals)) if vals else '—'}</td>")
        out.append(f"<td class=num>{mean(len(basis[ev.id]) for ev in evs):.1f}</td></tr>")
    out.append("</table>")

    out.append(_matrix_section(evaluations, links))

    out.append("<h2>Plots</h2><div class=plots>")
    out.append(_comprehensiveness_plot(by_model))
    out.append(_icat_plot(by_model))
    out.append(_precision_recall_plot(by_model))
    out.append(_aspect_heatmap(by_model))
    out.append("</div>")

    out.append("<h2>Per evaluation</h2>" + cards_html
               + "<table><tr><th>id</th><th>model</th><th>method</th>")
    out += [f"<th>{e(k)}</th>" for k in score_keys]
    out.append("<th>basis</th><th>contradicted</th><th>view</th></tr>")
    for ev in evaluations:
        out.append(f"<tr><td>{e(ev.id)}</td><td>{e(_model(ev))}</td><td>{e(ev.method)}</td>")
        out += [f"<td class=num>{_fmt(ev.scores.get(k))}</td>" for k in score_keys]
        out.append(f"<td class=num>{len(basis[ev.id])}</td>")
        out.append(f"<td class=num>{len(_contradicted(ev))}</td>")
        link = links.get(ev.id)
        out.append(f'<td><a href="{e(link, quote=True)}">graph</a></td>' if link else "<td></td>")
        out.append("</tr>")
    out.append("</table>")

    out.append("<h2>Uncovered basis per evaluation</h2>")
    for ev in evaluations:
        items = "".join(f"<li>{e(c.text)}</li>" for c in basis[ev.id]) or "<li>(none)</li>"
        out.append(f"<details><summary>{e(ev.id)} · {e(_model(ev))} · "
                   f"{len(basis[ev.id])} facts to add</summary>"
                   f"<p class=query>{e(ev.query)}</p><ol>{items}</ol></details>")
    # Followed deliberate change (issue 28): the response statements that contradict the
    # background, per evaluation.
    out.append("<h2>Contradicted response statements per evaluation</h2>")
    wrong = [ev for ev in evaluations if _contradicted(ev)]
    if not wrong:
        out.append("<p>No response statement contradicts a background statement.</p>")
    for ev in wrong:
        found = _contradicted(ev)
        # Followed deliberate change (issue 33): each pair's one-line reason under it
        items = "".join(f"<li>{e(text)}<ul>" + "".join(
            f"<li>contradicts: {e(f)}" + (f"<p class=why>{e(line)}</p>" if line else "")
            + "</li>" for f, line in facts) + "</ul></li>" for text, facts in found)
        out.append(f"<details><summary>{e(ev.id)} · {e(_model(ev))} · "
                   f"{len(found)} contradicted</summary>"
                   f"<p class=query>{e(ev.query)}</p><ol>{items}</ol></details>")
    # Followed deliberate change (issue 33): why each context fact is covered, contradicted
    # or missing, per evaluation with context facts.
    out.append("<h2>Why each context fact is covered, contradicted or missing</h2>")
    whys = [(ev, _why_rows(ev)) for ev in evaluations]
    whys = [(ev, rows) for ev, rows in whys if rows]
    if not whys:
        out.append("<p>No context facts in these results.</p>")
    for ev, rows in whys:
        n = {k: sum(1 for _, st, _ in rows if st == k)
             for k in ("covered", "contradicted", "missing")}
        body = "".join(f"<tr><td>{e(t)}</td><td>{e(st)}</td><td class=why>{e(line)}</td></tr>"
                       for t, st, line in rows)
        out.append(f"<details class=why><summary>{e(ev.id)} · {e(_model(ev))} · "
                   f"{n['covered']} covered, {n['contradicted']} contradicted, "
                   f"{n['missing']} missing</summary><p class=query>{e(ev.query)}</p>"
                   "<table><tr><th>fact</th><th>status</th><th>why</th></tr>"
                   f"{body}</table></details>")
    page = read_asset("report.html")
    css = read_asset("report.css") + read_asset("matrix.css")
    return page.replace("__TITLE__", e(title)).replace("__CSS__", css) \
        .replace("__BODY__", "\n".join(out))


def _why_rows(ev: Evaluation) -> list[tuple[str, str, str]]:
    cov = analyze(ev.graph)
    why = reasons(cov)
    return [(c.text, why.by_statement[c.representative].status,
             why.by_statement[c.representative].line())
            for c in [*cov.covered(), *cov.uncovered()]]


def _contradicted(ev: Evaluation) -> list[tuple[str, list[tuple[str, str]]]]:
    """Response statements (file order) that a contradicts relation joins to a context
    statement, either direction, with those context statements' texts (file order, once)
    and the pair's one-line reason."""
    stmts = ev.graph.statements
    pos = {s.id: i for i, s in enumerate(stmts)}
    pairs = set()
    for r in ev.graph.relations:
        if r.label is RelationLabel.contradicts:
            a, b = stmts[pos[r.src]], stmts[pos[r.dst]]
            if a.origin.value == "response" and b.origin.value == "context":
                pairs.add((pos[a.id], pos[b.id]))
            elif a.origin.value == "context" and b.origin.value == "response":
                pairs.add((pos[b.id], pos[a.id]))
    why = reasons(analyze(ev.graph))
    out: dict[int, list[tuple[str, str]]] = {}
    for ri, ci in sorted(pairs):
        reason = why.pair(stmts[ri].id, stmts[ci].id)
        out.setdefault(ri, []).append((stmts[ci].text, reason.line() if reason else ""))
    return [(stmts[ri].text, texts) for ri, texts in out.items()]


def _matrix_section(evaluations: Sequence[Evaluation], links: dict[str, str]) -> str:
    """One coverage matrix per query with context facts (see factgraph.viz.matrix); a cell
    links to its response's view opened at that statement."""
    from tests.report_oracle.matrix import matrices_by_query, render_matrix

    parts = ["<h2>Coverage matrix per query</h2>",
             "<p>Rows: the query's context facts, merged across responses as the fact database "
             "merges them; columns: responses grouped by model. Facts every response misses "
             "come first. Click a cell to open that response's graph at the fact.</p>"]
    for m in matrices_by_query(evaluations):
        if m.rows:
            parts.append(f"<h3 class=query>{html.escape(m.query or '(no query)')}</h3>")
            parts.append(render_matrix(m, links))
    return "\n".join(parts) if len(parts) > 2 else ""


def _figure(caption: str, chart: str) -> str:
    return f"<figure>{chart}<figcaption>{html.escape(caption)}</figcaption></figure>"


def _none(caption: str, why: str) -> str:
    return f"<figure class=empty><p>{html.escape(why)}</p><figcaption>{html.escape(caption)}" \
           "</figcaption></figure>"


def _comprehensiveness_plot(by_model: dict[str, list[Evaluation]]) -> str:
    cap = "Comprehensiveness per model (dots: responses; bar: mean)"
    values = {m: [v for ev in evs if (v := ev.scores.get("comprehensiveness")) is not None]
              for m, evs in sorted(by_model.items())}
    values = {m: v for m, v in values.items() if v}
    if not values:
        return _none(cap, "No comprehensiveness scores in these results.")
    return _figure(cap, svg.strip_plot(values, cap, "comprehensiveness S"))


def _icat_plot(by_model: dict[str, list[Evaluation]]) -> str:
    cap = "ICAT_β over β per model (β < 1 favours factuality, β > 1 coverage)"
    series = {}
    for model, evs in sorted(by_model.items()):
        pairs = [(f, c) for ev in evs if (f := _first(ev.scores, FACT_KEYS)) is not None
                 and (c := _first(ev.scores, COVERAGE_KEYS)) is not None]
        if pairs:
            f, c = mean(p[0] for p in pairs), mean(p[1] for p in pairs)
            series[model] = icat_beta_sweep(f, c, DEFAULT_BETAS)
    if not series:
        return _none(cap, "No ICAT factuality / coverage scores in these results.")
    return _figure(cap, svg.line_chart(series, cap, "β (log scale)", "ICAT_β"))


def _precision_recall_plot(by_model: dict[str, list[Evaluation]]) -> str:
    cap = "Factual precision vs recall per model (means)"
    points = {}
    for model, evs in sorted(by_model.items()):
        pr = [(p, r) for ev in evs if (p := ev.scores.get("factual_precision")) is not None
              and (r := ev.scores.get("factual_recall")) is not None]
        if pr:
            points[model] = (mean(x[1] for x in pr), mean(x[0] for x in pr))
    if not points:
        return _none(cap, "No factual precision / recall scores in these results.")
    return _figure(cap, svg.scatter(points, cap, "recall", "precision"))


def _aspect_heatmap(by_model: dict[str, list[Evaluation]]) -> str:
    cap = "Coverage by aspect: share of a model's responses covering each aspect"
    counts: dict[tuple[str, str], list[bool]] = defaultdict(list)
    aspects: list[str] = []
    for model, evs in sorted(by_model.items()):
        for ev in evs:
            covered = {r.dst for r in ev.graph.relations if r.label is RelationLabel.covers}
            for s in ev.graph.statements:
                if s.kind is StatementKind.aspect:
                    if s.text not in aspects:
                        aspects.append(s.text)
                    counts[(model, s.text)].append(s.id in covered)
    if not aspects:
        return _none(cap, "No aspects in these results.")
    values = {k: sum(v) / len(v) for k, v in counts.items()}
    return _figure(cap, svg.heatmap(sorted(by_model), aspects, values, cap))
