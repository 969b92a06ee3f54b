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
  2000000 to 3000000);
* a fraction: "half a million" is "500000", "one and a half years" "1.5 years", "a dozen"
  "12", and a share of a whole a round percentage ("half of the voters" is "about 50 percent
  of the voters"; :func:`fractions_as_values`);
* a date or a time of day in one form (:mod:`factgraph.stages.date_forms`).

A spelling that reads two ways — "1.2m" (1,200,000, or 1.2 metres), "60.000" (60, or 60,000 as
much of Europe writes it) — keeps its first reading; :func:`other_readings` gives the second,
which a response is read as stating too, so that neither reading makes a faithful answer wrong.

Pure functions, text in, text out; the one reading of ``content_words`` and of the number
slots of :mod:`factgraph.stages.conflicts.numbers`.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from factgraph.stages.date_forms import ORDINAL_VALUES, calendar_as_values, ordinal

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
# a letter, or a letter and a hyphen, right before the first group makes it part of a name
# ("GPT-3 175B", "A4 210 mm"), not the thousands of a number split by spaces
_NAME_BEFORE = re.compile(r"[A-Za-z][-‐]?$")
_ZERO_FRACTION = re.compile(r"(?<![\d.])(\d+)\.0+(?!\.?\d)")
_NUMBER = r"\d+(?:\.\d+)?"
_MAGNITUDE_WORD = "|".join(MAGNITUDES)
# a number word, or two ("twenty-six", "twenty six"): :func:`_count` reads its value
_TENS_AND_UNIT = rf"(?:{'|'.join(TENS)})[- ](?:{'|'.join(_ONE_TO_NINE)})"
_NUMBER_WORDS = rf"\b(?:{_TENS_AND_UNIT}|{'|'.join(_WORD_VALUES)})"
_NUMBER_WORD_BEFORE_MAGNITUDE = re.compile(rf"{_NUMBER_WORDS}(?= (?:{_MAGNITUDE_WORD})\b)",
                                           re.I)
_RANGE_BEFORE_MAGNITUDE = re.compile(
    rf"(?<![\d.,])({_NUMBER})(\s*(?:to|and|or|-|–|—)\s*)({_NUMBER})(?=\s*(?:{_MAGNITUDE_WORD})\b)",
    re.I)
# a number and its magnitudes, one after the other ("two hundred thousand", "2.5 thousand
# million")
_SCALED = re.compile(rf"(?<![\d.,])({_NUMBER})((?: ?(?:{_MAGNITUDE_WORD})\b)+)", re.I)
# a compound that writes the magnitude with a hyphen ("a 175-billion-parameter model", "a
# 3.2-million-year-old fossil"): the same scaled number
_HYPHEN_SCALED = re.compile(rf"(?<![\d.,-])({_NUMBER})-(hundred|thousand|million|billion|"
                            r"trillion)\b", re.I)
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


# a percentage's sign or words: "5%", "5 per cent" and "5 percent" read alike ("percent")
PERCENT = re.compile(r"\s*%|\bper\s+cent\b", re.I)


# a number whose thousands a tokeniser set apart ("700 , 000"): one number
_SPLIT_THOUSANDS = re.compile(r"\b(\d{1,3})\s+,\s+(?=\d{3}\b)")


def join_split_thousands(text: str) -> str:
    """``text`` with each number whose thousands a tokeniser set apart written whole
    ("27 , 000" -> "27,000"); a year before a comma ("In 2010 , 500 people") is left alone."""
    return _SPLIT_THOUSANDS.sub(r"\1,", text)


# what a fraction may be of: a magnitude, a dozen, a unit of time or measure ("half a million",
# "a year and a half", "two and a half hours", "a quarter of a mile")
_FRACTION_UNITS = ("hundred", "thousand", "million", "billion", "trillion", "dozen", "percent",
                   "per cent", "percentage point", "point", "second",
                   "minute", "hour", "day", "week", "month", "year", "decade", "century",
                   "mile", "kilometre", "kilometer", "metre", "meter", "foot", "inch", "pound",
                   "kilo", "kilogram", "gram", "litre", "liter", "gallon", "ton", "tonne",
                   "cup", "teaspoon", "tablespoon")
_UNIT = rf"({'|'.join(_FRACTION_UNITS)})(?:s|es)?"
_COUNT = rf"(\d+|{'|'.join(_WORD_VALUES)})"
_HALF_A = re.compile(rf"\b(?:half\s+an?|an?\s+half)\s+{_UNIT}\b", re.I)
_AND_A_HALF = re.compile(rf"\b{_COUNT}\s+and\s+a\s+half\s+{_UNIT}\b", re.I)
_UNIT_AND_A_HALF = re.compile(rf"\ban?\s+{_UNIT}\s+and\s+a\s+half\b", re.I)
_PARTS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
          "fifth": 5, "fifths": 5, "tenth": 10, "tenths": 10}
