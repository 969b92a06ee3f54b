"""The shipped templates, scripts and styles of the views and reports.

In the repository the folder lives at the top level (``viz/``); in an installed wheel it is
packaged as ``factgraph/_viz`` (``setup.py``).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # factgraph/


def viz_dir() -> Path:
    """The shipped ``viz/`` folder: the wheel's copy, else the repository's."""
    packaged = _PACKAGE_DIR / "_viz"
    if packaged.is_dir():
        return packaged
    in_repo = _PACKAGE_DIR.parent / "viz"
    if in_repo.is_dir():
        return in_repo
    raise FileNotFoundError("factgraph resource folder 'viz' is missing from this install")


def viz_path(*parts: str) -> Path:
    """A file inside the shipped ``viz/`` folder, e.g. ``viz_path("view.html")``."""
    return viz_dir().joinpath(*parts)
