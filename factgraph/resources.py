"""Locate files shipped with factgraph: the cypher/ query library and the viz/ templates.

In the repository they live at the top level (``cypher/``, ``viz/``); in an installed wheel
they are packaged as ``factgraph/_cypher`` and ``factgraph/_viz`` (see pyproject.toml).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def resource_dir(name: str) -> Path:
    """The folder of a shipped resource set: ``"cypher"`` or ``"viz"``."""
    if name not in {"cypher", "viz"}:
        raise ValueError(f"unknown resource set {name!r}")
    packaged = _PACKAGE_DIR / f"_{name}"
    if packaged.is_dir():
        return packaged
    in_repo = _PACKAGE_DIR.parent / name
    if in_repo.is_dir():
        return in_repo
    raise FileNotFoundError(f"factgraph resource folder {name!r} is missing from this install")


def resource_path(name: str, *parts: str) -> Path:
    """A file inside a resource set, e.g. ``resource_path("cypher", "queries", "x.cypher")``."""
    return resource_dir(name).joinpath(*parts)
