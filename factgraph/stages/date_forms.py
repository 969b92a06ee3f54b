"""One date or time, many spellings: dates, times of day, centuries and year ranges read as one
form before any word is read.

"26 April 1986", "1986-04-26" and "26/04/1986" are one date to a reader, "9:30 pm" and "21:30"
one time, "the twelfth century", "the 12th century" and "the 1100s" one century. Read as
written, a faithful answer that writes them otherwise lost the fact's words ("21:30" was even
shown as contradicting "9:30 pm": another number in the slot), and a changed one was not
caught ("the thirteenth century" covered "the 12th century": no number to compare).
:func:`calendar_as_values` rewrites, in place:

* a time of day with "am" / "pm" ("3 pm", "9:30 p.m.", "9.30pm"), a 24-hour time where a
  time is due ("at 21:30", "15:00 GMT"), a time in words with its part of the day ("half
  past five in the morning", "three in the afternoon") and "noon" / "midday" / "midnight":
  the hour of the 24-hour clock as a number with :data:`TIME_MARK` after it ("21.5
  oclock"; a decimal, so that no time reads as a year), which the number check compares as
  it compares any number and its unit, and shows as "21:30" (:func:`shown_time`);
* a date in digits: ISO ("1986-04-26"), and day / month / year with slashes or dots where
  the day is the one number above 12 ("26/04/1986", "04/26/1986"; "03/04/1986" reads two
  ways and stays as written): "26 April 1986";
* a month's abbreviation beside a number ("Apr. 26", "Sept 1939", "26 Apr"): the month;
* an ordinal word before "century" ("the twelfth century") in digits, and a century written
  as its hundreds ("the 1100s", "the 1800s"; not "the 2000s", a decade) as "the 12th century";
* a decade in words or two digits ("the nineties", "the '90s": "the 1990s"; without its
  century, the 20th century's, or the 21st's for "'00s" and "'10s");
* a year range that gives its end in two digits ("1914-18", "2005–09"): both years in full;
* an era after a year or a century: "CE" is "AD", "BCE" "BC".

Pure functions, text in, text out; read by ``numbers_as_values``
(:mod:`factgraph.stages.number_forms`), and so by the content words and the number slots alike.
"""

from __future__ import annotations

import re

# what a time of day reads as, after its hour ("21.5 oclock"): a word no unit table knows, so
# that a time is compared with a time only ("3 pm" / "3 hours" are not one quantity)
TIME_MARK = "oclock"

MONTH_NAMES = ("January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December")
# a month's abbreviation and the month ("Apr" -> "April")
MONTH_ABBREVIATIONS = {m[:3]: m for m in MONTH_NAMES if m != "May"} | {"Sept": "September"}

_AM_PM = r"(?:([ap])(?:\.\s?m\.|\s?m\b))"
# "3 pm", "3pm", "9:30 p.m.", "9.30pm"; an hour of 1 to 12
_TWELVE_HOUR = re.compile(rf"(?<![\d.:,])(1[0-2]|0?[1-9])(?:[:.]([0-5]\d))?\s?{_AM_PM}",
                          re.I)
# "at 21:30", "until 09:00", "15:00 GMT": a 24-hour time where a time is due (not a score, a
# ratio or a verse: "won 3:1", "John 3:16")
_TIME_DUE = r"(?:at|by|until|till|from|before|after|around|about|since|between|and|to|or)"
_ZONE = r"(?:GMT|UTC|BST|CET|CEST|EST|EDT|CST|PST|PDT|ET|PT|local\s+time|hrs|h)\b"
_TWENTY_FOUR_HOUR = re.compile(
    rf"\b((?i:{_TIME_DUE})\s+)([01]?\d|2[0-3]):([0-5]\d)\b(?!:\d)"
    rf"|(?<![\d.:,])([01]?\d|2[0-3]):([0-5]\d)(?=\s?{_ZONE})")
# a time in words with its part of the day: "half past five in the morning", "a quarter to
# nine in the evening", "three in the afternoon", "11 o'clock at night"
_HOUR_WORDS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
               "eleven", "twelve")
_HOUR = rf"(1[0-2]|[1-9]|{'|'.join(_HOUR_WORDS)})"
_TIME_IN_WORDS = re.compile(
    rf"\b(?:(?:a\s+)?(half|quarter)\s+(past|to)\s+)?{_HOUR}(?:[:.]([0-5]\d))?"
    r"(?:\s+o['’]?clock)?\s+(in\s+the\s+(?:morning|afternoon|evening)|at\s+night)\b", re.I)
_NOON = re.compile(r"\b(?:(noon|midday)|(midnight))\b", re.I)

