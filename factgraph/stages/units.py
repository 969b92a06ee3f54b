"""One pint unit registry for every stage that reads quantities (answer comparison, the number
check of contradictions): building one takes about a second, so it is built once, on first use."""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def unit_registry() -> Any:
    """The shared :class:`pint.UnitRegistry` (pint imported here, not at import time)."""
    import pint

    return pint.UnitRegistry()
