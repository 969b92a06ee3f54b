"""The shipped Cypher files the stores read: the schema per dialect and the named queries.

In the repository the folder lives at the top level (``cypher/``); in an installed wheel it is
packaged as ``factgraph/_cypher`` (``setup.py``).
"""

from __future__ import annotations

from pathlib import Path

from factgraph.io import shipped_folder


def cypher_dir() -> Path:
    """The shipped ``cypher/`` folder: the wheel's copy, else the repository's."""
    return shipped_folder("cypher")


def cypher_path(*parts: str) -> Path:
    """A file of the shipped ``cypher/`` folder: ``cypher_path("schema", "neo4j.cypher")``."""
    return cypher_dir().joinpath(*parts)
