"""The shipped Cypher files the stores read: the schema per dialect and the named queries
(the repository's ``cypher/``; ``factgraph/_cypher`` in a wheel, see ``setup.py``)."""

from __future__ import annotations

from pathlib import Path

from factgraph.io import shipped_folder


def cypher_dir() -> Path:
    """The shipped ``cypher/`` folder."""
    return shipped_folder("cypher")


def cypher_path(*parts: str) -> Path:
    """One of its files: ``cypher_path("schema", "neo4j.cypher")``."""
    return cypher_dir().joinpath(*parts)
