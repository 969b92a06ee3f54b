"""The number check: a number of the fact that the response does not state, where the sentence
has another number in the same slot — the same counted word or neighbour ("28 firefighters" /
"31 firefighters", "May 1" / "May 5"), the same unit read by pint (equal quantities in other
units are no conflict: 2 hours / 120 minutes), two years, two decades, or two ages; or the
fact's number in another unit of its kind ("500 km" / "500 miles", "100 °C" / "100 °F").
Numbers are read as their values (:mod:`factgraph.stages.number_forms`: "1.2 million" /
"1,200,000" / "£1.2m"; "60 000"; "sixty thousand"; "half of" / "50%"; a time of day on the
24-hour clock, "9:30 pm" / "21:30"), a scaled one marked with its magnitude.
What agrees: a magnitude's value ("2.1 million" / "2,100,000", and against a count of what
it counts: "900,000 people" is another value), a close number where either side gives a round
figure or a bound ("about 50" / "52", "about 1.2 million" / "1,150,000"), a value inside a
range the other side states ("between 50 and 60"), a year of a decade ("the 1990s" / "1995")
or of a century ("the 12th century" / "1150"); a range changed
at both ends ("7 to 10 days" / "2 to 3 days") is another value. News text as
written: a currency sign is the number's unit, "£60million" a number and its magnitude, "27 ,
000" one number, "2005–09" a year range, ".375" a decimal."""

from __future__ import annotations

import re
from collections.abc import Collection
from functools import lru_cache

from factgraph.stages.conflicts.base import (
    FUNCTION_WORDS,
    IRREGULAR_VERBS,
    JUDGED_STATED_SHARE,
    REST_SHARE,
    SLOT_REST_SHARE,
    TOKEN,
    UNSTATED_UNIT_SHARE,
    YEAR,
    Conflict,
    rest_share,
    tokens,
)
from factgraph.stages.context_facts import (
    NUMBER_WORDS,
    STOPWORDS,
    content_words,
    ordinals_as_numbers,
    split_glued_magnitudes,
    stem,
)
from factgraph.stages.date_forms import (
    MONTH_ABBREVIATIONS,
    MONTH_NAMES,
    TIME_MARK,
    ordinal,
    shown_time,
)
from factgraph.stages.fact_evidence import numbers, stems
from factgraph.stages.number_forms import (
    MAGNITUDE_MARKS,
    number_words_as_digits,
    numbers_as_values,
    other_readings,
    readable_number,
    split_glued_units,
)
from factgraph.stages.quantities import MEASURE_UNITS, equal_quantities, temperatures_as_units

_MEASURES = frozenset({"times", "percent", "fold", "seconds", "minutes", "hours", "days", "weeks",
                       "months", "years", "miles", "km", "kilometres", "kilometers", "metres",
                       "meters", "feet", "pounds", "dollars", "euros", "per"})


def _is_measure(word: str) -> bool:
    """A word that measures rather than names what is counted ("years", "year", "percent")."""
    return word in _MEASURES or stem(word) == "year"


# units of one letter, read as the unit only right after their number ("0.5 g", "5 m")
_ONE_LETTER_UNITS = frozenset({"g", "m", "s", "l", "h", "t"})


def _next_word(toks: list[str], i: int) -> str | None:
    """The word a number counts or measures: the next word that is not a function word
    ("28 firefighters", "120,000 of them" -> None; "0.5 g": a unit of one letter right
    after it)."""
    if toks[i + 1: i + 2] and toks[i + 1] in _ONE_LETTER_UNITS:
        return toks[i + 1]
    for t in toks[i + 1: i + 3]:
        if t in FUNCTION_WORDS or t[:1].isdigit():  # "sixteen 32-bit words": 16 is no bit
            return None
        if t.isalpha() and len(t) >= 2:
            return t
    return None


_BARE_NUMBER = re.compile(r"^\d+(?:[.,]\d+)*$")


# a currency sign is the unit the number counts ("$7,000" is "7,000 dollars"), as a degree sign
# is the scale of a temperature ("100 °C" is "100 degc", which pint reads as degC)
_CURRENCY = re.compile(r"([$€£])\s?(\d[\d,]*(?:\.\d+)?(?:\s*(?:"
                       + "|".join(sorted(MAGNITUDE_MARKS)) + r")\b)?)", re.I)


_CURRENCY_WORD = {"$": "dollars", "€": "euros", "£": "pounds"}
_CURRENCY_WORDS = frozenset(_CURRENCY_WORD.values())
# what a decade and a century read as after their number ("1990 decade", "12 century")
_CALENDAR_MARKS = frozenset({"decade", "century"})

_SHOWN_UNITS = {"degc": "°C", "degf": "°F"}


# a decade is its first year and the word "decade" ("the 1990s" / "the 1980s" differ; "the
# 1990s" / "1995" agree: :func:`_year_in_decade`)
_DECADE = re.compile(r"\b((?:1[0-9]|20)\d0)[’']?s\b")


@lru_cache(maxsize=512)  # read by the slots, the neighbours and the ranges of one text
def _number_text(text: str) -> str:
    """``text`` as the number checks read it (:func:`_joined_numbers`): each number as its
    value, a magnitude that scaled it marked after it ("£60million" is "£60000000
    millions"); a decimal without its leading zero (".375") with it, a currency sign as the
    word after its number and a temperature's scale as pint's unit (:data:`_CURRENCY`,
    ``temperatures_as_units``)."""
    text = _joined_numbers(split_glued_units(split_glued_magnitudes(text)))  # read once
    text = _CURRENCY.sub(lambda m: f"{m.group(2)} {_CURRENCY_WORD[m.group(1)]}", text)
    text = _DECADE.sub(r"\1 decade", text)
    text = temperatures_as_units(text)
    return re.sub(r"(?<![\w.])\.(?=\d)", "0.", text)


# a capitalised number word inside a sentence, before another capitalised word, is part of a
# name ("the One Pro Cycling team", "a One Direction song"), no number
_NAME_NUMBER = re.compile(r"(?<=[a-z,;:] )(?:" + "|".join(w.title() for w in NUMBER_WORDS)
                          + r")(?= [A-Z])")


