"""Evaluation methods: each composes stages into one ``run(inp, session, options)`` returning
an Evaluation. ``METHODS`` maps a method name to where it lives, imported only when used."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from factgraph.inputs import EvaluationInput
from factgraph.io import UserInputError
from factgraph.models import Evaluation
from factgraph.stages.session import ModelSession

# name -> (module, options class, run function)
METHODS: dict[str, tuple[str, str, str]] = {
    "nli": ("factgraph.methods.comprehensiveness", "ComprehensivenessOptions", "run_nli"),
    "qa": ("factgraph.methods.comprehensiveness", "ComprehensivenessOptions", "run_qa"),
    "e2e": ("factgraph.methods.comprehensiveness", "ComprehensivenessOptions", "run_e2e"),
    "icat-m": ("factgraph.methods.icat", "ICATOptions", "run_icat_m"),
    "icat-s": ("factgraph.methods.icat", "ICATOptions", "run_icat_s"),
    "icat-a": ("factgraph.methods.icat", "ICATOptions", "run_icat_a"),
    "prf": ("factgraph.methods.precision_recall", "PRFOptions", "run_prf"),
    "argue": ("factgraph.methods.argue", "ArgueOptions", "run_argue"),
}

Runner = Callable[[EvaluationInput, ModelSession, Any], Evaluation]


def get_method(name: str) -> tuple[type[Any], Runner]:
    """(options class, run function) of a method; ValueError naming the known ones."""
    if name not in METHODS:
        raise UserInputError(f"unknown method {name!r}; known: {', '.join(sorted(METHODS))}")
    module, options, func = METHODS[name]
    mod = importlib.import_module(module)
    return getattr(mod, options), getattr(mod, func)