_YEAR = r"(?:1[5-9]\d\d|20\d\d)"
_ISO_DATE = re.compile(rf"\b({_YEAR})-(0?[1-9]|1[0-2])-(0?[1-9]|[12]\d|3[01])\b(?![-:]\d)")
# day / month / year with one mark throughout: "26/04/1986", "04/26/1986", "26.04.1986"
_DIGIT_DATE = re.compile(rf"(?<![\d/.])(\d{{1,2}})([/.])(\d{{1,2}})\2({_YEAR})\b(?![/.]\d)")
_ABBREVIATION = "|".join(sorted(MONTH_ABBREVIATIONS, key=len, reverse=True))
# an abbreviated month beside a number: "Apr. 26", "Sept 1939", "26 Apr 1986" (capitalised,
# so "mar" and "jan" as words are left alone)
_MONTH_ABBREVIATION = re.compile(
    rf"\b({_ABBREVIATION})\b\.?(?=\s+\d)|(?<=\d )({_ABBREVIATION})\b\.?")

_ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                  "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth",
                  "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth",
                  "twentieth")
ORDINAL_VALUES = {w: n for n, w in enumerate(_ORDINAL_WORDS, start=1)}
_ORDINAL_CENTURY = re.compile(
    rf"\b(?:(twenty)[- ])?({'|'.join(_ORDINAL_WORDS)})(?=[- ](?:century|centuries|millennium)\b)",
    re.I)
# "the 1100s" ... "the 1900s": a century written as its hundreds ("the 2000s" is a decade)
_HUNDREDS = re.compile(r"\b(1[0-9])00[’']?s\b")
# a decade in words or two digits after "the" or an apostrophe ("the nineties", "the
# eighteen-nineties", "the '90s", "the 90s"); "in her forties" and "in their 20s" are ages
_DECADE_WORDS = {w: n for n, w in enumerate(("twenties", "thirties", "forties", "fifties",
                                             "sixties", "seventies", "eighties", "nineties"),
                                            start=2)}
_DECADE_IN_WORDS = re.compile(
    rf"\b(the\s+(?:early\s+|late\s+|mid-?\s*)?)(?:(eighteen|nineteen)[- ]?)?"
    rf"({'|'.join(_DECADE_WORDS)})\b", re.I)
_DECADE_IN_TWO_DIGITS = re.compile(
    r"(?:\b(the\s+(?:early\s+|late\s+|mid-?\s*)?)['’]?|(?<![\w'’])['’])(\d)0['’]?s\b", re.I)
# a year range with its end in two digits ("1914-18", "2005–09")
# ("1703 – 23 April 1763" is a year, then a day)
_SHORT_YEAR_RANGE = re.compile(
    rf"\b({_YEAR})\s*([–—-])\s*(\d\d)\b(?![.,]?\d)(?!\s*(?:{'|'.join(MONTH_NAMES)}|"
    rf"{'|'.join(MONTH_ABBREVIATIONS)})\b)", re.I)

# a text without a digit or one of these words has nothing to rewrite
_ANY_CALENDAR = re.compile(r"\d|\b(?:noon|midday|midnight|century|centuries|millennium|morning|"
                           r"afternoon|evening|night|"
                           rf"{'|'.join(_DECADE_WORDS)})\b", re.I)


def _hour_value(hour: int, minute: int) -> str:
    """The hour of the 24-hour clock as :data:`TIME_MARK` reads it ("21.5", "7.3333", "0")."""
    value = f"{hour + minute / 60:.4f}".rstrip("0").rstrip(".")
    return f"{value} {TIME_MARK}"


def _twelve_hour(m: re.Match[str]) -> str:
    hour, minute = int(m.group(1)) % 12, int(m.group(2) or 0)
    return _hour_value(hour + (12 if m.group(3).lower() == "p" else 0), minute)


def _twenty_four_hour(m: re.Match[str]) -> str:
    if m.group(2):
        return m.group(1) + _hour_value(int(m.group(2)), int(m.group(3)))
    return _hour_value(int(m.group(4)), int(m.group(5)))


def _time_in_words(m: re.Match[str]) -> str:
    word = m.group(3).lower()
    hour = int(word) if word.isdigit() else _HOUR_WORDS.index(word) + 1
    minute = {None: 0, "half": 30, "quarter": 15}[m.group(1) and m.group(1).lower()]
    if (m.group(2) or "").lower() == "to":
        hour, minute = hour - 1, 60 - minute
    minute += int(m.group(4) or 0)  # "2:15 in the afternoon"
    part = m.group(5).lower()
    hour %= 12  # "twelve" is 0 or 12
    if "afternoon" in part or "evening" in part or (part.endswith("night") and hour >= 6):
        hour += 12  # "eleven at night" is 23:00, "two at night" 02:00
    return _hour_value(hour, minute)


# "0600 hours", "at 1430 hours": the 24-hour clock written as the military write it (a count
# of hours otherwise: "1200 hours of footage")
_MILITARY_TIME = re.compile(r"(?<![\d,.])([01]\d|2[0-3])([0-5]\d)\s+hours\b")


def _military_time(m: re.Match[str]) -> str:
    if not (m.group(1).startswith("0") or re.search(r"\b(?:at|by|until|from)\s$",
                                                     m.string[:m.start()])):
        return m.group(0)
    return _hour_value(int(m.group(1)), int(m.group(2)))