def _joined_numbers(text: str) -> str:
    """``text`` with digit groups that tokenisation split ("27 , 000") joined again, and
    ordinals read as their number ("147th" -> "147", as content words read them); a number
    word that is part of a name (:data:`_NAME_NUMBER`) is no number."""
    return ordinals_as_numbers(numbers_as_values(_NAME_NUMBER.sub("Name", text),
                                                 mark_magnitudes=True))


# a person's age, as news text gives it: "Smith, 53,", "aged 53", "53-year-old", "is 53."
_AGE = re.compile(r"(?:\b[a-z]+\s*,\s*(\d{1,3})\s*,)|(?:\baged?\s+(\d{1,3})\b)|"
                  r"(?:\b(\d{1,3})[- ]years?[- ]old\b)|(?:\b(?:is|was)\s+(\d{1,3})\s*\.?\s*$)",
                  re.I)


def _ages(text: str) -> set[str]:
    """The ages ``text`` states (see :data:`_AGE`)."""
    return {next(g for g in m.groups() if g) for m in _AGE.finditer(text.strip())}


def _number_slots(text: str) -> list[tuple[str, str | None]]:
    """(number, the word after it) for each number of ``text`` as content words read it: a
    token that is a number and nothing else ("Was375" is no number; ".375" is a decimal,
    kept as ``0.375``; a temperature below zero keeps its sign: "-10")."""
    text = _number_text(text)
    toks = tokens(text)
    raw = [t.lower() for t in TOKEN.findall(text)]  # before "one" reads as 1
    nums = set(numbers(text))
    out = []
    for i, t in enumerate(toks):
        v = t.replace(",", "")
        if not _BARE_NUMBER.match(v):
            continue
        # "one of his albums" counts nothing; "one year" measures
        if (v in nums or t in nums) and not (len(raw) == len(toks) and raw[i] == "one" and not (
                i + 1 < len(toks) and _is_measure(toks[i + 1]))):
            sign = "-" if i and toks[i - 1] == "minus" else ""
            out.append((sign + v, _next_word(toks, i)))
    return out


_MONTHS = frozenset(m.lower() for m in (*MONTH_NAMES, *MONTH_ABBREVIATIONS))


def _number_neighbours(text: str) -> dict[str, set[tuple[int, str]]]:
    """For each number of ``text``, the tokens just before and after it that say which slot it
    fills ("May 1" -> (-1, "may"); "30 - 20" -> (1, "20")); function words say nothing. A
    month beside a day is on no side (0): "4 July" and "July 14" are one slot, written in two
    orders; a year beside its month keeps its side, so a day and a year never share one."""
    toks = tokens(_number_text(text))
    out: dict[str, set[tuple[int, str]]] = {}
    for i, t in enumerate(toks):
        v = t.replace(",", "")
        if not _BARE_NUMBER.match(v):
            continue
        day = not YEAR.match(v)
        out.setdefault(v, set()).update(
            (0 if day and toks[i + d] in _MONTHS else d, toks[i + d].replace(",", ""))
            for d in (-1, 1) if 0 <= i + d < len(toks)
            and toks[i + d] not in FUNCTION_WORDS and toks[i + d] not in STOPWORDS)
    return out


# a magnitude after a number scales it ("2.1 million" is 2,100,000); pint knows none of them
# (as ``numbers_as_values(..., mark_magnitudes=True)`` marks a scaled value: "2100000 millions")
_MAGNITUDES = MAGNITUDE_MARKS


def _year_in_decade(a: str, ua: str | None, b: str, ub: str | None) -> bool:
    """Whether one side is a decade and the other a year of it ("the 1990s" / "1995")."""
    if ua == ub or "decade" not in (ua, ub) or None not in (ua, ub):
        return False
    decade, year = (a, b) if ua == "decade" else (b, a)
    return bool(YEAR.match(year)) and int(decade) <= float(year) < int(decade) + 10


def _year_in_century(a: str, ua: str | None, b: str, ub: str | None) -> bool:
    """Whether one side is a century and the other a year of it ("the 12th century" / "1150",
    read as "12 century" and "1150")."""
    if {ua, ub} != {"century", None}:
        return False
    century, year = (a, b) if ua == "century" else (b, a)
    if not (century.isdigit() and year.isdigit() and 3 <= len(year) <= 4):
        return False
    return (int(century) - 1) * 100 <= int(year) <= int(century) * 100


def _same_count(a: str, ua: str | None, b: str, ub: str | None) -> bool | None:
    """True / False when both are counts and one at least has a magnitude ("2.1 million" /
    "2,100,000" / "2.1 billion"; equal within 1%), None when they are not both counts: a bare
    number under 1,000 or a year is compared with no magnitude. The other side may name what
    it counts ("1.2 million" / "900,000 people" or "900,000 dollars": the magnitude's mark
    stands where the counted word would), not what it measures ("900,000 km")."""
    if ua == ub or not {ua, ub} & _MAGNITUDES:
        return None
    unscaled = (a, ua) if ua not in _MAGNITUDES else (b, ub) if ub not in _MAGNITUDES else None
    if unscaled is not None:
        value, word = unscaled
        if YEAR.match(value) or float(value) < 1000 or (word is not None and (
                (_is_measure(word) and word not in _CURRENCY_WORDS) or word in MEASURE_UNITS
                or word == TIME_MARK)):
            return None
    va, vb = float(a), float(b)  # already scaled: "2.1 million" reads "2100000 million"
    return abs(va - vb) <= 0.01 * abs(vb)


def _same_quantity(a: str, ua: str | None, b: str, ub: str | None, tolerance: float = 0.01
                   ) -> bool | None:
    """True / False when pint reads both as quantities of one dimension (equal within
    ``tolerance``), or both are counts with a magnitude (:func:`_same_count`); True for a
    decade and a year of it (a year outside it may date another event: None); None when it
    cannot compare them."""
    if _year_in_decade(a, ua, b, ub) or _year_in_century(a, ua, b, ub):
        return True
    count = _same_count(a, ua, b, ub)
    if count is not None:
        return count
    if not ua or not ub or ua == ub or {ua, ub} & _CALENDAR_MARKS:
        return None  # "the 1990s" and "the 12th century" are times, no lengths of time
    fa, fb = _as_float(a), _as_float(b)
    if fa is None or fb is None:  # "2.15.0": a version, no quantity
        return None
    return equal_quantities(fa, ua, fb, ub, tolerance)


