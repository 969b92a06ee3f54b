"""An HTML report over many Evaluations: tables per evaluation and per model, and plots.

Plots (inline SVG, drawn only when the scores exist): ICAT_β over β per model (Samarinas et al.
2025, Fig. 3), factual precision vs recall per model (Jafari et al. 2026), coverage by aspect
(ICAT), and the distribution of comprehensiveness per model (Dejl et al. 2025).
"""

from __future__ import annotations

import html
import os
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import mean

from factgraph.graph import SCORE_KEY, Coverage, analyze, contradictions, reported_comprehensiveness
from factgraph.graph.reasons import Reason, reasons
from factgraph.metrics.icat import DEFAULT_BETAS, icat_beta_sweep
from factgraph.models import Evaluation, RelationLabel, StatementKind
from factgraph.viz import svg
from factgraph.viz.safe_html import read_asset

FACT_KEYS = ("S_fact", "icat_fact", "fact_score")
COVERAGE_KEYS = ("S_coverage", "icat_coverage", "coverage_score")


def _first(scores: Mapping[str, float | None], keys: Sequence[str]) -> float | None:
    for k in keys:
        if scores.get(k) is not None:
            return scores[k]
    return None


def _fmt(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


@dataclass(frozen=True, slots=True)
class EvaluationRow:
    """What the report keeps of one Evaluation: what its tables, plots and basis list show."""

    id: str
    model: str
    method: str
    query: str
    scores: dict[str, float | None]
    basis: tuple[str, ...] = ()  # texts of the uncovered basis components, in engine order
    aspects: tuple[tuple[str, bool], ...] = ()  # (aspect text, covered), in statement order
    # response statements that contradict a background statement: (text, ((contradicted
    # text, the pair's one-line reason), ...))
    contradicted: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()
    # per context component (covered first, as analyze lists them): (text, status of its
    # reason, the one-line reason) — factgraph.graph.reasons
    reasons: tuple[tuple[str, str, str], ...] = ()


def _evaluation_row(ev: Evaluation, coverage: Coverage, share: Callable[[str], str]
                    ) -> EvaluationRow:
    covered = {r.dst for r in ev.graph.relations if r.label is RelationLabel.covers}
    scores = {share(k): v for k, v in ev.scores.items()}
    # One rule for every reader: a comprehensiveness the file does not carry is the graph's S.
    scores[share(SCORE_KEY)] = reported_comprehensiveness(ev.scores, coverage)
    why = reasons(coverage)
    return EvaluationRow(
        id=ev.id, model=share(ev.model or "(unknown model)"), method=share(ev.method),
        query=share(ev.query), scores=scores,
        basis=tuple(share(c.text) for c in coverage.basis()),
        aspects=tuple((share(s.text), s.id in covered) for s in ev.graph.statements
                      if s.kind is StatementKind.aspect),
        contradicted=tuple((c.text, tuple((share(f.text), _line(why.pair(c.statement_id,
                                                                          f.statement_id)))
                                          for f in c.contradicts))
                           for c in contradictions(ev.graph)),
        reasons=tuple((share(c.text), share(r.status if r else ""), _line(r))
                      for c in [*coverage.covered(), *coverage.uncovered()]
                      for r in [why.of(c.representative)]))


def _line(reason: Reason | None) -> str:
    return "" if reason is None else reason.line()


class ReportBuilder:
    """The report folded one Evaluation at a time: a small :class:`EvaluationRow` per
    evaluation plus the coverage matrices' per-query state (``MatricesByQuery``), so a results
    file of any length is reported without holding its Evaluations. :func:`render_report` is
    this builder over a list."""

    def __init__(self) -> None:
        from factgraph.viz.matrix import MatricesByQuery

        self.rows: list[EvaluationRow] = []
        self.matrices = MatricesByQuery()
        self._strings: dict[str, str] = {}  # one object per repeated text (models, queries, ...)

    def __len__(self) -> int:
        return len(self.rows)

    def _share(self, text: str) -> str:
        return self._strings.setdefault(text, text)

    def add(self, ev: Evaluation) -> None:
        coverage = analyze(ev.graph)
        self.rows.append(_evaluation_row(ev, coverage, self._share))
        self.matrices.add(ev, coverage)

    def chunks(self, view_links: Mapping[str, str] | None = None,
               title: str = "factgraph report", judge_cards: Sequence[str] = ()
               ) -> Iterator[str]:
        """The report page in pieces (their concatenation is :func:`render_report`'s page);
        only one query's coverage matrix is built at a time."""
        e = html.escape
        page = read_asset("report.html")
        css = read_asset("report.css") + read_asset("matrix.css")
        pieces = page.replace("__TITLE__", e(title)).replace("__CSS__", css).split("__BODY__")
        yield pieces[0]
        for piece in pieces[1:]:
            for i, item in enumerate(self._body(view_links or {}, title, judge_cards)):
                if i:
                    yield "\n"
                if isinstance(item, str):
                    yield item
                else:
                    yield from item
            yield piece

    def _body(self, links: Mapping[str, str], title: str, judge_cards: Sequence[str]
              ) -> Iterator[str | Iterator[str]]:
        """The body's items, joined by newlines on the page; an item given as an iterator is
        written piece by piece (a coverage matrix, row by row)."""
        e = html.escape
        rows = self.rows
        cards_html = "".join(f"<p class=judge-card>{e(line)}</p>" for line in judge_cards)
        by_model: dict[str, list[EvaluationRow]] = defaultdict(list)
        for r in rows:
            by_model[r.model].append(r)
        score_keys = sorted({k for r in rows for k, v in r.scores.items() if v is not None})

        yield from (f"<h1>{e(title)}</h1>",
                    f"<p>{len(rows)} evaluations of {len(by_model)} models.</p>",
                    "<h2>Per model</h2>", cards_html,
                    "<table><tr><th>model</th><th>evaluations</th>")
        yield from (f"<th>mean {e(k)}</th>" for k in score_keys)
        yield "<th>mean basis size</th></tr>"
        for model, group in sorted(by_model.items()):
            yield f"<tr><td>{e(model)}</td><td class=num>{len(group)}</td>"
            for k in score_keys:
                vals = [v for r in group if (v := r.scores.get(k)) is not None]
                yield f"<td class=num>{_fmt(mean(vals)) if vals else '—'}</td>"
            yield f"<td class=num>{mean(len(r.basis) for r in group):.1f}</td></tr>"
        yield "</table>"

        yield from self._matrix_section(links)

        yield "<h2>Plots</h2><div class=plots>"
        yield _comprehensiveness_plot(by_model)
        yield _icat_plot(by_model)
        yield _precision_recall_plot(by_model)
        yield _aspect_heatmap(by_model)
        yield "</div>"

        yield ("<h2>Per evaluation</h2>" + cards_html
               + "<table><tr><th>id</th><th>model</th><th>method</th>")
        yield from (f"<th>{e(k)}</th>" for k in score_keys)
        yield "<th>basis</th><th>contradicted</th><th>view</th></tr>"
        for r in rows:
            yield f"<tr><td>{e(r.id)}</td><td>{e(r.model)}</td><td>{e(r.method)}</td>"
            yield from (f"<td class=num>{_fmt(r.scores.get(k))}</td>" for k in score_keys)
            yield f"<td class=num>{len(r.basis)}</td>"
            yield f"<td class=num>{len(r.contradicted)}</td>"
            link = links.get(r.id)
            yield f'<td><a href="{e(link, quote=True)}">graph</a></td>' if link else "<td></td>"
            yield "</tr>"
        yield "</table>"

        yield "<h2>Uncovered basis per evaluation</h2>"
        for r in rows:
            items = "".join(f"<li>{e(text)}</li>" for text in r.basis) or "<li>(none)</li>"
            yield (f"<details><summary>{e(r.id)} · {e(r.model)} · "
                   f"{len(r.basis)} facts to add</summary>"
                   f"<p class=query>{e(r.query)}</p><ol>{items}</ol></details>")

        yield "<h2>Contradicted response statements per evaluation</h2>"
        wrong = [r for r in rows if r.contradicted]
        if not wrong:
            yield "<p>No response statement contradicts a background statement.</p>"
        for r in wrong:
            items = "".join(f"<li>{e(text)}<ul>" + "".join(
                f"<li>contradicts: {e(f)}" + (f"<p class=why>{e(line)}</p>" if line else "")
                + "</li>" for f, line in facts) + "</ul></li>" for text, facts in r.contradicted)
            yield (f"<details><summary>{e(r.id)} · {e(r.model)} · "
                   f"{len(r.contradicted)} contradicted</summary>"
                   f"<p class=query>{e(r.query)}</p><ol>{items}</ol></details>")

        yield from _why_section(rows)

    def _matrix_section(self, links: Mapping[str, str]) -> Iterator[str | Iterator[str]]:
        """One coverage matrix per query with context facts (see factgraph.viz.matrix), built
        and drawn one at a time; a cell links to its response's view opened at that statement.
        A single empty item when no query has context facts."""
        from factgraph.viz.matrix import iter_matrix_html

        builders = [b for b in self.matrices.builders() if b.has_rows]
        if not builders:
            yield ""
            return
        yield "<h2>Coverage matrix per query</h2>"
        yield ("<p>Rows: the query's context facts, merged across responses as the fact "
               "database merges them; columns: responses grouped by model. Facts every response "
               "misses come first. Click a cell to open that response's graph at the fact.</p>")
        for b in builders:
            yield f"<h3 class=query>{html.escape(b.query or '(no query)')}</h3>"
            yield iter_matrix_html(b.build(), links)  # built when reached, one at a time


def _why_section(rows: Sequence[EvaluationRow]) -> Iterator[str]:
    """Per evaluation, each context fact (one per component) with why it is covered,
    contradicted or missing (``factgraph.graph.reasons``: the response statement quoted, the check
    and its value)."""
    e = html.escape
    yield "<h2>Why each context fact is covered, contradicted or missing</h2>"
    with_facts = [r for r in rows if r.reasons]
    if not with_facts:
        yield "<p>No context facts in these results.</p>"
    for r in with_facts:
        counts = Counter(status for _, status, _ in r.reasons)
        body = "".join(f"<tr><td>{e(text)}</td><td>{e(status)}</td><td class=why>{e(line)}</td>"
                       "</tr>" for text, status, line in r.reasons)
        yield (f"<details class=why><summary>{e(r.id)} · {e(r.model)} · "
               f"{counts['covered']} covered, {counts['contradicted']} contradicted, "
               f"{counts['missing']} missing</summary><p class=query>{e(r.query)}</p>"
               "<table><tr><th>fact</th><th>status</th><th>why</th></tr>"
               f"{body}</table></details>")


def render_report(evaluations: Iterable[Evaluation], view_links: Mapping[str, str] | None = None,
                  title: str = "factgraph report", judge_cards: Sequence[str] = ()) -> str:
    """The report page. ``view_links`` maps evaluation ids to relative URLs of their views;
    ``judge_cards`` (one line each, ``JudgeCard.one_line``) are shown beside every score table
    so a reader sees how far the scores can be trusted."""
    builder = ReportBuilder()
    for ev in evaluations:
        builder.add(ev)
    return "".join(builder.chunks(view_links, title, judge_cards))


def write_report(path: str | os.PathLike[str], builder: ReportBuilder,
                 view_links: Mapping[str, str] | None = None, title: str = "factgraph report",
                 judge_cards: Sequence[str] = ()) -> None:
    """Write the report page piece by piece (never the whole page in memory), atomically: a
    temporary file in the same folder, renamed when complete."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp{os.getpid()}")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            for chunk in builder.chunks(view_links, title, judge_cards):
                f.write(chunk)
        os.replace(tmp, out)
    finally:
        tmp.unlink(missing_ok=True)


def _figure(caption: str, chart: str) -> str:
    return f"<figure>{chart}<figcaption>{html.escape(caption)}</figcaption></figure>"


def _none(caption: str, why: str) -> str:
    return f"<figure class=empty><p>{html.escape(why)}</p><figcaption>{html.escape(caption)}" \
           "</figcaption></figure>"


def _comprehensiveness_plot(by_model: dict[str, list[EvaluationRow]]) -> str:
    cap = "Comprehensiveness per model (dots: responses; bar: mean)"
    values = {m: [v for ev in evs if (v := ev.scores.get("comprehensiveness")) is not None]
              for m, evs in sorted(by_model.items())}
    values = {m: v for m, v in values.items() if v}
    if not values:
        return _none(cap, "No comprehensiveness scores in these results.")
    return _figure(cap, svg.strip_plot(values, cap, "comprehensiveness S"))


def _icat_plot(by_model: dict[str, list[EvaluationRow]]) -> str:
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


def _precision_recall_plot(by_model: dict[str, list[EvaluationRow]]) -> str:
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


def _aspect_heatmap(by_model: dict[str, list[EvaluationRow]]) -> str:
    cap = "Coverage by aspect: share of a model's responses covering each aspect"
    counts: dict[tuple[str, str], list[bool]] = defaultdict(list)
    aspects: list[str] = []
    for model, evs in sorted(by_model.items()):
        for ev in evs:
            for text, is_covered in ev.aspects:
                if text not in aspects:
                    aspects.append(text)
                counts[(model, text)].append(is_covered)
    if not aspects:
        return _none(cap, "No aspects in these results.")
    values = {k: sum(v) / len(v) for k, v in counts.items()}
    return _figure(cap, svg.heatmap(sorted(by_model), aspects, values, cap))
