"""Interactive fact-graph views and HTML reports: single offline files, no server."""

from factgraph.viz.report import render_report
from factgraph.viz.view import render_view, view_data

__all__ = ["render_report", "render_view", "view_data"]