# one quantity the same text gives in two units rounds one of them ("about 12 metres (40
# feet)": 39.4 feet)
ROUNDED_CONVERSION = 0.05


# a number given as a round figure or a bound: another within 10% of it says no other thing
# ("about 50 people" / "52 people", "more than 50" / "52"); a year within 2 ("about 1990" /
# "1991": 10% of a year is two centuries)
_HEDGE = re.compile(r"\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|some|"
                    r"over|under|more\s+than|less\s+than|fewer\s+than|up\s+to|at\s+least|"
                    r"at\s+most|an\s+estimated|estimated)\s+(\d[\d,]*(?:\.\d+)?)|~\s*(\d[\d,]*"
                    r"(?:\.\d+)?)", re.I)
APPROXIMATE = 0.1
APPROXIMATE_YEARS = 2


# a range a text states: "between 50 and 60", "from 50 to 60", "50 to 60", "50–60" (an en
# dash; a hyphen between numbers is a score as often: "30 - 20")
_RANGE = re.compile(r"\b(?:between\s+(\d[\d,]*(?:\.\d+)?)\s+and|(\d[\d,]*(?:\.\d+)?)\s*"
                    r"(?:to\s|–))\s*(\d[\d,]*(?:\.\d+)?)\b", re.I)


# number words, read as digits where a range is looked for ("four to five hours")
_NUMBER_WORD = re.compile(r"\b(?:" + "|".join(NUMBER_WORDS) + r")\b", re.I)


def _ranges(text: str) -> list[tuple[float, float]]:
    """The ranges ``text`` states (:data:`_RANGE`, number words read as digits), lowest
    first, spans of years included (:func:`_year_span`)."""
    out = []
    for m in _RANGE.finditer(_NUMBER_WORD.sub(lambda w: NUMBER_WORDS[w.group(0).lower()], text)):
        a, b = (m.group(1) or m.group(2)).replace(",", ""), m.group(3).replace(",", "")
        lo, hi = sorted((float(a), float(b)))
        out.append((lo, hi))
    return out


def _year_span(span: tuple[float, float]) -> bool:
    """Whether a range is a span of years ("from 1939 to 1945"): it dates two events, not one
    value, so a year inside it does not agree with it."""
    return all(YEAR.match(f"{end:g}") for end in span)


def _range_conflict(fact_ranges: list[tuple[float, float]],
                    sentence_ranges: list[tuple[float, float]],
                    fact_slots: list[tuple[str, str | None]],
                    sentence_slots: list[tuple[str, str | None]], fact_stems: list[str],
                    sentence_stems: set[str]) -> Conflict | None:
    """One range each, of one kind (the same word after the upper end), that do not overlap,
    with the rest of the fact in the sentence: both ends changed at once ("7 to 10 days" / "2
    to 3 days"), which the check of one number at a time reads as another time. Where one end
    is the fact's and the other is not ("from 300 to 850" / "from 603 to 850"), the kept end
    marks the slot: a word of the rest may be paraphrased (:data:`SLOT_REST_SHARE`); the other
    end inside the fact's range reads as the same value otherwise."""
    if len(fact_ranges) != 1 or len(sentence_ranges) != 1:
        return None
    (lo, hi), (lo2, hi2) = fact_ranges[0], sentence_ranges[0]
    one_end = (lo == lo2) != (hi == hi2)
    if lo2 <= hi and lo <= hi2 and not one_end:
        return None  # they overlap: a narrower or wider range says no other thing

    def unit_of(slots: list[tuple[str, str | None]], value: float) -> str | None:
        return next((u for x, u in slots if _as_float(x) == value), None)

    unit = unit_of(fact_slots, hi)
    if unit != unit_of(sentence_slots, hi2):
        return None
    ends = {x for x, _ in fact_slots if _as_float(x) in (lo, hi)}
    share, size = rest_share(fact_stems, ends, sentence_stems)
    if size >= 2 and share >= (SLOT_REST_SHARE if one_end else REST_SHARE):
        return Conflict("number", _shown(f"{lo:g}–{hi:g}", unit), _shown(f"{lo2:g}–{hi2:g}", unit))
    return None


# a score: two numbers joined by a hyphen or a dash ("won 30-20", "a 3 - 1 win"); not years
_SCORE = re.compile(r"(?<![\d.,])(\d{1,3})\s*[-–]\s*(\d{1,3})(?![\d.,]|\s*[-–]\s*\d)")


def _scores(text: str) -> list[tuple[str, str]]:
    """The scores ``text`` states (:data:`_SCORE`)."""
    return [(m.group(1), m.group(2)) for m in _SCORE.finditer(text)]


def _score_conflict(fact: str, sentence: str, fact_stems: list[str], sentence_stems: set[str]
                    ) -> Conflict | None:
    """One score each, both numbers changed ("won 30-20" / "won 24-12"; one number changed is
    the slot check's: "30 - 20" / "63 - 20"), the same two numbers in the other order being
    the same result told from the other side ("lost 20-30"), with the rest of the fact there."""
    fact_scores, sentence_scores = _scores(fact), _scores(sentence)
    if len(fact_scores) != 1 or len(sentence_scores) != 1:
        return None
    (a, b), (c, d) = fact_scores[0], sentence_scores[0]
    if {a, b} & {c, d}:
        return None
    share, size = rest_share(fact_stems, {a, b}, sentence_stems)
    if size >= 2 and share >= REST_SHARE:
        return Conflict("number", f"{a}-{b}", f"{c}-{d}")
    return None


