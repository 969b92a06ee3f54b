"""One pint unit registry for every stage that reads quantities (answer comparison, the number
check of contradictions): building one takes about a second, so it is built once, on first use."""

from __future__ import annotations

import logging
from functools import cache
from typing import Any


class _AmbiguousUnitNames(logging.Filter):
    """Drops pint's warning that a word reads as several units ("Parsing amps yield multiple
    results"): the number check asks pint about words of running text, and an ambiguous one
    is no quantity it compares (pint's first reading decides, as before), not news for the
    user."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "yield multiple results" not in record.getMessage()


@cache
def unit_registry() -> Any:
    """The shared :class:`pint.UnitRegistry` (pint imported here, not at import time; its
    warning about ambiguous unit names filtered, :class:`_AmbiguousUnitNames`)."""
    import pint

    logging.getLogger("pint.util").addFilter(_AmbiguousUnitNames())
    return pint.UnitRegistry()
