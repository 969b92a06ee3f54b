"""Jupyter display: the view page inside an iframe (its own document, its own CSP)."""

from __future__ import annotations

import html

from factgraph.models import Evaluation, FactGraph


def iframe(obj: Evaluation | FactGraph, height: int = 640) -> str:
    from factgraph.viz.view import render_view

    page = html.escape(render_view(obj), quote=True)
    return (f'<iframe srcdoc="{page}" style="width:100%;height:{height}px;border:1px solid '
            '#d9dee3" sandbox="allow-scripts"></iframe>')
