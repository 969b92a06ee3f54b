"""How stages show lists to a model. The prompts themselves are data in ``factgraph.prompts``
(read through the session: ``session.prompt(name)``, so a user's prompt directory applies)."""

from __future__ import annotations


def numbered(items: list[str], start: int = 1) -> str:
    """``1. first\\n2. second`` — how lists of statements are shown to a model."""
    return "\n".join(f"{i}. {text}" for i, text in enumerate(items, start))
