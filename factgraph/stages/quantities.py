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
              "litre": "liter", "millilitres": "milliliters", "mcg": "microgram",
              "microlitre": "microliter", "microlitres": "microliters",
              "micrometre": "micrometer", "micrometres": "micrometers",
              "sqkm": "km**2", "sqm": "m**2", "sqmi": "mi**2", "hp": "horsepower",
              "pa": "pascal", "kpa": "kilopascal", "hpa": "hectopascal", "mbar": "millibar",
              # pint's prefixed units are case-sensitive; text lower-cased reads them so
              "kw": "kW", "mw": "MW", "gw": "GW", "kwh": "kWh", "hz": "Hz", "khz": "kHz",
              "mhz": "MHz", "ghz": "GHz"}

_DIMENSIONS = {
    "length": "mm cm m km metre metres meter meters kilometre kilometres kilometer kilometers "
              "centimetres centimeters millimetres millimeters mile miles mi ft foot feet inch "
              "inches yard yards micrometre micrometres micrometer micrometers",
    "mass": "mg g kg gram grams kilogram kilograms tonne tonnes lb lbs ounce ounces oz "
            "microgram micrograms mcg milligram milligrams",
    "time": "second seconds minute minutes hour hours hr hrs day days week weeks month months "
            "year years decades centuries ms min h microseconds",
    "volume": "ml l litre litres liter liters millilitres milliliters gallon gallons "
              "microlitre microlitres microliter microliters",
    "speed": "mph kph kmh",
    "temperature": "degc degf",
    "data": "kb mb gb tb byte bytes kilobyte kilobytes megabyte megabytes gigabyte gigabytes "
            "terabyte terabytes bit bits kilobit kilobits megabit megabits gigabit gigabits",
    "energy": "kwh kcal joule joules",
    "power": "kw mw gw watt watts kilowatt kilowatts megawatt megawatts gigawatt gigawatts "
             "horsepower hp",
    "area": "hectare hectares acre acres sqkm sqm sqmi",
    "frequency": "hz khz mhz ghz hertz",
    "pressure": "bar mbar pa kpa hpa psi",
}
# each measuring unit and what it measures: two quantities are compared only where both
# measure one thing (pint is asked less, and never about "in" or "a")
# (not "decade" nor "century": the number check's marks of "the 1990s" and "the 12th century",
# no lengths of time; "a decade" is read as "10 years")
MEASURE_UNITS = {unit: dim for dim, units in _DIMENSIONS.items() for unit in units.split()}

_DATA_PREFIXES = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5}
_DATA_UNIT = re.compile(r"^([kmgtp]?)i?(b|bytes?)$")
_SPELLED_DATA_UNIT = re.compile(r"^(kilo|mega|giga|tera|peta|)(byte|bit)s?$")

_TEMPERATURE = re.compile(r"\s*(?:°\s*|\bdeg(?:rees?)?\s+)(?:([CF])\b|(celsius|centigrade|"
                          r"fahrenheit)\b)", re.I)
# a temperature below zero: "-10 °C", "−10 °C", "minus 10 degrees" (a hyphen after a number
# is a range or a score: "30 -20" is none)
BELOW_ZERO = re.compile(r"(?:(?<=[\s(])|^)(?:[-−]|minus\s+)(\d[\d.,]*)(?=\s*(?:degc|degf|"
                        r"degrees?)\b)", re.I)
_QUANTITY = re.compile(r"(?<![\w.,])(minus )?(\d+(?:\.\d+)?) ?([a-z]+)\b")


# an area in square units: "1 square kilometre", "5 km²", "3 sq miles" (one word, as a unit is)
_SQUARE = re.compile(r"\b(?:square|sq\.?)\s+(kilomet(?:re|er)s?|km|met(?:re|er)s?|m|miles?|mi)\b|"
                     r"(?<=\d)\s?(km|m)²", re.I)


def _square(m: re.Match[str]) -> str:
    unit = (m.group(1) or m.group(2)).lower()
    name = "sqmi" if unit.startswith("mi") else "sqkm" if unit.startswith("k") else "sqm"
    return name if m.group(1) else f" {name}"


def temperatures_as_units(text: str) -> str:
    """``text`` with a temperature's scale as pint's unit ("100 °C" -> "100 degc"), a
    temperature below zero written "minus" ("-10 degc" -> "minus 10 degc") and an area in
    square units as one word ("1 square kilometre" -> "1 sqkm")."""
    text = _SQUARE.sub(_square, text)
    text = _TEMPERATURE.sub(lambda m: " degf" if (m.group(1) or m.group(2))[0].lower() == "f"
                            else " degc", text)
    return BELOW_ZERO.sub(r"minus \1", text)


def _data_unit(unit: str) -> tuple[int, int] | None:
    """(the power of its prefix, bits per unit) of a unit of data ("gb" -> (3, 8), "megabits"
    -> (2, 1)); None for any other word."""
    short = _DATA_UNIT.match(unit)
    if short is not None:
        return _DATA_PREFIXES[short.group(1)], 8
    spelled = _SPELLED_DATA_UNIT.match(unit)
    if spelled is None:
        return None
    return _DATA_PREFIXES[spelled.group(1)[:1]], 8 if spelled.group(2) == "byte" else 1


def _same_data_size(a: float, ua: str, b: float, ub: str) -> bool | None:
    """True / False when both are sizes of data ("2 MB" / "2,048 KB", "100 megabits" / "12.5
    megabytes"): equal within 1% with the prefixes read as powers of 1,000 or of 1,024, as
    both are written; None when they are not both sizes of data."""
    da, db = _data_unit(ua), _data_unit(ub)
    if da is None or db is None:
        return None
    (pa, bits_a), (pb, bits_b) = da, db
    return any(abs(a * bits_a * base**pa - b * bits_b * base**pb)
               <= 0.01 * abs(b * bits_b * base**pb) for base in (1000, 1024))


_YEARS = {"decades": 10, "centuries": 100}


def _in_years(value: float, unit: str) -> tuple[float, str]:
    """A length of decades or centuries in years ("2 decades" -> (20, "years"))."""
    return (value * _YEARS[unit], "years") if unit in _YEARS else (value, unit)


@lru_cache(maxsize=4096)  # a response's quantities meet each fact's: the same pairs recur
def equal_quantities(a: float, ua: str, b: float, ub: str, tolerance: float = 0.01
                     ) -> bool | None:
    """True / False when ``a ua`` and ``b ub`` are quantities of one dimension (equal within
    ``tolerance``, 1%: "2 hours" / "120 minutes", "-10 degc" / "14 degf"; sizes of data with
    either prefix base), None when they cannot be compared (a word that is no unit, two
    dimensions, a count)."""
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
        return bool(abs(qa.to(qb.units).magnitude - qb.magnitude) <= tolerance * abs(
            qb.magnitude))
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
