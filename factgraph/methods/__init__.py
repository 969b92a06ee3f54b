"""Evaluation methods: each composes stages into one ``run(inp, session, options)`` returning
an Evaluation. The registry (``factgraph.methods.registry``) is the one list of them:
``METHODS`` maps a method name to its :class:`MethodSpec`, imported only when used."""

from __future__ import annotations

from typing import Any

from factgraph.methods.registry import (
    METHODS,
    Method,
    MethodSpec,
    Runner,
    available_methods,
    get_method_spec,
    register_method,
)
from factgraph.plugins import resolved

__all__ = ["METHODS", "Method", "MethodSpec", "Runner", "available_methods", "get_method",
           "get_method_spec", "register_method"]


def get_method(name: str) -> tuple[type[Any], Runner]:
    """(options class, run function) of a method, its run code imported (a spec may name its
    ``run`` with :func:`~factgraph.plugins.lazy_callable`); ValueError naming the known ones."""
    spec = get_method_spec(name)
    return spec.options, resolved(spec.run)