def shown_time(value: str) -> str:
    """A time as :data:`TIME_MARK` reads it, as a reason shows it ("21.5" -> "21:30")."""
    hours = float(value)
    hour, minute = int(hours), round((hours - int(hours)) * 60)
    return f"{hour:02d}:{minute:02d}"


def times_of_day(text: str) -> str:
    """``text`` with each time of day as its hour on the 24-hour clock (module docstring):
    "9:30 pm", "9.30pm" and "at 21:30" read "21.5 oclock", "noon" "12 oclock"."""
    text = _MILITARY_TIME.sub(_military_time, text)
    text = _TIME_IN_WORDS.sub(_time_in_words, text)
    text = _TWELVE_HOUR.sub(_twelve_hour, text)
    text = _TWENTY_FOUR_HOUR.sub(_twenty_four_hour, text)
    return _NOON.sub(lambda m: _hour_value(12 if m.group(1) else 0, 0), text)


def _written_date(day: int, month: int, year: str) -> str:
    return f"{day} {MONTH_NAMES[month - 1]} {year}"


def _digit_date(m: re.Match[str]) -> str:
    a, b = int(m.group(1)), int(m.group(3))
    if 1 <= b <= 12 < a <= 31:
        return _written_date(a, b, m.group(4))  # day first: "26/04/1986"
    if 1 <= a <= 12 < b <= 31:
        return _written_date(b, a, m.group(4))  # month first: "04/26/1986"
    if a == b and 1 <= a <= 12:
        return _written_date(a, a, m.group(4))
    return m.group(0)  # "03/04/1986": the 3rd of April or the 4th of March


def dates_written_out(text: str) -> str:
    """``text`` with each date in digits written as day, month and year ("1986-04-26" and
    "26/04/1986" read "26 April 1986") and each month's abbreviation beside a number whole
    ("Apr. 26" -> "April 26")."""
    text = _ISO_DATE.sub(
        lambda m: _written_date(int(m.group(3)), int(m.group(2)), m.group(1)), text)
    text = _DIGIT_DATE.sub(_digit_date, text)
    return _MONTH_ABBREVIATION.sub(lambda m: MONTH_ABBREVIATIONS[m.group(1) or m.group(2)], text)


def ordinal(n: int) -> str:
    """``n`` as an ordinal in digits ("12th", "21st", "3rd")."""
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def centuries_in_digits(text: str) -> str:
    """``text`` with a century's ordinal in digits ("the twelfth century", "the twenty-first
    century", "the 1100s" -> "the 12th century", "the 21st century", "the 12th century")."""

    def in_digits(m: re.Match[str]) -> str:
        return ordinal(ORDINAL_VALUES[m.group(2).lower()] + (20 if m.group(1) else 0))

    def hundreds(m: re.Match[str]) -> str:
        return f"{ordinal(int(m.group(1)) + 1)} century"

    return _HUNDREDS.sub(hundreds, _ORDINAL_CENTURY.sub(in_digits, text))


def decades_in_full(text: str) -> str:
    """``text`` with a decade in words or in two digits as its four ("the nineties", "the
    '90s", "the 90s" -> "the 1990s"; "the eighteen-nineties" -> "the 1890s"; "the '00s" ->
    "the 2000s"). A decade without its century is read as the 20th century's, or the 21st's
    for "'00s" and "'10s"."""

    def in_words(m: re.Match[str]) -> str:
        century = "18" if (m.group(2) or "").lower() == "eighteen" else "19"
        return f"{m.group(1)}{century}{_DECADE_WORDS[m.group(3).lower()]}0s"

    def in_digits(m: re.Match[str]) -> str:
        digit = int(m.group(2))
        return f"{m.group(1) or ''}{20 if digit < 2 else 19}{digit}0s"

    return _DECADE_IN_TWO_DIGITS.sub(in_digits, _DECADE_IN_WORDS.sub(in_words, text))


def year_ranges_in_full(text: str) -> str:
    """``text`` with a year range's two-digit end in full ("1914-18" -> "1914-1918",
    "2005–09" -> "2005–2009"; "2010 - 08" is no range)."""

    def full(m: re.Match[str]) -> str:
        start = int(m.group(1))
        end = start // 100 * 100 + int(m.group(3))
        return f"{start}{m.group(2)}{end}" if end > start else m.group(0)

    return _SHORT_YEAR_RANGE.sub(full, text)


# an era after a year or a century: "CE" is "AD", "BCE" is "BC"
_ERA = re.compile(r"(?:(?<=\d )|(?<=century ))(?:(CE)|(BCE))\b")


def calendar_as_values(text: str) -> str:
    """``text`` with its dates, times of day, centuries and year ranges each in one form
    (module docstring)."""
    if not _ANY_CALENDAR.search(text):
        return text
    text = centuries_in_digits(dates_written_out(times_of_day(text)))
    text = _ERA.sub(lambda m: "AD" if m.group(1) else "BC", text)
    return year_ranges_in_full(decades_in_full(text))
