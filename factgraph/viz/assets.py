"""The shipped templates, scripts and styles of the views and reports.

In the repository the folder lives at the top level (``viz/``); in an installed wheel it is
packaged as ``factgraph/_viz`` (``setup.py``).
"""

from __future__ import annotations

from pathlib import Path

from factgraph.io import shipped_folder


def viz_dir() -> Path:
    """The shipped ``viz/`` folder: the wheel's copy, else the repository's."""
    return shipped_folder("viz")


def viz_path(*parts: str) -> Path:
    """A file of the shipped ``viz/`` folder: ``viz_path("view.html")``."""
    return viz_dir().joinpath(*parts)