def _pair_conflict(fact_slots: list[tuple[str, str | None]],
                   others: list[tuple[str, str | None]], stated: set[str] | frozenset[str],
                   fact_stems: list[str], sentence_stems: set[str]) -> Conflict | None:
    """The fact's two numbers both changed: neither stated, the sentence's two other numbers
    of the same kinds in the same order (two years, or the same counted word each: "in 2016
    and 2017" / "in 2010 and 2011"), the rest of the fact there. One number changed is the
    slot check's; two at once read as another time before."""
    if len(fact_slots) != 2 or len(others) != 2 or any(n in stated for n, _ in fact_slots):
        return None
    if len({bool(YEAR.match(n)) for n, _ in fact_slots}) > 1:
        return None  # a year and a count: another year is another time ("In 2010 … 500 staff"
        # / "In 2015 … 700 staff")

    def kind(value: str, unit: str | None) -> str | None:
        return "year" if YEAR.match(value) else (stem(unit) if unit else None)

    if any(kind(n, u) is None or kind(n, u) != kind(m, v)
           for (n, u), (m, v) in zip(fact_slots, others, strict=True)):
        return None
    share, size = rest_share(fact_stems, {n for n, _ in fact_slots}, sentence_stems)
    if size >= 2 and share >= REST_SHARE:
        return Conflict("number", ", ".join(_shown(n, u) for n, u in fact_slots),
                        ", ".join(_shown(m, v) for m, v in others))
    return None


_MONTH = "|".join(m.lower() for m in MONTH_NAMES)
# a day and its month, in either order, and the year after them where one is given ("26 April
# 1986", "April 26, 1986", "the 26 of April"), as the number check reads a text
_DATE = re.compile(rf"\b(?:(\d{{1,2}})\s+(?:of\s+)?({_MONTH})|({_MONTH})\s+(\d{{1,2}}))\b"
                   rf"(?![:.]?\d)(?:,?\s+((?:1[5-9]|20)\d\d)\b)?", re.I)


def _dates(text: str) -> list[tuple[int, str, str | None]]:
    """(day, month, year or None) for each date ``text`` gives with its day and month."""
    out = []
    for m in _DATE.finditer(_number_text(text)):
        day, month = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        if 1 <= int(day) <= 31:
            out.append((int(day), month.lower(), m.group(5)))
    return out


def _shown_date(date: tuple[int, str, str | None]) -> str:
    day, month, year = date
    return f"{day} {month.title()}" + (f" {year}" if year else "")


def _date_conflict(fact: str, sentence: str, fact_stems: list[str], sentence_stems: set[str]
                   ) -> Conflict | None:
    """The fact's one date (a day and its month) given otherwise in the sentence: no date of
    the sentence is the fact's, and one shares its day or its month ("1 May 1999" /
    "June 1, 1999": the month changed, which the slot of one number at a time cannot see),
    with the rest of the fact there."""
    fact_dates = _dates(fact)
    if len(fact_dates) != 1:
        return None
    day, month, year = fact_dates[0]
    sentence_dates = _dates(sentence)
    if any((d == day and m == month and None in (y, year)) or (d, m, y) == (day, month, year)
           for d, m, y in sentence_dates):
        return None
    # the same day or the same month: one date changed; a date that shares only the year
    # dates another event ("passed on 3 May 2020" / "took effect on 1 June 2020")
    rival = next((x for x in sentence_dates if x[0] == day or x[1] == month), None)
    share, size = rest_share(fact_stems, {str(day), month, year or ""}, sentence_stems)
    if rival is None and year is not None and size >= 2 and share == 1.0 and \
            len(sentence_dates) == 1 and len(re.findall(rf"\b{year}\b", sentence)) == 1:
        # only the year shared, but every other word of the fact there and one date: the same
        # event on another day ("signed on 4 July 2021" / "signed on 2021-04-07"; not "passed
        # in 2020, took effect on 1 June 2020")
        rival = next((x for x in sentence_dates if x[2] == year), None)
    if rival is None:
        return None
    if size >= 1 and share >= SLOT_REST_SHARE:
        return Conflict("date", _shown_date(fact_dates[0]), _shown_date(rival))
    return None


# a year and its era: "49 BC", "AD 49", "49 CE", "300 BCE"
_ERA_YEAR = re.compile(r"\b(\d{1,4})\s*(BCE?|AD|CE)\b|\b(AD)\s*(\d{1,4})\b")


def _eras(text: str) -> dict[str, str]:
    """Each year of ``text`` written with its era, and the era ("BC" or "AD")."""
    return {m.group(1) or m.group(4): "BC" if (m.group(2) or "").startswith("B") else "AD"
            for m in _ERA_YEAR.finditer(text)}


def _era_conflict(fact: str, sentence: str, fact_stems: list[str], sentence_stems: set[str]
                  ) -> Conflict | None:
    """A year of the fact given in the other era ("in 49 BC" / "in AD 49"), with the rest of
    the fact there: the number alone is the same."""
    said = _eras(sentence)
    for year, era in _eras(fact).items():
        if said.get(year, era) != era:
            share, size = rest_share(fact_stems, {year, era.lower()}, sentence_stems)
            if size >= 1 and share >= SLOT_REST_SHARE:
                return Conflict("date", f"{year} {era}", f"{year} {said[year]}")
    return None


_PER_UNIT = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)\s+(?:[a-z]+\s+)?per\s+([a-z]+)")


def _per_units(text: str) -> dict[str, str]:
    """Each number of ``text`` given as a rate, and what it is per ("11000 per microlitre" ->
    {"11000": "microlitre"}; "5 cases per 1,000" -> {"5": ""}: per a count)."""
    return {m.group(1): m.group(2) for m in _PER_UNIT.finditer(_number_text(text).lower())}


def _as_float(value: str) -> float | None:
    """``value`` as a number, or None where it is none."""
    try:
        return float(value)
    except ValueError:
        return None


def _in_a_range(value: str, ranges: list[tuple[float, float]]) -> bool:
    """Whether the number ``value`` lies inside one of ``ranges`` (ends included)."""
    x = _as_float(value)
    return x is not None and any(lo <= x <= hi for lo, hi in ranges)


