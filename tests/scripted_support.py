"""Helpers for scripted-backend tests of the coverage judges: read a field of a prompt, and
answer one token with its top log-probabilities."""

from __future__ import annotations

from factgraph.backends.base import TokenLogprob


def prompt_field(text: str, name: str) -> str:
    """The value of the ``NAME: value`` line of a filled prompt."""
    for line in text.splitlines():
        if line.startswith(f"{name}:"):
            return line[len(name) + 1:].strip()
    raise AssertionError(f"no {name} in {text!r}")


def one_token_reply(top: dict[str, float]) -> tuple[str, list[TokenLogprob]]:
    """The most probable token of ``top`` (token → log-probability), with ``top`` attached."""
    best = max(top, key=lambda k: top[k])
    return best, [TokenLogprob(token=best, logprob=top[best], top=top)]