_PART = "|".join(_PARTS)
_PART_OF_A_UNIT = re.compile(rf"\b(a|one|two|three)[- ]({_PART})\s+of\s+an?\s+{_UNIT}\b",
                             re.I)
_DOZEN = re.compile(rf"\b(\d+(?:\.\d+)?|{'|'.join(_WORD_VALUES)})\s+dozen\b(?!s)", re.I)
# a share of a whole: "half of the voters", "half the votes", "a third of", "two-thirds of";
# not a half that is a part of a time or a place ("the second half of the season", "the
# northern half of the country": :data:`_WHOLE_HALF`)
# ("just over two-thirds is frozen" too); not a measure of another thing ("in half the time of
# a gas burner", "a third the size of Texas": a ratio, no share)
_SHARE = re.compile(rf"(\b(?!(?:a|an|one|two|three|four|nine)\b)[A-Za-z]+\s+)?"
                    rf"\b(?:(a|one|two|three|four|nine)[- ])?({_PART})\s+"
                    r"(?=(?:of|the|his|her|their|its|all|them|our|my|your|is|are|was|were)\b)"
                    r"(?!the\s+(?:time|size|length|height|width|depth|weight|price|cost|speed|"
                    r"distance|area|volume|amount|rate|power|energy|number)\b)", re.I)
_WHOLE_HALF = frozenset({"first", "second", "third", "fourth", "final", "last", "latter",
                         "former", "other", "back", "top", "bottom", "upper", "lower", "front",
                         "northern", "southern", "eastern", "western", "the", "this", "that",
                         "each", "every", "better", "bigger", "larger", "smaller", "opening",
                         "closing", "early", "late", "later", "earlier", "one"})
# "nine out of ten dentists", "one in three adults", "3 in 4 employees": a share
_SMALL_COUNT = rf"(\d{{1,3}}|{'|'.join(w for w in _WORD_VALUES if w != 'a')})"
_N_IN_M = re.compile(rf"\b{_SMALL_COUNT}\s+(?:out\s+of|in)\s+{_SMALL_COUNT}"
                     r"(?=\s+(?!(?:of|the|a|an|and|or|to|in|on|at|by|for|per|years?|months?|"
                     r"days?|weeks?|hours?|minutes?|seconds?|times?)\b)[a-z])", re.I)
_UNICODE_FRACTIONS = {"½": "5", "¼": "25", "¾": "75"}
_UNICODE_FRACTION = re.compile(r"(\d*)\s?([½¼¾])")
# a text without one of these has no fraction to rewrite ("in" only before a count: "in"
# alone stands in most sentences)
_ANY_FRACTION = re.compile(rf"[½¼¾]|\b(?:{_PART}|dozen|decade|century)\b|"
                           rf"\b(?:out\s+of|in)\s+{_SMALL_COUNT}\b", re.I)
# a decade or a century as a length of time ("for a decade", "over a century")
_ONE_PERIOD = re.compile(r"\b(?:a|one)\s+(decade|century)\b(?!\s+(?:of|ago|earlier|later)\b)",
                         re.I)


def _count(word: str) -> Decimal:
    """A count in digits or in number words ("1.5", "a", "seven", "twenty-six", "twenty
    six") as its value."""
    if word[0].isdigit():
        return Decimal(word)
    return Decimal(sum(_WORD_VALUES[part] for part in re.split(r"[- ]+", word.lower())))


def _plural(unit: str) -> str:
    return unit if unit in ("hundred", "thousand", "million", "billion", "trillion", "percent",
                            "per cent") else (
        "centuries" if unit == "century" else "feet" if unit == "foot" else
        "inches" if unit == "inch" else unit + "s")


def _share(m: re.Match[str]) -> str:
    before, count, part = m.group(1) or "", m.group(2), m.group(3).lower()
    if before.strip().lower() in _WHOLE_HALF or (count is None and part != "half"):
        return m.group(0)  # "the second half of", "a third" needs its count ("third of" alone
        # is an ordinal's)
    share = Decimal(100) * (_count(count) if count else 1) / _PARTS[part]
    return f"{before}about {round(share)} percent "