_NUMBER_AFTER = r"(?:[$€£¥#]\s?)?(\d[\d,]*(?:\.\d+)?)"
# a number given as a bound: "less than 1%", "under £50,000", "up to ten times" (upper); "more
# than 300", "at least 18", "£50,000 or more" (lower)
_BOUNDED = re.compile(
    rf"\b(less\s+than|fewer\s+than|under|below|up\s+to|at\s+most|no\s+more\s+than|not\s+more\s+"
    rf"than|(?:a\s+)?maximum\s+of)\s+{_NUMBER_AFTER}|\b(more\s+than|over|above|at\s+least|"
    rf"no\s+less\s+than|not\s+less\s+than|(?:a\s+)?minimum\s+of)\s+{_NUMBER_AFTER}|"
    rf"{_NUMBER_AFTER}\s*(?:[a-z%]+\s+)?(or\s+(?:more|above|over|higher|greater|less|below|"
    rf"under|fewer|lower)|and\s+(?:above|over|up|below|under))\b", re.I)
_LOWER_AFTER = re.compile(r"more|above|over|higher|greater|up", re.I)


def _bounds(text: str) -> dict[str, str]:
    """Each number of ``text`` given as a bound, and which ("upper" / "lower")."""
    out = {}
    # "more than ten times": a number word bounded too
    for m in _BOUNDED.finditer(number_words_as_digits(_number_text(text))):
        if m.group(2):
            out[m.group(2).replace(",", "")] = "upper"
        elif m.group(4):
            out[m.group(4).replace(",", "")] = "lower"
        else:
            after = m.group(6).split()[-1]
            out[m.group(5).replace(",", "")] = "lower" if _LOWER_AFTER.fullmatch(after) \
                else "upper"
    return out


def _within_bound(n: str, unit: str | None, m: str, unit_m: str | None,
                  fact_bounds: dict[str, str], sentence_bounds: dict[str, str]) -> bool:
    """Whether one side gives its number as a bound that the other side's plain number, in
    the same unit, keeps ("about 0.7%" / "less than 1%", "aged 25" / "over 18"); two bounds
    are two claims, and a bound in another unit is no bound of this number ("up to 72 hours"
    / "2 days")."""
    x, y = _as_float(n), _as_float(m)
    if x is None or y is None or (n in fact_bounds) == (m in sentence_bounds) or \
            stem(unit or "") != stem(unit_m or ""):
        return False
    if m in sentence_bounds:
        return x <= y if sentence_bounds[m] == "upper" else x >= y
    return y <= x if fact_bounds[n] == "upper" else y >= x


def _range_end_bounded(n: str, m: str, fact_ranges: list[tuple[float, float]],
                       sentence_bounds: dict[str, str]) -> bool:
    """Whether the fact's ``n`` ends a range it states and the sentence bounds ``m`` on that
    side: two maxima (or minima), which differ ("between one and three times the deposit" /
    "up to ten times the deposit"), not a value and a bound that keeps it."""
    x = _as_float(n)
    side = sentence_bounds.get(m)
    return x is not None and side is not None and any(
        x == (hi if side == "upper" else lo) for lo, hi in fact_ranges)


def _hedged(text: str) -> set[str]:
    """The numbers of ``text`` given as round figures or bounds (:data:`_HEDGE`)."""
    return {(m.group(1) or m.group(2)).replace(",", "")
            for m in _HEDGE.finditer(number_words_as_digits(_number_text(text)))}


def _remainder_of(n: str, unit: str | None, fact: str, sentence: str,
                  sent_slots: list[tuple[str, str | None]]) -> bool:
    """Whether ``n`` is what remains ("for the remaining 33 weeks") of two values the sentence
    gives in its unit ("up to 39 weeks … for 6 weeks"): the difference, stated."""
    cue = r"\b(?:remaining|rest\s+of\s+the|other|further)\s+"
    if unit is None or not re.search(rf"{cue}{re.escape(n)}\b", _number_text(fact), re.I) \
            or re.search(rf"{cue}\d", _number_text(sentence), re.I):
        return False  # no remainder, or the sentence gives its own ("the remaining 30 weeks")
    x = _as_float(n)
    values = [_as_float(m) for m, u in sent_slots if u is not None and stem(u) == stem(unit)]
    return x is not None and any(a is not None and b is not None and a - b == x
                                 for a in values for b in values)


_YEARS_APART = re.compile(r"\b(\d{1,3})\s+years?\s+(earlier|before|later|after)\b", re.I)


def _year_counted_from(n: str, sentence: str) -> bool:
    """Whether ``sentence`` gives the year ``n`` counted from another year it states ("By 1901
    …, the society had been founded just two years earlier" gives 1899)."""
    if not YEAR.match(n):
        return False
    said = number_words_as_digits(_number_text(sentence))
    years = {int(y) for y in re.findall(r"\b\d{4}\b", said) if YEAR.match(y)}
    for m in _YEARS_APART.finditer(said):
        step = int(m.group(1)) * (-1 if m.group(2).lower() in ("earlier", "before") else 1)
        if int(n) in {y + step for y in years}:
            return True
    return False


def _designation_left_out(n: str, fact: str, sentence: str) -> bool:
    """Whether ``n`` numbers a name in ``fact`` ("the asteroid 162173 Ryugu", not a year) that
    ``sentence`` names with no number before it ("arrived at Ryugu"): the designation left out,
    no other value."""
    if YEAR.match(n):
        return False
    named = re.search(rf"(?<![\d.,]){re.escape(n)}\s+([A-Z][a-z]+)\b", _number_text(fact))
    if named is None or named.group(1).lower() in _MONTHS:
        return False
    said = _number_text(sentence)
    return any(not re.search(r"\d[\d,.]*\s*$", said[: m.start()])
               for m in re.finditer(rf"\b{named.group(1)}\b", said))


def _round_agrees(n: str, unit: str | None, m: str, unit_m: str | None, hedged: set[str]
                  ) -> bool:
    """Whether ``m`` states ``n`` in round figures: one of them hedged (:func:`_hedged`), the two
    close (:func:`_close`) and of one unit or count ("about 50 people" / "52 people", "about
    1.2 million" / "1,150,000")."""
    return bool({n, m} & hedged) and _close(n, m) and (
        stem(unit or "") == stem(unit_m or "") or _same_count(n, unit, m, unit_m) is not None)


