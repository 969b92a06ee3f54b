"""The method-option flags of ``evaluate``, ``batch`` and ``meta-eval``, generated from the
registered methods' options models (``factgraph.methods.registry``): one flag per option,
``--kebab-name`` (or the field's ``json_schema_extra={"flag": ...}``), its help the field's
description prefixed by the methods that take it, ``--x/--no-x`` for a bool, a choice for a
``Literal``. Two methods share a flag only when their option means the same (same
description); otherwise each field names its own flag (``--icat-beta``, ``--prf-beta``) and the
bare name (``--beta``) stays accepted as a hidden flag that sets the chosen method's option.

An installed method whose option would take a flag that is already another method's with
another meaning, or a keyword or spelling of the run flags (``option_flags(reserved)``, read
off the built params), gets no flag for that option; one that takes a command's own flag gets
none in that command (:class:`MethodFlagsCommand`). One warning names it, the other methods'
flags and the commands keep working, and the option stays settable with ``--set NAME=VALUE``
(or a ``--config`` file's ``[options]`` table).
"""

from __future__ import annotations

import logging
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import click
from pydantic.fields import FieldInfo

from factgraph.methods.registry import METHODS, option_fields, option_flag

log = logging.getLogger(__name__)


@dataclass
class OptionFlag:
    """One generated flag: ``dest`` is its keyword in the command (``kw[dest]``), ``option``
    the flat option name it sets, ``methods`` the methods that take it."""

    flag: str
    dest: str
    option: str
    info: FieldInfo
    methods: list[str] = field(default_factory=list)
    hidden: bool = False

    @property
    def flag_name(self) -> str:
        return f"--{self.flag}"

    @property
    def is_bool(self) -> bool:
        return strip_none(self.info.annotation) is bool

    def help(self) -> str:
        return f"[{', '.join(self.methods)}] {self.info.description or ''}".strip()

    def click_option(self) -> Callable[[Any], Any]:
        common: dict[str, Any] = {"cls": MethodOption, "methods": self.methods,
                                  "option": self.option, "default": None, "help": self.help(),
                                  "hidden": self.hidden}
        if self.is_bool:
            return click.option(f"--{self.flag}/--no-{self.flag}", self.dest, **common)
        return click.option(f"--{self.flag}", self.dest, type=click_type(self.info), **common)


