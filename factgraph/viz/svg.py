"""Small inline-SVG charts for reports (no JavaScript, no network). All text is escaped."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

COLORS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
          "#ff9da7", "#9c755f", "#bab0ac"]
W, H, L, R, T, B = 520, 300, 52, 150, 16, 40  # size and margins


def _frame(title: str, x_label: str, y_label: str, body: list[str],
           x_ticks: Sequence[tuple[float, str]], y_ticks: Sequence[tuple[float, str]]) -> str:
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" '
             f'height="{H}" role="img" aria-label="{escape(title)}" class="fg-chart">',
             f'<rect x="{L}" y="{T}" width="{W - L - R}" height="{H - T - B}" fill="#fff" '
             'stroke="#cbd2d9"/>']
    for px, label in x_ticks:
        parts.append(f'<line x1="{px:.1f}" y1="{H - B}" x2="{px:.1f}" y2="{H - B + 4}" '
                     'stroke="#52606d"/>')
        parts.append(f'<text x="{px:.1f}" y="{H - B + 16}" text-anchor="middle" '
                     f'font-size="11">{escape(label)}</text>')
    for py, label in y_ticks:
        parts.append(f'<line x1="{L - 4}" y1="{py:.1f}" x2="{W - R}" y2="{py:.1f}" '
                     'stroke="#eef1f4"/>')
        parts.append(f'<text x="{L - 6}" y="{py + 4:.1f}" text-anchor="end" '
                     f'font-size="11">{escape(label)}</text>')
    parts += body
    parts.append(f'<text x="{(L + W - R) / 2:.1f}" y="{H - 6}" text-anchor="middle" '
                 f'font-size="12">{escape(x_label)}</text>')
    parts.append(f'<text transform="translate(13 {(T + H - B) / 2:.1f}) rotate(-90)" '
                 f'text-anchor="middle" font-size="12">{escape(y_label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _legend(names: Sequence[str]) -> list[str]:
    out = []
    for i, name in enumerate(names):
        y = T + 8 + 16 * i
        out.append(f'<rect x="{W - R + 10}" y="{y - 8}" width="10" height="10" '
                   f'fill="{COLORS[i % len(COLORS)]}"/>')
        out.append(f'<text x="{W - R + 24}" y="{y + 1}" font-size="11">'
                   f'{escape(name[:22])}</text>')
    return out


def _y(v: float, lo: float = 0.0, hi: float = 1.0) -> float:
    return H - B - (v - lo) / (hi - lo or 1) * (H - T - B)


def line_chart(series: Mapping[str, Sequence[tuple[float, float]]], title: str, x_label: str,
               y_label: str, log_x: bool = True) -> str:
    """Lines of (x, y) per series; y in [0, 1]; x on a log scale by default (β sweeps)."""
    import math

    xs = [x for pts in series.values() for x, _ in pts]
    tx = (lambda v: math.log10(v)) if log_x else (lambda v: v)
    lo, hi = tx(min(xs)), tx(max(xs))

    def px(v: float) -> float:
        return L + (tx(v) - lo) / ((hi - lo) or 1) * (W - L - R)

    body = []
    for i, (name, pts) in enumerate(series.items()):
        d = " ".join(f"{'M' if k == 0 else 'L'}{px(x):.1f},{_y(y):.1f}" for k, (x, y) in
                     enumerate(pts))
        body.append(f'<path d="{d}" fill="none" stroke="{COLORS[i % len(COLORS)]}" '
                    f'stroke-width="2"><title>{escape(name)}</title></path>')
    body += _legend(list(series))
    ticks = sorted({x for x in xs})
    x_ticks = [(px(x), f"{x:g}") for x in ticks][:: max(1, len(ticks) // 8)]
    y_ticks = [(_y(v), f"{v:.1f}") for v in (0, 0.25, 0.5, 0.75, 1.0)]
    return _frame(title, x_label, y_label, body, x_ticks, y_ticks)


def scatter(points: Mapping[str, tuple[float, float]], title: str, x_label: str,
            y_label: str) -> str:
    """One labelled point per name, both axes in [0, 1]."""
    def px(v: float) -> float:
        return L + v * (W - L - R)

    body = []
    for i, (name, (x, y)) in enumerate(points.items()):
        body.append(f'<circle cx="{px(x):.1f}" cy="{_y(y):.1f}" r="6" '
                    f'fill="{COLORS[i % len(COLORS)]}"><title>{escape(name)}: '
                    f'({x:.3f}, {y:.3f})</title></circle>')
    body += _legend(list(points))
    ticks = [(px(v), f"{v:.1f}") for v in (0, 0.25, 0.5, 0.75, 1.0)]
    return _frame(title, x_label, y_label, body, ticks,
                  [(_y(v), f"{v:.1f}") for v in (0, 0.25, 0.5, 0.75, 1.0)])


def strip_plot(values: Mapping[str, Sequence[float]], title: str, x_label: str) -> str:
    """One row per name: a dot per value in [0, 1] and a bar at the mean."""
    names = list(values)
    row_h = max(18.0, min(40.0, (H - T - B) / max(len(names), 1)))
    height = int(T + B + row_h * len(names))

    def px(v: float) -> float:
        return 130 + v * (W - 130 - 30)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {height}" '
             f'width="{W}" height="{height}" role="img" aria-label="{escape(title)}" '
             'class="fg-chart">']
    for v in (0, 0.25, 0.5, 0.75, 1.0):
        parts.append(f'<line x1="{px(v):.1f}" y1="{T}" x2="{px(v):.1f}" y2="{height - B}" '
                     'stroke="#eef1f4"/>')
        parts.append(f'<text x="{px(v):.1f}" y="{height - B + 16}" text-anchor="middle" '
                     f'font-size="11">{v:.2f}</text>')
    for i, name in enumerate(names):
        cy = T + row_h * (i + 0.5)
        parts.append(f'<text x="122" y="{cy + 4:.1f}" text-anchor="end" font-size="11">'
                     f'{escape(name[:18])}</text>')
        vals = list(values[name])
        for k, v in enumerate(vals):
            jitter = ((k * 7919) % 11 - 5) * row_h / 40
            parts.append(f'<circle cx="{px(v):.1f}" cy="{cy + jitter:.1f}" r="3.5" '
                         f'fill="{COLORS[i % len(COLORS)]}" fill-opacity="0.6"/>')
        if vals:
            mean = sum(vals) / len(vals)
            parts.append(f'<line x1="{px(mean):.1f}" y1="{cy - row_h / 3:.1f}" '
                         f'x2="{px(mean):.1f}" y2="{cy + row_h / 3:.1f}" stroke="#111" '
                         f'stroke-width="2"><title>mean {mean:.3f}</title></line>')
    parts.append(f'<text x="{px(0.5):.1f}" y="{height - 6}" text-anchor="middle" '
                 f'font-size="12">{escape(x_label)}</text></svg>')
    return "".join(parts)


def heatmap(rows: Sequence[str], cols: Sequence[str], values: dict[tuple[str, str], float],
            title: str) -> str:
    """Cells coloured by a value in [0, 1] (missing cells grey)."""
    cw, rh, left, top = 26, 22, 140, 130
    width, height = left + cw * len(cols) + 20, top + rh * len(rows) + 10
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" role="img" aria-label="{escape(title)}" '
             'class="fg-chart">']
    for j, c in enumerate(cols):
        x = left + cw * j + cw / 2
        parts.append(f'<text transform="translate({x:.1f} {top - 6}) rotate(-55)" '
                     f'font-size="11"><title>{escape(c)}</title>{escape(c[:24])}</text>')
    for i, r in enumerate(rows):
        y = top + rh * i
        parts.append(f'<text x="{left - 6}" y="{y + rh / 2 + 4:.1f}" text-anchor="end" '
                     f'font-size="11">{escape(r[:20])}</text>')
        for j, c in enumerate(cols):
            v = values.get((r, c))
            fill = "#e4e7eb" if v is None else \
                f"rgb({int(255 - 166 * v)},{int(255 - 94 * v)},{int(255 - 176 * v)})"
            label = "n/a" if v is None else f"{v:.2f}"
            parts.append(f'<rect x="{left + cw * j}" y="{y}" width="{cw - 2}" height="{rh - 2}" '
                         f'fill="{fill}"><title>{escape(r)} · {escape(c)}: {label}</title>'
                         '</rect>')
    parts.append("</svg>")
    return "".join(parts)