def _close(a: str, b: str) -> bool:
    """Whether two numbers are within what a round figure allows (:data:`APPROXIMATE`)."""
    x, y = _as_float(a), _as_float(b)
    if x is None or y is None:
        return False
    if YEAR.match(a) or YEAR.match(b):
        return abs(x - y) <= APPROXIMATE_YEARS
    return abs(x - y) <= APPROXIMATE * max(abs(x), abs(y))


# which occurrence of a recurring thing a number dates or counts: two sides naming different
# ones speak of two events
_OCCASION = frozenset({"last", "next", "previous", "latest", "upcoming"})
# words after a number that count nothing of their own: "penalty goals and drop goals are 3
# each" gives 3 to what the sentence named
_DISTRIBUTIVE = frozenset({"each", "apiece", "respectively", "both", "together", "combined"})


def number_conflict(fact: str, sentence: str, response_words: frozenset[str],
                    fact_stems: list[str], sentence_stems: set[str], aligned: bool = True,
                    referred: frozenset[str] = frozenset(), judged_stated: bool = False
                    ) -> Conflict | None:
    """Another number in the slot of a number of the fact (module docstring);
    ``response_words`` are the numbers the whole response states (:func:`stated_numbers`);
    ``referred``, the fact's words a pronoun opening the sentence stands for ("It also comes
    with 16 GB" after "The Kobo Libra 2 …": "kobo", "libra", "2"), count as the sentence's."""
    sentence_stems = sentence_stems | referred
    fact_occasion, sentence_occasion = (next((t for t in tokens(x) if t in _OCCASION), None)
                                        for x in (fact, sentence))
    if fact_occasion and sentence_occasion and fact_occasion != sentence_occasion:
        return None  # "last passed perihelion in February 1986" / "next … due in July 2061"
    fact_slots = _number_slots(fact)
    sent_slots = _number_slots(sentence)
    others = [(m, u) for m, u in sent_slots if m not in {x for x, _ in fact_slots}]
    fact_around, sentence_around = _number_neighbours(fact), _number_neighbours(sentence)
    fact_ages, sentence_ages = _ages(fact), _ages(sentence)
    hedged = _hedged(fact) | _hedged(sentence)
    # a value inside a range the other side states agrees with it ("55 metres" / "between 50
    # and 60 metres", and the other way round)
    fact_spans, sentence_spans = _ranges(_number_text(fact)), _ranges(_number_text(sentence))
    fact_ranges = [r for r in fact_spans if not _year_span(r)]
    sentence_ranges = [r for r in sentence_spans if not _year_span(r)]
    sentence_numbers = {m for m, _ in sent_slots} | {w for w in referred if w[:1].isdigit()}
    # a range changed at both ends is another range, a span of years too ("from 1939 to 1945"
    # / "from 1914 to 1918")
    changed_range = _range_conflict(fact_spans, sentence_spans, fact_slots, sent_slots,
                                    fact_stems, sentence_stems)
    if changed_range is not None:  # "about 7 to 10 days" / "about 2 to 3 days"
        return changed_range
    if aligned:  # "1 May 1999" / "June 1, 1999"
        changed_date = _date_conflict(fact, sentence, fact_stems, sentence_stems) or \
            _era_conflict(fact, sentence, fact_stems, sentence_stems)
        if changed_date is not None:
            return changed_date
    changed_score = _score_conflict(_number_text(fact), _number_text(sentence), fact_stems,
                                    sentence_stems)
    if changed_score is not None:  # "won 30-20" / "won 24-12"
        return changed_score
    # a number the response states elsewhere is no conflict, except in the sentence aligned
    # to the fact, where another value in the same slot says otherwise
    elsewhere = (sentence_numbers | stated_numbers(sentence)) if aligned else response_words
    changed_pair = _pair_conflict(fact_slots, others, elsewhere, fact_stems, sentence_stems)
    if changed_pair is not None:  # "in 2016 and 2017" / "in 2010 and 2011"
        return changed_pair
    for n in sorted(fact_ages - elsewhere):  # "Michael is 33" / "Michael Pulman, 69,"
        for m in sorted(sentence_ages - fact_ages):
            share, size = rest_share(fact_stems, {n, "age", "year", "old"}, sentence_stems)
            if size >= 1 and share == 1.0:
                return Conflict("number", f"{n} (age)", f"{m} (age)")
    fact_units = {stem(u) for _, u in fact_slots if u}
    for n, unit in fact_slots:  # the same number in another unit: "500 km" / "500 miles"
        units_here = [u for m, u in sent_slots if m == n]
        if unit and units_here and all(_same_quantity(n, unit, n, u) is False
                                       for u in units_here):
            share, size = rest_share(fact_stems, {n, stem(unit)}, sentence_stems)
            # where the judge reads the sentence as stating the fact, half of the rest is
            # enough, unless the other unit is one the fact gives another number in ("capped
            # at 12 weeks, reached after 12 years" / "a maximum of 12 weeks")
            need = JUDGED_STATED_SHARE if judged_stated and not any(
                stem(u) in fact_units for u in units_here if u) else SLOT_REST_SHARE
            # a whole range of the fact, both ends, in another unit is the slot on its own
            # ("grown at elevations of 600 to 2,000 metres" / "estates lie at altitudes of
            # 600 to 2,000 feet")
            whole_range = any(_as_float(n) == hi and (lo, hi) in sentence_spans
                              for lo, hi in fact_ranges)
            if (size >= 2 and share >= need) or whole_range:
                return Conflict("number", _shown(n, unit), _shown(n, units_here[0]))
    fact_per, sentence_per = _per_units(fact), _per_units(sentence)
    fact_bounds, sentence_bounds = _bounds(fact), _bounds(sentence)
    if any(sentence_bounds.get(x, b) != b for x, b in fact_bounds.items()):
        # one threshold bounded both ways: two cases ("where the rent is £50,000 or more, six
        # weeks" / "five weeks if the rent is under £50,000")
        return None
    for n, unit in fact_slots:
        # the fact's value in the sentence, but counting another thing, while another value
        # counts the fact's ("13 electoral districts" / "five electoral districts, each of
        # which returns 13 members"): moved, not stated
        moved = unit is not None and not _is_measure(unit) and n in sentence_numbers and all(
            u is not None and u not in _DISTRIBUTIVE and stem(u) != stem(unit)
            for x, u in sent_slots if x == n) and any(
            u is not None and stem(u) == stem(unit) for _, u in others)
        if (n in elsewhere and not moved) or _glued_to_letters(n, sentence) or (
                unit == "decade" and any(
                _year_in_decade(n, unit, m, u) for m, u in sent_slots)):
            continue
        if _designation_left_out(n, fact, sentence) or _year_counted_from(n, sentence) or \
                _remainder_of(n, unit, fact, sentence, sent_slots):
            continue
        if unit and any(x != n and _same_quantity(n, unit, x, u, ROUNDED_CONVERSION)
                        and x in sentence_numbers
                        for x, u in fact_slots):
            continue  # "256 bits, or 32 bytes": the sentence gives it in the other unit
        # the fact's value nowhere in the response, and the sentence gives one value in its
        # unit and every other value of the fact: the sentence may paraphrase the rest of the
        # fact further ("The written grounds of appeal must be submitted within two months of
        # service of the judgment" / "The written grounds are due within three months of
        # service")
        unstated = n not in response_words and unit is not None and sum(
            u is not None and stem(u) == stem(unit) for _, u in sent_slots) == 1 and \
            all(x in sentence_numbers for x, u in fact_slots if (x, u) != (n, unit))
        # each other number against this one, read once: one quantity, another, or neither
        compared = [(m, unit_m, _same_quantity(n, unit, m, unit_m)) for m, unit_m in others]
        if any(same or _round_agrees(n, unit, m, unit_m, hedged)
               for m, unit_m, same in compared):
            # the sentence states the fact's value ("2 hours" / "120 minutes", "about 50
            # people" / "52 people"): its other numbers are of other slots ("about 69% of
            # fresh water is frozen" / "97 percent of water is salty, and just over two-thirds
            # of the fresh is frozen")
            continue
        for m, unit_m, same_quantity in compared:
            if fact_per.get(n, "") != sentence_per.get(m, "") and n in fact_per and \
                    m in sentence_per:
                continue  # rates per other units ("11 × 10^9 per litre" / "11,000 per µl")
            if _within_bound(n, unit, m, unit_m, fact_bounds, sentence_bounds) and not \
                    _range_end_bounded(n, m, fact_ranges, sentence_bounds):
                continue  # "about 0.7%" / "less than 1%"
            if _in_a_range(n, sentence_ranges) or _in_a_range(m, fact_ranges):
                continue  # "55 metres" / "between 50 and 60 metres"
            # the same slot: the same word counted or measured, or the same neighbour ("May 1"
            # / "May 5", "30 - 20" / "63 - 20"); a lone number each is a weaker sign
            shared = fact_around.get(n, set()) & sentence_around.get(m, set())
            same_slot = (unit is not None and unit_m is not None
                         and stem(unit) == stem(unit_m)) or bool(shared) or \
                same_quantity is False
            # a value the response states elsewhere needs its own slot here: a neighbour or a
            # counted word in common, not a measure ("7 years" / "20 years"), nor two years
            own_slot = any(not _is_measure(w) for _, w in shared) or (
                same_slot and unit is not None and not _is_measure(unit))
            two_years = not same_slot and bool(YEAR.match(n)) and bool(YEAR.match(m)) \
                and "decade" not in (unit, unit_m)
            if two_years and (_dates_other_thing(m, sentence, fact_stems)
                              or dates_other_word(n, fact, m, sentence, fact_stems,
                                                   sentence_stems)):
                continue  # "was completed in 1963" / "famous for the 1974 Arecibo message"
            same_slot = same_slot or two_years
            same_kind = same_slot or \
                (len(fact_slots) == 1 and len(others) == 1 and (unit is None or unit_m is None)
                 and not {unit, unit_m} & _MEASURES
                 and not YEAR.match(n) and not YEAR.match(m)
                 and not (unit is None and _bare_year(n, fact))
                 and not (unit_m is None and _bare_year(m, sentence))
                 and n.isdigit() and m.isdigit())  # "Smith is 25" / "Smith, 53,"
            if not same_kind:
                continue
            # the slot's words: the number, and a decade as the fact writes it ("1990s")
            share, size = rest_share(fact_stems, {n, f"{n}s"} if unit == "decade" else {
                n, n.lstrip("-")}, sentence_stems)
            if n in response_words and not own_slot and not (
                    YEAR.match(n) and YEAR.match(m) and share == 1.0):
                continue  # two years where every other word of the fact stands is one slot
            rest_numbers = {x for x, _ in fact_slots if x != n}
            if rest_numbers - sentence_numbers and not (
                    not YEAR.match(n) and any(YEAR.match(x) for x in rest_numbers
                                              & sentence_numbers)
                    and not (rest_numbers - sentence_numbers) & response_words):
                # the fact's other numbers not there: another time or count; one the whole
                # response never states is no other time where the fact's year dates the
                # sentence ("born on 1 February 1972 (age 52)" / "born 10 February 1972")
                continue
            if not YEAR.match(n) and _PAST.search(fact) and not _NOW.search(fact) and \
                    _now_before(sentence, m):
                continue  # "now has 2,000 staff": the count of another time than the fact's
            # ... and the other value in that unit, no ordinal ("the 35th minute": a point)
            unstated_same_unit = unstated and unit_m is not None and \
                stem(unit_m) == stem(unit or "") and not _written_as_ordinal(m, sentence)
            need = (JUDGED_STATED_SHARE if judged_stated else UNSTATED_UNIT_SHARE) \
                if unstated_same_unit else SLOT_REST_SHARE if same_slot else REST_SHARE
            # a fact of two content words: both there, and the other number in the same slot
            # ("Turnout was 62%" / "Turnout was 48%"; not "Michael is 33" / "Michael has
            # spent 7,500")
            if (size >= 2 and share >= need) or (size == 1 and share == 1.0 and same_slot):
                slot = "time" if unit == unit_m == TIME_MARK else "number"  # "15:00 → 16:00"
                return Conflict(slot, _shown(n, unit), _shown(m, unit_m))
    return None