class MethodOption(click.Option):
    """A method option's flag. Its help row shows only where no method is chosen yet or the
    chosen one takes it, so ``--method X --help`` lists X's flags alone (``--method`` is eager,
    so it is read before ``--help`` when it comes first)."""

    def __init__(self, *args: Any, methods: list[str] | None = None, option: str = "",
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.methods = methods if methods is not None else []
        self.option = option or (self.name or "")

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        chosen = ctx.params.get("method")
        if chosen and chosen not in self.methods:
            return None
        return super().get_help_record(ctx)


def strip_none(annotation: Any) -> Any:
    """``X`` of ``X | None`` (a field's type as a flag reads it)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return annotation


def click_type(info: FieldInfo) -> Any:
    """The click type of a field's flag: a choice for a ``Literal``, else int, float or str."""
    ann = strip_none(info.annotation)
    if typing.get_origin(ann) is Literal:
        return click.Choice([str(v) for v in typing.get_args(ann)])
    return ann if ann in (int, float, str) else str


def _same_meaning(a: FieldInfo, b: FieldInfo) -> bool:
    return a.description == b.description and strip_none(a.annotation) == \
        strip_none(b.annotation)


def option_flags(reserved: frozenset[str] = frozenset()) -> list[OptionFlag]:
    """Every registered method's option flags (visible first, then the hidden bare-name
    aliases). ``reserved``: keywords and spellings (``--max-tokens``) the commands already
    use. An option whose flag would be one of them, or another method's flag with another
    meaning, gets no flag: one warning
    says so and how to set it (``--set``); the flags made before it stay (the built-in
    methods come first, so an installed method never takes a built-in's flag)."""
    by_dest: dict[str, OptionFlag] = {}
    aliases: dict[str, OptionFlag] = {}
    for method in METHODS:
        for name, info in option_fields(METHODS[method].options).items():
            flag = option_flag(name, info)
            dest = flag.replace("-", "_")
            seen = by_dest.get(dest)
            if reserved & {dest, f"--{flag}", f"--no-{flag}"}:
                _skip(method, name, flag, "one of the commands' own flags",
                      "in a --config file's [options] table")
                continue
            if seen is None and dest in aliases:
                _skip(method, name, flag, "the old spelling of the option "
                      f"{dest!r} of {', '.join(aliases[dest].methods)}")
                continue
            if seen is None:
                by_dest[dest] = OptionFlag(flag, dest, name, info, [method])
            elif seen.option == name and _same_meaning(seen.info, info):
                seen.methods.append(method)
            else:
                _skip(method, name, flag, f"the flag of option {seen.option!r} of "
                                          f"{', '.join(seen.methods)}, which means another thing")
                continue
            bare = name.replace("_", "-")
            if bare != flag:  # the bare name: the chosen method's option
                alias = aliases.setdefault(name, OptionFlag(bare, name, name, info, [],
                                                            hidden=True))
                alias.methods.append(method)
    for name, alias in list(aliases.items()):
        if name in by_dest or reserved & {name, alias.flag_name, f"--no-{alias.flag}"}:
            del aliases[name]
    return [*by_dest.values(), *aliases.values()]


class MethodFlagsCommand(click.Command):
    """A command that takes the method flags beside its own: a method flag whose keyword or
    spelling is one of the command's own params (``--limit`` of ``meta-eval facts``) is left
    out of this command, with one warning; the option stays settable with ``--set``. The
    flags are made once for every such command (``option_flags``), so the names the
    commands share are reserved there, and what one command adds is checked here, from the
    params it was built with: no list of the commands' keywords is kept by hand. A command's
    own params are named arguments of its function, so its ``**kw`` (what ``build_config``
    reads against the shared flags) never holds one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        own = [p for p in self.params if not isinstance(p, MethodOption)]
        names = {p.name for p in own}
        spellings = {o for p in own for o in (*p.opts, *p.secondary_opts)}
        kept: list[click.Parameter] = []
        for param in self.params:
            if isinstance(param, MethodOption) and (
                    param.name in names or spellings & {*param.opts, *param.secondary_opts}):
                if not param.hidden:
                    for method in param.methods:
                        _skip(method, param.option, param.opts[0].lstrip("-"),
                              f"one of the own flags of `factgraph {self.name}`")
                continue
            kept.append(param)
        self.params = kept


def _skip(method: str, option: str, flag: str, taken_by: str, how: str = "") -> None:
    how = how or f"with --set {option}=VALUE"
    log.warning("method %s: option %r gets no flag: --%s is %s; set it %s (its author can "
                "name another flag with json_schema_extra={'flag': ...})",
                method, option, flag, taken_by, how)


def flag_options(flags: list[OptionFlag]) -> Callable[[Any], Any]:
    """A decorator adding ``flags`` to a click command."""
    def apply(f: Any) -> Any:
        for opt in reversed(flags):
            f = opt.click_option()(f)
        return f
    return apply


def given_options(flags: list[OptionFlag], kw: dict[str, Any], method: str
                  ) -> tuple[dict[str, Any], list[str]]:
    """The flat options the flags in ``kw`` set, and the flags given that ``method`` does not
    take (``--icat-beta`` with ``--method prf``)."""
    options: dict[str, Any] = {}
    wrong: list[str] = []
    for opt in flags:
        value = kw.get(opt.dest)
        if value is None:
            continue
        if opt.hidden or method in opt.methods or method not in METHODS:
            options[opt.option] = value  # the config names an option no method takes
        else:
            wrong.append(opt.flag_name)
    return options, wrong
