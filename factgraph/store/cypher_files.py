"""The shipped Cypher files the stores read: the schema per dialect and the named queries.

In the repository the folder lives at the top level (``cypher/``); in an installed wheel it is
packaged as ``factgraph/_cypher`` (``setup.py``).
"""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent.parent  # factgraph/


def cypher_dir() -> Path:
    """The shipped ``cypher/`` folder: the wheel's copy, else the repository's."""
    packaged = _PACKAGE_DIR / "_cypher"
    if packaged.is_dir():
        return packaged
    in_repo = _PACKAGE_DIR.parent / "cypher"
    if in_repo.is_dir():
        return in_repo
    raise FileNotFoundError("factgraph resource folder 'cypher' is missing from this install")


def cypher_path(*parts: str) -> Path:
    """A file of the shipped ``cypher/`` folder: ``cypher_path("schema", "neo4j.cypher")``."""
    return cypher_dir().joinpath(*parts)