# a year of any century after a word that dates ("around 1455", "in 1066", "c. 1200"): the
# year pattern starts at 1500, and a bare count is read against a bare number
_DATED = re.compile(r"\b(?:in|around|circa|c\.|ca\.|by|since|until|till|from|before|after)"
                    r"\s+(1\d{3}|20\d\d)\b(?![.,]\d|\s*%)", re.I)


def _bare_year(number: str, text: str) -> bool:
    """Whether ``number`` stands in ``text`` as a year after a word that dates it ("printed
    around 1455"; the caller asks only of a number that counts no word: "around 1455 copies"
    is a count)."""
    return any(m.group(1) == number for m in _DATED.finditer(text))


def _glued_to_letters(number: str, text: str) -> bool:
    """Whether ``text`` writes ``number`` glued to the letters of a designation ("the B42"
    for "the 42-line Bible", "the A380"): the fact's value named, no other value."""
    return number.isdigit() and re.search(rf"[A-Za-z]{re.escape(number)}\b", text) is not None


def _word_before(number: str, text: str) -> str | None:
    """The stem of the content word nearest before ``number`` in ``text`` (three tokens at
    most: "died in 1742" -> "die"), or None."""
    toks = [t.replace(",", "") for t in tokens(_number_text(text))]
    if number not in toks:
        return None
    i = toks.index(number)
    return next((stem(t) for t in reversed(toks[max(0, i - 3): i]) if t.isalpha()
                 and t not in FUNCTION_WORDS and t not in STOPWORDS), None)