def _n_in_m(m: re.Match[str]) -> str:
    n, of = _count(m.group(1)), _count(m.group(2))
    if not 0 < n <= of or of < 2:
        return m.group(0)  # "5 in 2": no share
    return f"about {round(Decimal(100) * n / of)} percent of"


def fractions_as_values(text: str) -> str:
    """``text`` with each fraction as its value: "half a million" is "0.5 million" (and so
    500,000), "a year and a half" and "one and a half years" "1.5 years", "half an hour" "0.5
    hour", "a quarter of a mile" "0.25 mile", "1½" "1.5", "a dozen" "12", "half a dozen" "6",
    "for a decade" "for 10 years"; a share of a whole as a percentage given as a round figure
    ("half of the voters" is "about 50 percent of the voters", "two-thirds of" and "two in
    three" "about 67 percent of", "nine out of ten" "about 90 percent of"), so that "50%"
    states it and "30%" contradicts it, while "48%" agrees with a round "half"."""
    if not _ANY_FRACTION.search(text):
        return text
    text = _UNICODE_FRACTION.sub(
        lambda m: f"{m.group(1) or 0}.{_UNICODE_FRACTIONS[m.group(2)]}", text)
    text = _AND_A_HALF.sub(
        lambda m: f"{_count(m.group(1)) + Decimal('0.5')} {_plural(m.group(2).lower())}", text)
    text = _UNIT_AND_A_HALF.sub(lambda m: f"1.5 {_plural(m.group(1).lower())}", text)
    text = _HALF_A.sub(lambda m: f"0.5 {m.group(1)}", text)
    text = _PART_OF_A_UNIT.sub(lambda m: "{} {}".format((
        _count(m.group(1)) / _PARTS[m.group(2).lower()]).quantize(Decimal("0.01")).normalize(),
        m.group(3)), text)
    text = _DOZEN.sub(lambda m: format((_count(m.group(1)) * 12).normalize(), "f"), text)
    text = _N_IN_M.sub(_n_in_m, text)
    text = _ONE_PERIOD.sub(lambda m: "10 years" if m.group(1).lower() == "decade"
                           else "100 years", text)
    return _SHARE.sub(_share, text)


_NUMBER_WORD = re.compile(rf"{_NUMBER_WORDS}\b", re.I)


# one number written in several number words: "three thousand four hundred", "two million five
# hundred thousand", "a thousand and one" (a number word and its magnitude alone, "sixty
# thousand", is read by the magnitudes below)
_NUMBER_TOKEN = rf"(?:{_TENS_AND_UNIT}|{'|'.join(w for w in _WORD_VALUES if w != 'a')})"
_BIG_WORDS = ("hundred", "thousand", "million", "billion", "trillion")
_NUMBER_RUN = re.compile(rf"\b(?:a|{_NUMBER_TOKEN})(?:(?:\s+and)?\s+(?:{_NUMBER_TOKEN}|"
                         rf"{'|'.join(_BIG_WORDS)})\b)+", re.I)
# "one point two million", "nine point five eight": a decimal in words (not "at one point")
_DIGIT_WORDS = tuple(NUMBER_WORDS)[:10]  # "zero" … "nine"
_POINT = re.compile(rf"(?<!\bat\s)(?<!\bsome\s)\b({_NUMBER_TOKEN})\s+point\s+"
                    rf"((?:{'|'.join(_DIGIT_WORDS)})(?:\s+(?:{'|'.join(_DIGIT_WORDS)}))*)\b",
                    re.I)
# "four dollars and fifty cents", "3 pounds and 20 pence": one sum
_CURRENCY_NAMES = {"dollar": "$", "euro": "€", "pound": "£"}
_SUM_IN_WORDS = re.compile(
    rf"\b(\d+|{_NUMBER_TOKEN})\s+(dollar|euro|pound)s?\s+and\s+(\d{{1,2}}|{_NUMBER_TOKEN})\s+"
    r"(?:cents?|pence)\b", re.I)
# "3 × 10^8", "1.5 x 10⁸", "6.02 * 10**23": a number in scientific notation
_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-")
_SCIENTIFIC = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*[×x*]\s*10"
                         r"(?:\s*(?:\^|\*\*)\s*([-−]?\d{1,2})|([⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,2}))(?!\d)")
# "50 basis points", "25bps": hundredths of a percentage point
_BASIS_POINTS = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s?(?:basis\s+points?|bps|bp)\b", re.I)
# counts with a name of their own: "a fortnight" (two weeks), "a baker's dozen" (13)
_NAMED_COUNTS = re.compile(
    r"\b(?:a|one)\s+(?:(fortnight)|(baker['’]s\s+dozen)(?:\s+of\b)?)\b", re.I)


