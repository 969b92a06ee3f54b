"""Prompts are data: one TOML file per stage in ``factgraph/prompts/``.

A prompt file holds a ``system`` text, a ``user`` template with ``$name`` placeholders
(``string.Template``, so JSON braces in prompts need no escaping) and optional few-shot
``[[examples]]`` with ``user`` and ``assistant`` turns. Every prompt and example was written for
this project; weak models (≤1.5B) follow them because each asks for one small JSON value and
shows it twice.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib.resources import files
from string import Template

from pydantic import BaseModel, ConfigDict, Field

from factgraph.backends.base import ChatMessage


class Example(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    user: str
    assistant: str


class Prompt(BaseModel):
    """A stage prompt: system text, user template, few-shot examples."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    system: str
    user: str
    examples: tuple[Example, ...] = Field(default_factory=tuple)

    def fields(self) -> set[str]:
        """The placeholder names of the user template."""
        return {m.group("named") or m.group("braced")
                for m in Template.pattern.finditer(self.user)
                if m.group("named") or m.group("braced")}

    def messages(self, **values: str) -> list[ChatMessage]:
        """System, the examples as turns, then the filled user template (all fields required)."""
        missing = self.fields() - values.keys()
        if missing:
            raise KeyError(f"prompt {self.name!r} needs {sorted(missing)}")
        out = [ChatMessage(role="system", content=self.system.strip())]
        for ex in self.examples:
            out.append(ChatMessage(role="user", content=ex.user.strip()))
            out.append(ChatMessage(role="assistant", content=ex.assistant.strip()))
        out.append(ChatMessage(role="user",
                               content=Template(self.user.strip()).substitute(values)))
        return out


@lru_cache(maxsize=64)
def load_prompt(name: str) -> Prompt:
    """The packaged prompt ``factgraph/prompts/<name>.toml``."""
    path = files("factgraph") / "prompts" / f"{name}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return Prompt(name=name, system=data["system"], user=data["user"],
                  examples=tuple(Example(**e) for e in data.get("examples", [])))


def numbered(items: list[str], start: int = 1) -> str:
    """``1. first\\n2. second`` — how lists of statements are shown to a model."""
    return "\n".join(f"{i}. {text}" for i, text in enumerate(items, start))
