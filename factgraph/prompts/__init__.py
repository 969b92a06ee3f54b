"""Prompts are data: one TOML file per prompt in this folder, and a user's own in theirs.

A prompt file holds a ``system`` text, a ``user`` template with ``$name`` placeholders
(``string.Template``, so JSON braces in prompts need no escaping) and optional few-shot
``[[examples]]`` with ``user`` and ``assistant`` turns. Every prompt and example was written for
this project; weak models (≤1.5B) follow them because each asks for one small JSON value and
shows it twice.

A **prompt directory** of the user's (``--prompts DIR``, ``prompts_dir`` in a config,
``$FACTGRAPH_PROMPTS``) holds files of the same format: ``DIR/<name>.toml`` replaces the packaged
prompt ``<name>`` for the run. Each file is checked before anything runs (its TOML, its keys,
a packaged prompt of that name, the same placeholders as the packaged one); what is wrong is
one line naming the file. A :class:`PromptSet` is what a run uses: the packaged prompts with
the directory's in their place, and the content hash of each replaced one, recorded in every
Evaluation's ``parameters["prompts"]`` (nothing is recorded when nothing is replaced).

**A prompt of another package** (a method installed from outside factgraph) is named
``PACKAGE:NAME`` (or the pair ``(PACKAGE, NAME)``): the file ``NAME.toml`` of that package, found
with ``importlib.resources``, so ``session.prompt(f"{__name__}:facts")`` in the package's
``__init__`` reads its ``facts.toml``. A user's directory replaces it with
``DIR/PACKAGE/NAME.toml`` (a folder named for the package), checked against that package's own
file the same way and recorded under ``PACKAGE:NAME``. A bare ``NAME`` is factgraph's own.

This module sits below the backends (it defines the ChatMessage they are sent): stages read
prompts through their session (``session.prompt(name)``), the generative NLI judge through
its own PromptSet.
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from importlib.util import find_spec
from pathlib import Path
from string import Template
from types import MappingProxyType
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from factgraph.errors import InputError, describe_validation_error

PROMPTS_ENV = "FACTGRAPH_PROMPTS"
BUILTIN_PACKAGE = "factgraph.prompts"  # where a bare prompt name is found

# a prompt's name: "nli" (factgraph's), "PACKAGE:NAME" or ("PACKAGE", "NAME") (another package's)
PromptName = str | tuple[str, str]


class ChatMessage(BaseModel):
    """One turn of a chat: what a prompt renders to and what a text backend is sent
    (``factgraph.backends.base`` uses this same class)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    role: Literal["system", "user", "assistant"]
    content: str


class PromptError(InputError):
    """A prompt file that cannot be used; ``str()`` is one line naming the file."""


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


class _PromptFile(BaseModel):
    """What a prompt file may hold."""

    model_config = ConfigDict(extra="forbid")

    system: str
    user: str
    examples: list[Example] = Field(default_factory=list)


def _prompt_from(name: str, data: dict[str, Any]) -> Prompt:
    parsed = _PromptFile.model_validate(data)
    return Prompt(name=name, system=parsed.system, user=parsed.user,
                  examples=tuple(parsed.examples))


def qualified_name(name: PromptName) -> str:
    """The one spelling of a prompt's name, the key of overrides and of ``parameters["prompts"]``:
    ``NAME`` for factgraph's own (``factgraph/prompts/NAME.toml``, so built-in names read as they
    always have), ``PACKAGE:NAME`` for the file ``NAME.toml`` of another package."""
    if isinstance(name, tuple):
        package, stem = name
    else:
        package, _, stem = name.rpartition(":")
    package = package.strip()
    if not stem or any(c in stem for c in "/\\:"):
        raise ValueError(f"not a prompt name: {name!r} (NAME, PACKAGE:NAME or (PACKAGE, NAME))")
    return stem if package in ("", BUILTIN_PACKAGE) else f"{package}:{stem}"


def _split(name: str) -> tuple[str, str]:
    """``(package, file stem)`` of a qualified name."""
    package, _, stem = name.rpartition(":")
    return package or BUILTIN_PACKAGE, stem


def _packaged_file(name: str) -> Traversable:
    package, stem = _split(name)
    return files(package) / f"{stem}.toml"


@lru_cache(maxsize=64)
def _load(name: str) -> Prompt:
    return _prompt_from(name, tomllib.loads(_packaged_file(name).read_text(encoding="utf-8")))


def load_prompt(name: PromptName) -> Prompt:
    """The packaged prompt ``name``: ``factgraph/prompts/<name>.toml`` for a bare name, the
    package's own ``<name>.toml`` for ``PACKAGE:NAME`` (:func:`qualified_name`)."""
    return _load(qualified_name(name))


def _missing_packaged(name: str) -> str | None:
    """Why another package's prompt ``name`` cannot be found (None: it can). Finding it imports
    the package, as running its method would."""
    package, stem = _split(name)
    try:
        spec = find_spec(package)
    except ImportError:  # a parent package that is not there
        spec = None
    if spec is None:
        return f"no installed package is named {package!r}, so this file would replace nothing"
    if spec.submodule_search_locations is None:
        return f"package {package!r} cannot hold prompts: it is a module, not a package"
    if not _packaged_file(name).is_file():
        return (f"package {package!r} has no prompt {stem}.toml, so this file would replace "
                f"nothing")
    return None