# an ordinal in words, wherever it stands ("the Eighteenth Amendment", "its fifth-generation
# model": read alike on both sides, or "the fifth" and "Toyota's fifth" part); not "first" nor
# "second", which are also a rank of time and a unit, nor a fraction ("a third", "one fifth")
_ORDINALS = "|".join(w for w in ORDINAL_VALUES if w not in ("first", "second"))
_ORDINAL_WORD = re.compile(rf"(?<!\ba\s)(?<!\bone\s)(?<!-)\b({_ORDINALS})\b", re.I)
# "Q3 2022", "Q3 of 2022", "in Q3" (not "the Audi Q3")
_QUARTER = re.compile(r"\bQ([1-4])\b(?=\s*(?:of\s+)?(?:19|20)\d\d\b)|(?<=\bin\s)Q([1-4])\b")


# the readings below each need one of their words; checked on the lower-cased text, which is
# much cheaper than a search that ignores case (most sentences have none of them)
_ANY_ORDINAL_WORD = re.compile(rf"\b(?:{_ORDINALS})\b")
_ANY_MAGNITUDE_WORD = re.compile(rf"\b(?:{'|'.join(_BIG_WORDS)})\b")


def _number_run(m: re.Match[str]) -> str:
    """A run of number words as its value, where a number follows a magnitude in it ("three
    thousand four hundred" -> "3400"); any other run as written (a magnitude alone is read
    later; "two and three" are two numbers)."""
    words = re.findall(rf"{_NUMBER_TOKEN}|\b(?:a|and|{'|'.join(_BIG_WORDS)})\b", m.group(0),
                       re.I)
    total, current, last_big, after_big, prev = 0, 0, 10**15, False, ""
    for w in words:
        low = w.lower()
        if low == "and":
            continue
        if low == "hundred":
            if prev == "hundred" or current >= 100:
                return m.group(0)
            current = (current or 1) * 100
        elif low in _BIG_WORDS:
            size = MAGNITUDES[low]
            if size >= last_big:
                return m.group(0)  # "two thousand million": read by the magnitudes
            total, current, last_big = total + (current or 1) * size, 0, size
        else:
            if prev and prev not in _BIG_WORDS:
                return m.group(0)  # a number after a number: two numbers
            after_big = after_big or prev in _BIG_WORDS
            current += int(_count(low))
        prev = low if low in _BIG_WORDS or low == "hundred" else "n"
    if not after_big:
        return m.group(0)
    return str(total + current)


def _scientific(m: re.Match[str]) -> str:
    power = (m.group(2) or m.group(3)).translate(_SUPERSCRIPTS).replace("−", "-")
    return _value(m.group(1), 1) if int(power) == 0 else format(
        (Decimal(m.group(1)) * Decimal(10) ** int(power)).normalize(), "f")


def spelled_numbers_as_values(text: str) -> str:
    """``text`` with the numbers written out in several words as digits: "three thousand four
    hundred" -> "3400", "one point two million" -> "1.2 million", "four dollars and fifty
    cents" -> "$4.50", "3 × 10^8" -> "300000000", "50 basis points" -> "0.5 percentage
    points", "a fortnight" -> "2 weeks", "a baker's dozen" -> "13"; an ordinal in
    digits ("the Eighteenth Amendment" -> "the 18th Amendment"), and a quarter of a year in
    words ("Q3 2022" -> "3rd quarter 2022")."""
    low = text.lower()  # each reading only where its word is there: most text has none
    if "fortnight" in low or "baker" in low:
        text = _NAMED_COUNTS.sub(lambda m: "2 weeks" if m.group(1) else "13", text)
    if _ANY_ORDINAL_WORD.search(low):
        text = _ORDINAL_WORD.sub(lambda m: ordinal(ORDINAL_VALUES[m.group(1).lower()]), text)
    if "Q" in text:
        text = _QUARTER.sub(lambda m: f"{ordinal(int(m.group(1) or m.group(2)))} quarter",
                            text)
    if "point" in low:
        text = _POINT.sub(lambda m: f"{_count(m.group(1))}." + "".join(
            str(_DIGIT_WORDS.index(w.lower())) for w in m.group(2).split()), text)
    if "cent" in low or "pence" in low:
        text = _SUM_IN_WORDS.sub(lambda m: "{}{}.{:02d}".format(  # noqa: UP032 (three parts)
            _CURRENCY_NAMES[m.group(2).lower()], int(_count(m.group(1))),
            int(_count(m.group(3)))), text)
    if _ANY_MAGNITUDE_WORD.search(low):
        text = _NUMBER_RUN.sub(_number_run, text)
    if "10" in text:
        text = _SCIENTIFIC.sub(_scientific, text)
    if "bp" in low or "basis" in low:
        text = _BASIS_POINTS.sub(lambda m: "{} percentage points".format(
            format((Decimal(m.group(1)) / 100).normalize(), "f")), text)
    return text


