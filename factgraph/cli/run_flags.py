"""The run flags of ``evaluate``, ``batch`` and ``meta-eval`` (``--model``, ``--max-tokens``,
``--max-pairs`` …), generated from the settings models of :mod:`factgraph.config` the way the
method flags are generated from the options models: one flag per field, ``--kebab-name``,
its help the field's description (and its default), its type the field's. A setting added to
:class:`~factgraph.config.GenerationSettings`, :class:`~factgraph.config.LimitSettings` or
:class:`~factgraph.config.EvaluationConfig` is a flag, a ``--config`` key and a keyword of
``factgraph.evaluate`` at once.

The settings a command spells itself (``--method``, ``--prompts DIR``, ``--cache PATH`` /
``--no-cache``) are :data:`DECLARED`; the sections (``generation``, ``limits``, ``options``)
are not flags.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import click
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from factgraph.cli.method_flags import click_type, strip_none
from factgraph.config import SECTIONS, EvaluationConfig, GenerationSettings, LimitSettings

Decorator = Callable[[Any], Any]

# the run settings whose flags the commands write by hand: --method (the registry's names,
# eager), --prompts DIR (prompts_dir), --cache PATH and --no-cache (the one setting cache)
DECLARED = frozenset({"method", "prompts_dir", "cache"})
# the keywords of the hand-written flags that build_config reads as settings (``cache``'s)
CACHE_KEYWORDS = ("cache_path", "no_cache")


def model_settings() -> dict[str, FieldInfo]:
    """The settings of :class:`EvaluationConfig` itself that are flags (the models, the
    server): every field but the sections and the :data:`DECLARED` ones."""
    return {name: info for name, info in EvaluationConfig.model_fields.items()
            if name not in DECLARED and name not in SECTIONS}


def section_settings() -> dict[str, FieldInfo]:
    """The generation and limit settings, each a flag under its own name."""
    models: tuple[type[BaseModel], ...] = (GenerationSettings, LimitSettings)
    return {name: info for model in models for name, info in model.model_fields.items()}


def setting_keywords() -> tuple[str, ...]:
    """Every keyword of the run flags (what :func:`factgraph.cli.evaluate.build_config` hands
    to the configuration as a setting, not as a method option)."""
    return (*model_settings(), *section_settings(), *CACHE_KEYWORDS)


def setting_option(name: str, info: FieldInfo) -> Decorator:
    """The flag of one setting. Its default is None, so that a flag not given leaves the
    ``--config`` file's value (or the setting's default) in place; the help shows the
    setting's default."""
    flag = name.replace("_", "-")
    help_text = info.description or ""
    if info.default is not None:
        help_text += f" [default: {info.default}]"
    if strip_none(info.annotation) is bool:
        return click.option(f"--{flag}/--no-{flag}", name, default=None, help=help_text)
    return click.option(f"--{flag}", name, type=click_type(info), default=None, help=help_text)


def setting_options(fields: dict[str, FieldInfo]) -> list[Decorator]:
    """The flags of ``fields``, in their order."""
    return [setting_option(name, info) for name, info in fields.items()]


def param_names(decorators: Iterable[Decorator]) -> frozenset[str]:
    """The keywords and spellings (``--max-tokens``) of the params the ``decorators`` add,
    read off a command built from them alone: the names a method's option may not take."""
    def nothing(**kw: Any) -> None:
        return None

    for decorate in decorators:
        nothing = decorate(nothing)
    command = click.command()(nothing)
    return frozenset(name for p in command.params
                     for name in (p.name or "", *p.opts, *p.secondary_opts) if name)