@lru_cache(maxsize=1)
def packaged_names() -> tuple[str, ...]:
    """The names of the packaged prompts, sorted."""
    folder = files("factgraph") / "prompts"
    return tuple(sorted(p.name.removesuffix(".toml") for p in folder.iterdir()
                        if p.name.endswith(".toml")))


def content_hash(data: bytes) -> str:
    """``sha256:<hex>`` of a prompt file's bytes: what ``parameters["prompts"]`` records."""
    return "sha256:" + hashlib.sha256(data).hexdigest()


def read_prompt_file(path: str | os.PathLike[str], name: PromptName | None = None) -> Prompt:
    """A user's prompt file, checked against the packaged prompt it replaces: ``name``, by
    default the file's own name (``<name>.toml``, factgraph's prompt ``<name>``). Valid TOML,
    only ``system`` / ``user`` / ``examples``, a packaged prompt of that name, and the same
    ``$placeholders`` in ``user`` (the stage fills in exactly those). PromptError (one line
    naming the file) otherwise."""
    p = Path(path)
    name = qualified_name(name if name is not None else p.name.removesuffix(".toml"))
    if ":" not in name and name not in packaged_names():
        raise PromptError(p, f"no packaged prompt is named {name!r}, so this file would replace "
                             f"nothing (prompts: {', '.join(packaged_names())})")
    if ":" in name and (problem := _missing_packaged(name)) is not None:
        raise PromptError(p, problem)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise PromptError(p, f"invalid TOML: {e}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise PromptError(p, f"cannot read: {e}") from None
    try:
        prompt = _prompt_from(name, data)
    except ValidationError as e:
        raise PromptError(p, describe_validation_error(e)) from None
    if any(m.group("invalid") is not None for m in Template.pattern.finditer(prompt.user)):
        raise PromptError(p, "user: a lone $ (write $$ for a dollar sign, $name for a field)")
    packaged = load_prompt(name).fields()
    extra, missing = sorted(prompt.fields() - packaged), sorted(packaged - prompt.fields())
    if extra or missing:
        what = "; ".join(x for x in (
            f"unknown field(s) {', '.join('$' + f for f in extra)}" if extra else "",
            f"leaves out {', '.join('$' + f for f in missing)}" if missing else "") if x)
        raise PromptError(p, f"user: {what} (the {name} prompt fills in "
                             f"{', '.join('$' + f for f in sorted(packaged)) or 'nothing'})")
    return prompt


@dataclass(frozen=True)
class PromptSet:
    """The prompts one run uses: the packaged ones, with a user directory's in their place."""

    directory: Path | None = None
    overrides: Mapping[str, Prompt] = field(default_factory=lambda: MappingProxyType({}))
    hashes: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def from_directory(cls, directory: str | os.PathLike[str] | None) -> PromptSet:
        """Every ``*.toml`` of ``directory`` (factgraph's prompts) and of its subfolders
        (``PACKAGE/NAME.toml``: another package's prompt ``PACKAGE:NAME``), checked
        (PromptError on the first bad file); ``None``: the packaged prompts only."""
        if directory is None:
            return cls()
        folder = Path(directory)
        if not folder.is_dir():
            raise PromptError(folder, "no such prompt directory")
        overrides: dict[str, Prompt] = {}
        hashes: dict[str, str] = {}
        found = [(path, path.name.removesuffix(".toml")) for path in sorted(folder.glob("*.toml"))]
        found += [(path, f"{path.parent.name}:{path.name.removesuffix('.toml')}")
                  for path in sorted(folder.glob("*/*.toml"))
                  if not path.parent.name.startswith(".")]
        for path, name in found:
            prompt = read_prompt_file(path, name)
            if prompt.name in overrides:
                raise PromptError(path, f"a second file for the {prompt.name} prompt")
            overrides[prompt.name] = prompt
            hashes[prompt.name] = content_hash(path.read_bytes())
        return cls(folder, MappingProxyType(overrides), MappingProxyType(hashes))

    def get(self, name: PromptName) -> Prompt:
        """The prompt ``name`` (:func:`qualified_name`): the directory's when it has one, else
        the packaged one."""
        qualified = qualified_name(name)
        return self.overrides.get(qualified) or load_prompt(qualified)

    def recorded(self) -> dict[str, str]:
        """What an Evaluation records: replaced prompt name -> content hash (empty: none)."""
        return dict(self.hashes)


PACKAGED = PromptSet()


def prompt_set(directory: str | os.PathLike[str] | None = None) -> PromptSet:
    """The PromptSet of a run: ``directory``, else ``$FACTGRAPH_PROMPTS``, else the packaged
    prompts alone."""
    chosen = directory if directory is not None else os.environ.get(PROMPTS_ENV) or None
    return PACKAGED if chosen is None else PromptSet.from_directory(chosen)