def number_words_as_digits(text: str) -> str:
    """``text`` with each number word in digits ("two weeks" -> "2 weeks", "twenty-one days"
    -> "21 days", "a year" -> "1 year"): what a quantity's reading needs, where the words
    stay words elsewhere."""
    return _NUMBER_WORD.sub(_number_word, text)


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
    if m.group(3) and _NAME_BEFORE.search(m.string[: m.start()]):
        return m.group(0)  # "GPT-3 175B": a name's number, then a count
    return m.group(1) + re.sub(r"\D", "", m.group(2) or m.group(3))


def _number_word(m: re.Match[str]) -> str:
    return str(int(_count(m.group(0))))


def _range_scaled(m: re.Match[str]) -> str:
    low, sep, high = m.group(1), m.group(2), m.group(3)
    magnitude = re.match(rf"\s*({_MAGNITUDE_WORD})", m.string[m.end():], re.I)
    if magnitude is None or Decimal(low) > Decimal(high) or Decimal(low) >= 1000:
        return m.group(0)
    return _value(low, MAGNITUDES[magnitude.group(1).lower()]) + sep + high


# "twenty-six", "twenty six": one number (a number word alone stays a word here; the content
# words read it as its digits)
_COMPOUND_NUMBER_WORD = re.compile(
    rf"\b({'|'.join(TENS)})[- ]({'|'.join(_ONE_TO_NINE)})\b(?!\s+(?:{_MAGNITUDE_WORD})\b)",
    re.I)
# "twelve hundred and fifty", "two hundred and 5": British English joins the hundreds and the
# rest with "and"
_HUNDRED_AND = re.compile(
    rf"\b(\d+|{'|'.join(_WORD_VALUES)})\s+hundred\s+and\s+(\d{{1,2}}|"
    rf"{'|'.join(w for w in _WORD_VALUES if w != 'a')})\b(?!\s*(?:{_MAGNITUDE_WORD})\b)", re.I)


def _hundred_and(m: re.Match[str]) -> str:
    rest = int(_count(m.group(2)))
    if rest >= 100:
        return m.group(0)
    return str(int(_count(m.group(1))) * 100 + rest)


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

    text = fractions_as_values(calendar_as_values(spelled_numbers_as_values(text)))
    text = _COMPOUND_NUMBER_WORD.sub(_number_word, text)
    if not _ANY_NUMBER.search(text):  # most sentences of prose: nothing to read
        return text
    text = _HUNDRED_AND.sub(_hundred_and, text)
    text = _GROUPED.sub(_grouped, join_split_thousands(text))
    text = _ZERO_FRACTION.sub(r"\1", text)
    text = _NUMBER_WORD_BEFORE_MAGNITUDE.sub(_number_word, text)
    text = _RANGE_BEFORE_MAGNITUDE.sub(_range_scaled, text)
    text = _CAPITAL_SCALED.sub(
        lambda m: scaled(m.group(1), _CAPITAL_MAGNITUDES[m.group(2)], m.group(2)), text)
    text = _CURRENCY_SCALED.sub(lambda m: m.group(1) + scaled(
        m.group(2), _CURRENCY_MAGNITUDES[m.group(3).lower()], m.group(3)), text)
    return _SCALED.sub(chained, _HYPHEN_SCALED.sub(r"\1 \2", text))


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


# a unit with the micro sign (µ, or the Greek μ), as its letters read it: "150 µg" is "150 mcg",
# not "150 g"
_MICRO_UNIT = re.compile(r"(?<![^\W\d_])[µμ](g|l|L|m|s)\b")
_MICRO_NAMES = {"g": "mcg", "l": "microlitres", "L": "microlitres", "m": "micrometres",
                "s": "microseconds"}


def split_glued_units(text: str) -> str:
    """``text`` with a unit written onto its number set apart ("8GB" -> "8 GB", "500mg" ->
    "500 mg"): one number, as "8 GB" reads; a micro sign's unit in letters ("150µg" -> "150
    mcg")."""
    if "µ" in text or "μ" in text:
        text = _MICRO_UNIT.sub(lambda m: f" {_MICRO_NAMES[m.group(1)]}", text)
    return _GLUED_UNIT.sub(r"\1 \2", text)
