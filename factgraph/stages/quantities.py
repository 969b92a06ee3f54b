"""Quantities: a number with its unit, and when two of them are one ("2 hours" / "120 minutes",
"1,280 metres" / "1.28 km", "-10 °C" / "14 °F", "2 MB" / "2,048 KB").

:func:`equal_quantities` compares two (value, unit) pairs with pint (the shared registry of
:mod:`factgraph.stages.units`) and sizes of data with either prefix base; the number check of
contradictions reads equal ones as no conflict. :func:`stated_quantities` reads the
quantities of a text in a closed list of measuring units (length, mass, time, volume, speed,
temperature, data, energy, power, area), so that a fact whose number a response gives in
another unit has its number stated (``factgraph.stages.fact_evidence``). A closed list, not
whatever pint parses: pint reads "in" as inches and "a" as a year.
"""

from __future__ import annotations

import re
from functools import lru_cache

from factgraph.stages.number_forms import (
    number_words_as_digits,
    numbers_as_values,
    split_glued_units,
)
from factgraph.stages.units import unit_registry

# the spellings pint does not read as the unit they are
PINT_UNITS = {"degc": "degC", "degf": "degF", "kph": "km/h", "kmh": "km/h", "hrs": "hours",
              "hr": "hour", "lbs": "lb", "tonnes": "tonne", "metres": "meters",
              "metre": "meter", "kilometres": "kilometers", "kilometre": "kilometer",
              "centimetres": "centimeters", "millimetres": "millimeters", "litres": "liters",
              "litre": "liter", "millilitres": "milliliters"}

_DIMENSIONS = {
    "length": "mm cm m km metre metres meter meters kilometre kilometres kilometer kilometers "
              "centimetres centimeters millimetres millimeters mile miles mi ft foot feet inch "
              "inches yard yards",
    "mass": "mg g kg gram grams kilogram kilograms tonne tonnes lb lbs ounce ounces oz",
    "time": "second seconds minute minutes hour hours hr hrs day days week weeks month months "
            "year years decades centuries ms min h",
    "volume": "ml l litre litres liter liters millilitres milliliters gallon gallons",
    "speed": "mph kph kmh",
    "temperature": "degc degf",
    "data": "kb mb gb tb byte bytes",
    "energy": "kwh kcal joule joules",
    "power": "kw mw gw watt watts",
    "area": "hectare hectares acre acres",
}
# each measuring unit and what it measures: two quantities are compared only where both
# measure one thing (pint is asked less, and never about "in" or "a")
# (not "decade" nor "century": the number check's marks of "the 1990s" and "the 12th century",
# no lengths of time; "a decade" is read as "10 years")
MEASURE_UNITS = {unit: dim for dim, units in _DIMENSIONS.items() for unit in units.split()}

_DATA_PREFIXES = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5}
_DATA_UNIT = re.compile(r"^([kmgtp]?)i?(b|bytes?)$")

_TEMPERATURE = re.compile(r"\s*(?:°\s*|\bdeg(?:rees?)?\s+)(?:([CF])\b|(celsius|centigrade|"
                          r"fahrenheit)\b)", re.I)
# a temperature below zero: "-10 °C", "−10 °C", "minus 10 degrees" (a hyphen after a number
# is a range or a score: "30 -20" is none)
BELOW_ZERO = re.compile(r"(?:(?<=[\s(])|^)(?:[-−]|minus\s+)(\d[\d.,]*)(?=\s*(?:degc|degf|"
                        r"degrees?)\b)", re.I)
_QUANTITY = re.compile(r"(?<![\w.,])(minus )?(\d+(?:\.\d+)?) ?([a-z]+)\b")


def temperatures_as_units(text: str) -> str:
    """``text`` with a temperature's scale as pint's unit ("100 °C" -> "100 degc") and a
    temperature below zero written "minus" ("-10 degc" -> "minus 10 degc")."""
    text = _TEMPERATURE.sub(lambda m: " degf" if (m.group(1) or m.group(2))[0].lower() == "f"
                            else " degc", text)
    return BELOW_ZERO.sub(r"minus \1", text)


def _same_data_size(a: float, ua: str, b: float, ub: str) -> bool | None:
    """True / False when both are sizes of data in bytes ("2 MB" / "2,048 KB"): equal within
    1% with the prefixes read as powers of 1,000 or of 1,024, as both are written; None when
    they are not both sizes of data."""
    ma, mb = _DATA_UNIT.match(ua), _DATA_UNIT.match(ub)
    if ma is None or mb is None:
        return None
    pa, pb = _DATA_PREFIXES[ma.group(1)], _DATA_PREFIXES[mb.group(1)]
    return any(abs(a * base**pa - b * base**pb) <= 0.01 * abs(b * base**pb)
               for base in (1000, 1024))


_YEARS = {"decades": 10, "centuries": 100}


def _in_years(value: float, unit: str) -> tuple[float, str]:
    """A length of decades or centuries in years ("2 decades" -> (20, "years"))."""
    return (value * _YEARS[unit], "years") if unit in _YEARS else (value, unit)


@lru_cache(maxsize=4096)  # a response's quantities meet each fact's: the same pairs recur
def equal_quantities(a: float, ua: str, b: float, ub: str) -> bool | None:
    """True / False when ``a ua`` and ``b ub`` are quantities of one dimension (equal within
    1%: "2 hours" / "120 minutes", "-10 degc" / "14 degf"; sizes of data with either prefix
    base), None when they cannot be compared (a word that is no unit, two dimensions, a
    count)."""
    data = _same_data_size(a, ua, b, ub)
    if data is not None:
        return data
    # pint reads "decade" as a logarithmic ratio: a decade and a century as years
    (a, ua), (b, ub) = _in_years(a, ua), _in_years(b, ub)
    try:
        reg = unit_registry()
        qa = reg.Quantity(a, PINT_UNITS.get(ua, ua))
        qb = reg.Quantity(b, PINT_UNITS.get(ub, ub))
        if qa.dimensionality != qb.dimensionality or qa.dimensionless:
            return None
        return bool(abs(qa.to(qb.units).magnitude - qb.magnitude) <= 0.01 * abs(qb.magnitude))
    except Exception:  # pint raises many kinds of errors for words that are not units
        return None


def stated_quantities(text: str) -> list[tuple[str, float, str]]:
    """(the number as content words read it, its value, its unit) for each number of ``text``
    followed by a unit of :data:`MEASURE_UNITS` ("1,280 metres" -> ("1280", 1280.0,
    "metres"); "-10 °C" -> ("10", -10.0, "degc"); "two weeks" -> ("2", 2.0, "weeks"))."""
    plain = number_words_as_digits(numbers_as_values(split_glued_units(text)))
    plain = temperatures_as_units(plain).lower()
    return [(m.group(2), -float(m.group(2)) if m.group(1) else float(m.group(2)), m.group(3))
            for m in _QUANTITY.finditer(plain) if m.group(3) in MEASURE_UNITS]