def dates_other_word(n: str, fact: str, m: str, sentence: str, fact_stems: Collection[str],
                     sentence_stems: set[str]) -> bool:
    """Whether the sentence's year dates another word of the fact than the fact's year does,
    the fact's own word, a verb of the past, missing from the sentence ("Halley died in 1742,
    before the comet's predicted return" / "predicted its return for 1758"; not a year in
    brackets after a title: "Theory of Vision (1712)")."""
    dated, dating = _word_before(n, fact), _word_before(m, sentence)
    return dated is not None and dating is not None and dated != dating and \
        _PAST_VERB.fullmatch(dated) is not None and dating in fact_stems and \
        dated not in sentence_stems and not re.search(rf"\(\s*{re.escape(m)}\s*\)", sentence)


# a verb of the past as a year's word ("died in 1742", "born in 1807")
_PAST_VERB = re.compile(r"[a-z]{2,}(?:ed|en)|born|" + "|".join(IRREGULAR_VERBS))


def _dates_other_thing(year: str, sentence: str, fact_stems: list[str]) -> bool:
    """Whether ``year`` stands in ``sentence`` before a noun as its date ("the 1974 Arecibo
    message", "his 1905 paper") with a word the fact does not hold: it dates that thing,
    not the fact's event."""
    m = re.search(rf"\b(?:the|a|an|its|his|her|their)\s+{re.escape(year)}\s+((?:[\w'’-]+\s*)"
                  r"{1,3})", sentence, re.I)
    if m is None:
        return False
    words = stems(re.split(r"[,;:.()]", m.group(1))[0])
    return any(w not in fact_stems for w in words)


# the present, where the fact is told in the past: a count then is of another time than the
# fact's ("founded in 1998 with 12 staff" / "founded in 1998, the company now has 2,000 staff";
# not "Google boasts a 90 percent share" / "Google currently boasts a 183 per cent share")
_NOW = re.compile(r"\b(?:now|today|currently|nowadays)\b", re.I)
_PAST = re.compile(r"\b(?:was|were|had|did)\b|\b[a-z]{3,}ed\b", re.I)  # a fact told in the past


def _now_before(sentence: str, number: str) -> bool:
    """Whether the present (:data:`_NOW`) stands among the three words before ``number``."""
    toks = tokens(_number_text(sentence))
    return any(_NOW.fullmatch(t) for i, x in enumerate(toks) if x.replace(",", "") == number
               for t in toks[max(0, i - 3): i])


def _shown(number: str, unit: str | None) -> str:
    """A number and its unit as a reason shows them ("100 °C", "the 1990s")."""
    if unit == "decade":
        return f"the {number}s"
    if unit == "century" and number.isdigit():
        return f"the {ordinal(int(number))} century"
    if unit == TIME_MARK:
        return shown_time(number)
    if YEAR.match(number) and unit and not (_is_measure(unit) or unit in _MAGNITUDES
                                             or unit in _SHOWN_UNITS):
        return number  # a year has no unit: "1965, Paul ..." shows "1965", not "1965 paul"
    if unit in _MAGNITUDES:  # the value is scaled already: "2100000 millions" is "2.1 million"
        return readable_number(number)
    return f"{readable_number(number)} {_SHOWN_UNITS.get(unit or '', unit or '')}".strip()


def _written_as_ordinal(number: str, text: str) -> bool:
    """Whether ``text`` writes ``number`` as an ordinal ("35th")."""
    return re.search(rf"(?<![\d.,]){re.escape(number)}(?:st|nd|rd|th)\b", text, re.I) is not None


def other_slot_stated(fact: str, clause: str, sentence: str) -> bool:
    """Whether ``sentence`` states a value of ``fact`` that ``clause`` (a clause of the fact)
    leaves out, in the unit of one of the clause's numbers: the sentence's other values in
    that unit may be of the fact's other slots, not the clause's ("On a £5,000 claim with an
    excess of £250, the insurer would pay £4,750" / "a £150 broken window with a £250
    excess")."""
    in_clause = _number_slots(clause)
    units = {stem(u) for _, u in in_clause if u}
    own = {n for n, _ in in_clause}
    said = {(m, stem(u)) for m, u in _number_slots(sentence) if u}
    return any(n not in own and u is not None and stem(u) in units and (n, stem(u)) in said
               for n, u in _number_slots(fact))


@lru_cache(maxsize=32)
def stated_numbers(response: str) -> frozenset[str]:
    """The numbers a response states anywhere, spelled ("seven-year") or not; read once per
    response, not once per fact."""
    read = _joined_numbers(response)
    return frozenset({w.replace(",", "") for w in content_words(read)} | {
        t.replace(",", "") for t in tokens(read) if t[:1].isdigit()} | other_readings(response))
