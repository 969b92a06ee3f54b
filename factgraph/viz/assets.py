"""The templates, scripts and styles the views and reports are made of (the repository's
``viz/``; ``factgraph/_viz`` in a wheel, see ``setup.py``)."""

from __future__ import annotations

from pathlib import Path

from factgraph.io import shipped_folder


def viz_dir() -> Path:
    """The shipped ``viz/`` folder (pyvis reads its templates from it)."""
    return shipped_folder("viz")


def viz_path(*parts: str) -> Path:
    """A file inside it, e.g. ``viz_path("view.html")``."""
    return viz_dir().joinpath(*parts)
