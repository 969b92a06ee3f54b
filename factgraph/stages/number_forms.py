"""One number, many spellings: a number written in any of its common forms read as its value.

"1,200,000", "1 200 000", "1.2 million" and "$1.2m" are one number to a reader, and the evidence
that a fact is stated (its numbers must be there) and the contradiction check (another number
in the fact's slot) must read them as one, or a faithful answer loses its fact and is even shown
as wrong ("1.2 million viewers" / "1,200,000 viewers" was a false contradiction).
:func:`numbers_as_values` rewrites, in place and before any word is read:

* digit groups: "1,500", "1,234.5" and "60 000" (a space, no-break or thin space between groups
  of three digits, as SI style writes them) are "1500", "1234.5" and "60000"; a tokeniser's
  "27 , 000" is 27000 (:func:`join_split_thousands`);
* a fraction of zeros: "5.0" is "5" ("3.10" / "3.1" stay two: a version, or a figure given
  to two places);
* a magnitude: "2.1 million" is "2100000", "fifteen hundred" "1500", "sixty thousand" "60000",
  "a million" "1000000", "$2,500 million" "$2500000000"; "m", "k", "bn", "mn" and "mln" are
  magnitudes after a currency sign ("$120m", "£60k"; "a 60m sprint" measures metres), "bn",
  "mn" and "mln" anywhere, and so are a capital "M" or "B" written onto a number ("8.3M",
  "7B"); a range gives its first number the magnitude of its second ("2 to 3 million" is
  2000000 to 3000000).

A spelling that reads two ways — "1.2m" (1,200,000, or 1.2 metres), "60.000" (60, or 60,000 as
much of Europe writes it) — keeps its first reading; :func:`other_readings` gives the second,
which a response is read as stating too, so that neither reading makes a faithful answer wrong.

Pure functions, text in, text out; the one reading of ``content_words`` and of the number
slots of :mod:`factgraph.stages.conflicts.numbers`.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

# number words, as digits: zero to twenty, and the tens ("thirty" alone is 30)
NUMBER_WORDS = {w: str(n) for n, w in enumerate([
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty"])}
TENS = {w: 10 * n for n, w in enumerate(
    ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"], start=2)}
_WORD_VALUES = {w: int(n) for w, n in NUMBER_WORDS.items()} | TENS | {"a": 1}
_ONE_TO_NINE = list(NUMBER_WORDS)[1:10]

# magnitudes a number is multiplied by wherever it stands before one; the short ones only
# after a currency sign, where they cannot be a unit ("$7m" is seven million, "a 60m sprint"
# sixty metres)
MAGNITUDES = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9,
              "trillion": 10**12, "bn": 10**9, "mn": 10**6, "mln": 10**6}
_CAPITAL_MAGNITUDES = {"M": 10**6, "B": 10**9}  # written onto the number: "8.3M", "7B"
_CURRENCY_MAGNITUDES = {"m": 10**6, "mn": 10**6, "mln": 10**6, "k": 10**3, "b": 10**9}
_CURRENCY_SIGN = r"[$€£¥#]"  # "#": the pound sign as CNN/DailyMail's text writes it

_SPACE = "[ \u00a0\u2009\u202f]"
# groups of three digits after one to three: "1,500", "1,200,000", "60 000" (the same mark
# throughout); not "2010, 500", not a decimal's tail ("3.1415"), not "1,2,3"
_GROUPED = re.compile(rf"(?<![\d.,])(\d{{1,3}})(?:((?:,\d{{3}})+)(?!\d|,\d)|"
                      rf"((?:{_SPACE}\d{{3}})+)(?!\d|[.,]\d|{_SPACE}\d))")
# a month before the first group makes "May 12 300 …" a date and a count, not 12,300
_MONTH_BEFORE = re.compile(r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
                           rf"{_SPACE}$", re.I)
_ZERO_FRACTION = re.compile(r"(?<![\d.])(\d+)\.0+(?!\.?\d)")
_NUMBER = r"\d+(?:\.\d+)?"
_MAGNITUDE_WORD = "|".join(MAGNITUDES)
_NUMBER_WORD_BEFORE_MAGNITUDE = re.compile(
    rf"\b(?:({'|'.join(TENS)})[- ]({'|'.join(_ONE_TO_NINE)})|({'|'.join(_WORD_VALUES)}))"
    rf"(?= (?:{_MAGNITUDE_WORD})\b)", re.I)
_RANGE_BEFORE_MAGNITUDE = re.compile(
    rf"(?<![\d.,])({_NUMBER})(\s*(?:to|and|or|-|–|—)\s*)({_NUMBER})(?=\s*(?:{_MAGNITUDE_WORD})\b)",
    re.I)
# a number and its magnitudes, one after the other ("two hundred thousand", "2.5 thousand
# million")
_SCALED = re.compile(rf"(?<![\d.,])({_NUMBER})((?: ?(?:{_MAGNITUDE_WORD})\b)+)", re.I)
_NAMES = {"bn": "billion", "mn": "million", "mln": "million", "m": "million", "k": "thousand",
          "b": "billion"}
# what ``numbers_as_values(..., mark_magnitudes=True)`` writes after a scaled value
MAGNITUDE_MARKS = frozenset(f"{_NAMES.get(w, w)}s" for w in MAGNITUDES)
_CAPITAL_SCALED = re.compile(rf"(?<![\d.,])({_NUMBER})([MB])\b")
# "1.2m" / "60k" without a currency sign: a magnitude, or metres / a kilo-something
_GLUED_SHORT = re.compile(rf"(?<![\d.,])(?<![$€£¥#])(?<![$€£¥#] )({_NUMBER})([mk])\b")
_THREE_DECIMALS = re.compile(r"(?<![\d.,])(\d{1,3})\.(\d{3})(?!\d|[.,]\d)")
_CURRENCY_SCALED = re.compile(
    rf"({_CURRENCY_SIGN} ?)({_NUMBER}) ?({'|'.join(_CURRENCY_MAGNITUDES)})\b", re.I)


# a number whose thousands a tokeniser set apart ("700 , 000"): one number
_SPLIT_THOUSANDS = re.compile(r"\b(\d{1,3})\s+,\s+(?=\d{3}\b)")


def join_split_thousands(text: str) -> str:
    """``text`` with each number whose thousands a tokeniser set apart written whole
    ("27 , 000" -> "27,000"); a year before a comma ("In 2010 , 500 people") is left alone."""
    return _SPLIT_THOUSANDS.sub(r"\1,", text)


# a digit, or a number word before a magnitude ("sixty thousand"): a text without either has
# no number to rewrite
_ANY_NUMBER = re.compile(rf"\d|\b(?:{_MAGNITUDE_WORD})\b", re.I)


def _value(number: str, factor: int) -> str:
    """``number`` times ``factor`` as plain digits ("1.2", 10**6 -> "1200000")."""
    try:
        scaled = (Decimal(number) * factor).normalize()
    except InvalidOperation:
        return number
    return format(scaled, "f")


def _grouped(m: re.Match[str]) -> str:
    if m.group(3) and _MONTH_BEFORE.search(m.string[: m.start()]):
        return m.group(0)  # "May 12 300 …": a date, then a count
    return m.group(1) + re.sub(r"\D", "", m.group(2) or m.group(3))


def _number_word(m: re.Match[str]) -> str:
    if m.group(1):
        return str(_WORD_VALUES[m.group(1).lower()] + _WORD_VALUES[m.group(2).lower()])
    return str(_WORD_VALUES[m.group(3).lower()])


def _range_scaled(m: re.Match[str]) -> str:
    low, sep, high = m.group(1), m.group(2), m.group(3)
    magnitude = re.match(rf"\s*({_MAGNITUDE_WORD})", m.string[m.end():], re.I)
    if magnitude is None or Decimal(low) > Decimal(high) or Decimal(low) >= 1000:
        return m.group(0)
    return _value(low, MAGNITUDES[magnitude.group(1).lower()]) + sep + high


def numbers_as_values(text: str, mark_magnitudes: bool = False) -> str:
    """``text`` with each number written as its value (module docstring): "1,200,000",
    "1.2 million" and "$1.2m" all read "1200000"; "sixty thousand" reads "60000".
    ``mark_magnitudes`` writes the magnitude, in the plural, after the value it scaled ("1.2
    million" -> "1200000 millions", "$7m" -> "$7000000 millions"): what kind of figure it
    is, for a check that compares a number with the one in the same slot ("23 million" /
    "£49million": two sums of millions); read again, the text stays as it is."""

    def scaled(number: str, factor: int, name: str) -> str:
        mark = f" {_NAMES.get(name.lower(), name.lower())}s" if mark_magnitudes else ""
        return _value(number, factor) + mark

    def chained(m: re.Match[str]) -> str:
        words = m.group(2).split()
        factor = 1
        for w in words:
            factor *= MAGNITUDES[w.lower()]
        return scaled(m.group(1), factor, words[-1])

    if not _ANY_NUMBER.search(text):  # most sentences of prose: nothing to read
        return text
    text = _GROUPED.sub(_grouped, join_split_thousands(text))
    text = _ZERO_FRACTION.sub(r"\1", text)
    text = _NUMBER_WORD_BEFORE_MAGNITUDE.sub(_number_word, text)
    text = _RANGE_BEFORE_MAGNITUDE.sub(_range_scaled, text)
    text = _CAPITAL_SCALED.sub(
        lambda m: scaled(m.group(1), _CAPITAL_MAGNITUDES[m.group(2)], m.group(2)), text)
    text = _CURRENCY_SCALED.sub(lambda m: m.group(1) + scaled(
        m.group(2), _CURRENCY_MAGNITUDES[m.group(3).lower()], m.group(3)), text)
    return _SCALED.sub(chained, text)


def other_readings(text: str) -> set[str]:
    """The second value of each number of ``text`` that reads two ways: "1.2m" and "60k"
    without a currency sign (1200000, 60000: a magnitude, or metres and a kilo-unit) and
    "60.000" (60000, as a thousands mark, or 60 to three places). A response is read as
    stating both, so that a fact's "1.2 million viewers" is neither missing from nor
    contradicted by "1.2m viewers"."""
    out = {_value(m.group(1), _CURRENCY_MAGNITUDES[m.group(2)])
           for m in _GLUED_SHORT.finditer(text)}
    return out | {m.group(1) + m.group(2) for m in _THREE_DECIMALS.finditer(text)}


_SHOWN_MAGNITUDES = (("trillion", 10**12), ("billion", 10**9), ("million", 10**6))


def readable_number(value: str) -> str:
    """A value as a reason shows it: a whole number of a million or more in its magnitude
    where that is short ("2500000000" -> "2.5 billion"), else grouped by thousands from
    10,000 ("1234567" -> "1,234,567"); anything else as it is ("1986", "3.5")."""
    try:
        number = Decimal(value)
    except InvalidOperation:
        return value
    if number != number.to_integral_value() or abs(number) < 10_000:
        return value
    for name, size in _SHOWN_MAGNITUDES:
        scaled = (number / size).normalize()
        if abs(number) >= size and -scaled.as_tuple().exponent <= 3:  # type: ignore[operator]
            return f"{format(scaled, 'f')} {name}"
    return f"{int(number):,}"


# units written onto their number ("8GB", "10km", "500mg"), as a reader writes them apart; not
# a unit of one letter ("5m" may be five million, "1990s" is a decade) nor "4K" or "3D"
_GLUED_UNIT = re.compile(r"(?<![\w.])(\d+(?:[.,]\d+)?)(km|cm|mm|kg|mg|lbs?|ft|mph|kph|gb|mb|kb|tb|"
                         r"ghz|mhz|khz|hz|kw|kwh|mw|gw|ml|cl|kcal|bhp)\b", re.I)


def split_glued_units(text: str) -> str:
    """``text`` with a unit written onto its number set apart ("8GB" -> "8 GB", "500mg" ->
    "500 mg"): one number, as "8 GB" reads."""
    return _GLUED_UNIT.sub(r"\1 \2", text)
