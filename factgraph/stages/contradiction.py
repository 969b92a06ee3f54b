"""A fact stated otherwise: the response's aligned sentence says something else in the fact's
slot (the ``evidence`` judge's contradiction check; DESIGN.md, "A score is only as good as its
judge": a fact stated otherwise is contradicted, never covered).

The aligned sentence is the response sentence that carries most of the fact
(``factgraph.stages.fact_evidence``). The fact is **contradicted** by it when the rest of the
fact — its content words outside the slot — is in that sentence (``rest_share ≥
REST_SHARE``, at least two such words) and the slot differs:

* **number** — a number of the fact occurs nowhere in the response, and the sentence has
  another number of the same kind: the same word after it ("28 firefighters" / "31
  firefighters"), the same unit read by pint (metres against feet are compared after
  conversion: equal lengths are no conflict), or both are years;
* **negation** — one of the two says "not" ("no", "never", "n't", "without", …) and the other
  does not;
* **antonym** — the fact has a word whose opposite (:data:`~factgraph.stages.antonyms.ANTONYMS`
  in every form: positive / negative, reduces / increases, largest / smallest, acquitted /
  convicted; any word of going up against any word of going down: increased / fell; or the
  word with or without "un" / "non": stable / unstable) the sentence has instead;
* **name** — a name of the fact occurs nowhere in the response, and the sentence has another
  name where the fact has it: a name that is neither in the fact nor a shorter or longer form
  of one of its names ("Koirala" is "Anuradha Koirala"; "Europe's" is "Europe", "López" is
  "Lopez", a pronoun is no name).

A value the response states in another sentence still conflicts where the sentence aligned
to the fact puts another value in the fact's own slot ("Pietersen was sacked …", then
"Vandermeer scored 170 for Surrey"): the same content word beside the name, the same
neighbour or counted word beside the number (not a measure: "7 years" / "20 years" can be two
slots). Other sentences that hold half of the fact are checked only for values stated nowhere.

Each check says which slot and what each side holds (:class:`Conflict`), so that the verdict
can be shown with its reason. Pure functions; pint is the only dependency beyond the stdlib.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from factgraph.stages.antonyms import ANTONYMS, SAME_WORD, latin_opposites
from factgraph.stages.context_facts import (
    NUMBER_WORDS,
    STOPWORDS,
    content_words,
    fold_accents,
    ordinals_as_numbers,
    split_glued_magnitudes,
    stem,
)
from factgraph.stages.fact_evidence import ResponseIndex, names, numbers, stems
from factgraph.stages.text_units import FINITE_VERB, join_split_thousands, split_facts

REST_SHARE = 0.75
SLOT_REST_SHARE = 0.66  # the other value sits in the fact's own slot: one paraphrased word
CLAUSE_SHARE = 0.75  # negation and antonyms: the clause must carry the fact
OTHER_SENTENCE_SHARE = 0.5  # another sentence checked for a conflict holds this much of the fact
SHORT_ASIDE = 3  # words: an aside the clause reaches over (an age, "from Oldham")
NEGATORS = frozenset({"not", "no", "never", "n't", "without", "none", "nobody", "nothing",
                      "neither", "nor", "cannot", "nowhere", "unable"})

_TOKEN = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*|n't", re.I)
_YEAR = re.compile(r"^(1[5-9]\d\d|20\d\d)$")


@dataclass(frozen=True)
class Conflict:
    """Why a fact is contradicted: the slot, what the fact holds and what the sentence holds."""

    slot: str  # "number" | "negation" | "antonym" | "name"
    fact_value: str
    response_value: str

    def describe(self) -> str:
        """One line for a person: "number: fact 28, response 31"."""
        return f"{self.slot}: fact {self.fact_value!r}, response {self.response_value!r}"


_PERCENT = re.compile(r"\s*%|\bper\s+cent\b", re.I)


_NOT = re.compile(r"n\s*'\s*t\b|\bcannot\b", re.I)  # "didn't", "didn ' t", "cannot"
_NO_NUMBER = re.compile(r"\bno\.?\s+(?=\d)", re.I)  # "World No 3", "reactor No. 4": a number


# "non-parametric" is "nonparametric": one word, else its half reads as the opposite
_PREFIX_HYPHEN = re.compile(r"\b(non|un)-(?=[a-z])", re.I)


def _tokens(text: str) -> list[str]:
    plain = _NOT.sub(" not", _PERCENT.sub(" percent", text.replace("’", "'")))
    plain = _PREFIX_HYPHEN.sub(r"\1", plain)
    return [NUMBER_WORDS.get(t, t) for t in (t.lower() for t in _TOKEN.findall(plain))]


# a quoted title says nothing about the fact's polarity ("The Night We Never Met", a quote
# left open by a cut sentence too); a quoted phrase that is no title ("never carried it") does
_QUOTED = re.compile(r"\"[A-Z][^\"]*(?:\"|$)|“[A-Z][^”]*(?:”|$)|``\s*[A-Z].*?(?:''|$)")
# a capitalised negator inside a sentence belongs to a name ("Without a Trace", "No. 4",
# 'Don't Come Around Here No More')
_TITLE_NEGATORS = "Without|Never|No|Not|None|Nothing"  # negators that open titles, capitalised
_NAME_NEGATOR = re.compile(
    rf"(?<=\S\s)['‘\"“]?(?:{_TITLE_NEGATORS}|Nobody|[A-Z][a-z]*n['’]t)(?![\w'’])")
_NEGATIVE_COMPOUND = re.compile(r"\b(no|non|not|never)-(?=\w)", re.I)  # "no-nonsense"


_RATHER_THAN = re.compile(r"\b(?:rather\s+than|instead\s+of)\b", re.I)
# "has yet to approve" says it has not approved
_YET_TO = re.compile(r"\b(?:has|have|had|is|are|was|were)\s+yet\s+to\b", re.I)
_STRETCH_END = re.compile(r"[,;:]\s|[.!?](?:\s|$)")  # where a negator's reach over "or" ends
_OR = frozenset({"or", "nor"})


def _negated_words(text: str) -> list[str]:
    """The stems of the words ``text`` negates: for each negator, the next content word that
    is not a number ("does not rely on" -> "rely"; "is not the 2010 winner" -> "winner"), and
    the next after each "or" / "nor" that follows it before a comma or a stop ("did not build
    or open" -> "build", "open"); empty when nothing is negated. Titles (quoted, or a
    capitalised "Without" / "Never" inside a sentence) and "no-nonsense" negate nothing."""
    plain = _NAME_NEGATOR.sub(" ", _NEGATIVE_COMPOUND.sub(r"\1", _QUOTED.sub(" ", text)))
    plain = _RATHER_THAN.sub(" not ", plain)  # "by nature rather than nurture": not nurture
    plain = _YET_TO.sub(" not ", plain)
    out = []
    # a negator reaches over "or" / "nor" to the word after it within its stretch ("did not
    # start or score a goal": not score); a comma, a semicolon, a colon or a stop ends it
    for stretch in _STRETCH_END.split(_NO_NUMBER.sub("number ", plain)):
        toks = _tokens(stretch)
        negated_at = -1
        for i, t in enumerate(toks):
            if t in NEGATORS or (t in _OR and negated_at >= 0):
                negated_at = i
                nxt = next((w for w in toks[i + 1: i + 6] if w not in NEGATORS
                            and w.isalpha() and len(w) >= 3 and w not in STOPWORDS), None)
                if t not in _OR or nxt:
                    out.append(stem(nxt) if nxt else "")
    return out


def _negated(text: str) -> bool:
    return bool(_negated_words(text))


# a negator whose scope reaches over "or" to the clause right after it ("did not score any
# goals or make any assists"); a comma, a colon or a full stop between them ends it
_OPEN_NEGATION = re.compile(r"(?:\bnot|n't|\bnever)\b[^,;.:]*\bn?or\s*$", re.I)


def _in_scope(clause: str, sentence: str, start: int) -> str:
    """``clause`` (starting at offset ``start`` of ``sentence``), with the negator that reaches
    it from earlier in the sentence over "or" (:data:`_OPEN_NEGATION`), so the clause reads as
    negated as the sentence says."""
    return f"not {clause}" if _OPEN_NEGATION.search(sentence[:start]) \
        and not _negated_words(clause) else clause


# a capitalised negator that opens a title the response names mid-sentence ("Without a Trace",
# "Without Remorse"): at the start of a fact it is that title, not a negation
_CAPITAL_NEGATOR = re.compile(rf"\b(?:{_TITLE_NEGATORS})\s+\w+")


def _title_opening(fact: str, response: str) -> bool:
    """Whether ``fact`` opens with a capitalised negator and the word after it that the
    response uses capitalised inside a sentence (quoted or not): a title ("Without a Trace
    TV series.")."""
    if not _CAPITAL_NEGATOR.match(fact):
        return False
    opening = " ".join(fact.split()[:2]).lower()
    for m in _CAPITAL_NEGATOR.finditer(response):
        before = response[: m.start()].rstrip(" \"“'‘(")
        if before and before[-1] not in ".!?" and m.group(0).lower() == opening:
            return True
    return False


def _negation_conflict(fact: str, clause: str) -> Conflict | None:
    """One side negates and the other does not, and the word negated is the other side's
    too ("does not rely on X" against "learns from X" is no conflict: "rely" is not there)."""
    in_fact, in_clause = _negated_words(fact), _negated_words(clause)
    if bool(in_fact) == bool(in_clause):
        return None
    negated, other = (in_fact, clause) if in_fact else (in_clause, fact)
    # a stem with or without its silent "e" is one word ("approve" / "approv(ed)")
    said = {x for w in stems(other) for x in (w, w.removesuffix("e"))}
    if not any(w and w.removesuffix("e") in said for w in negated):
        return None
    # "is only doubled when stressed" says it is not doubled otherwise: a restricted
    # affirmation agrees with a negation under another condition
    toks = _tokens(other)
    if any(stem(t) in negated and "only" in toks[max(0, i - 2): i] for i, t in enumerate(toks)):
        return None
    return Conflict("negation", "not" if in_fact else "(affirmed)",
                    "not" if in_clause else "(affirmed)")


def _rest_share(fact_stems: list[str], drop: set[str], sentence_stems: set[str]) -> tuple[
        float, int]:
    # a number is one word with or without its thousands commas ("7,000" / "7000")
    rest = [w.replace(",", "") for w in fact_stems if w.replace(",", "") not in drop]
    if not rest:
        return 0.0, 0
    # a stem with or without its silent "e" is one word ("approve" / "approv(ed)")
    said = {x for w in sentence_stems for x in (w.replace(",", ""), w.removesuffix("e"))}
    return sum(w in said or w.removesuffix("e") in said for w in rest) / len(rest), len(rest)


_FUNCTION_WORDS = frozenset({"of", "the", "a", "an", "in", "on", "at", "to", "for", "and", "or",
                             "per", "by", "from", "with", "than", "as", "is", "are", "was",
                             "were", "be", "that", "which", "who", "it", "its", "their"})


_MEASURES = frozenset({"times", "percent", "fold", "seconds", "minutes", "hours", "days", "weeks",
                       "months", "years", "miles", "km", "kilometres", "kilometers", "metres",
                       "meters", "feet", "pounds", "dollars", "euros", "per"})


def _is_measure(word: str) -> bool:
    """A word that measures rather than names what is counted ("years", "year", "percent")."""
    return word in _MEASURES or stem(word) == "year"


def _next_word(tokens: list[str], i: int) -> str | None:
    """The word a number counts or measures: the next word that is not a function word
    ("28 firefighters", "120,000 of them" -> None)."""
    for t in tokens[i + 1: i + 3]:
        if t in _FUNCTION_WORDS:
            return None
        if t.isalpha() and len(t) >= 2:
            return t
    return None


_BARE_NUMBER = re.compile(r"^\d+(?:[.,]\d+)*$")


# a currency sign is the unit the number counts ("$7,000" is "7,000 dollars"), as a degree sign
# is the scale of a temperature ("100 °C" is "100 degc", which pint reads as degC)
_CURRENCY = re.compile(r"([$€£])\s?(\d[\d,]*(?:\.\d+)?(?:\s*(?:million|billion|trillion|bn|k)\b)?)",
                       re.I)
_CURRENCY_WORD = {"$": "dollars", "€": "euros", "£": "pounds"}
_TEMPERATURE = re.compile(r"\s*(?:°\s*|\bdeg(?:rees?)?\s+)(?:([CF])\b|(celsius|centigrade|"
                          r"fahrenheit)\b)", re.I)
_PINT_UNITS = {"degc": "degC", "degf": "degF"}
_SHOWN_UNITS = {"degc": "°C", "degf": "°F"}
# a year range that gives its end in two digits ("2005–09" is 2005 to 2009)
_SHORT_YEAR_RANGE = re.compile(r"\b((?:1[5-9]|20)\d\d)\s*[–—-]\s*(\d\d)\b(?![.,]?\d)")


def _full_year_range(m: re.Match[str]) -> str:
    """A :data:`_SHORT_YEAR_RANGE` match with its end in full ("2005–2009")."""
    start, end = int(m.group(1)), int(m.group(2))
    full = start // 100 * 100 + end
    return f"{start}–{full}" if full > start else m.group(0)  # "2010 - 08" is no range


def _number_text(text: str) -> str:
    """``text`` as the number checks read it: a magnitude set apart from its number
    (``split_glued_magnitudes``: "£60million"), :func:`_joined_numbers`, a decimal without
    its leading zero (".375") with it, a currency sign as the word after its number and a
    temperature's scale as pint's unit (:data:`_CURRENCY`, :data:`_TEMPERATURE`)."""
    text = _CURRENCY.sub(lambda m: f"{m.group(2)} {_CURRENCY_WORD[m.group(1)]}",
                         split_glued_magnitudes(text))
    text = _SHORT_YEAR_RANGE.sub(_full_year_range, text)
    text = _TEMPERATURE.sub(lambda m: " degf" if (m.group(1) or m.group(2))[0].lower() == "f"
                            else " degc", text)
    return re.sub(r"(?<![\w.])\.(?=\d)", "0.", _joined_numbers(text))


def _joined_numbers(text: str) -> str:
    """``text`` with digit groups that tokenisation split ("27 , 000") joined again, and
    ordinals read as their number ("147th" -> "147", as content words read them)."""
    return join_split_thousands(ordinals_as_numbers(text))


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
    kept as ``0.375``)."""
    text = _number_text(text)
    toks = _tokens(text)
    raw = [t.lower() for t in _TOKEN.findall(text)]  # before "one" reads as 1
    nums = set(numbers(text))
    out = []
    for i, t in enumerate(toks):
        v = t.replace(",", "")
        if not _BARE_NUMBER.match(v):
            continue
        if (v in nums or t in nums) and not (len(raw) == len(toks) and raw[i] == "one"):
            out.append((v, _next_word(toks, i)))  # "one of his albums" counts nothing
    return out


_MONTHS = frozenset({"january", "february", "march", "april", "may", "june", "july", "august",
                     "september", "october", "november", "december", "jan", "feb", "mar",
                     "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec"})


def _number_neighbours(text: str) -> dict[str, set[tuple[int, str]]]:
    """For each number of ``text``, the tokens just before and after it that say which slot it
    fills ("May 1" -> (-1, "may"); "30 - 20" -> (1, "20")); function words say nothing. A
    month beside a day is on no side (0): "4 July" and "July 14" are one slot, written in two
    orders; a year beside its month keeps its side, so a day and a year never share one."""
    toks = _tokens(_number_text(text))
    out: dict[str, set[tuple[int, str]]] = {}
    for i, t in enumerate(toks):
        v = t.replace(",", "")
        if not _BARE_NUMBER.match(v):
            continue
        day = not _YEAR.match(v)
        out.setdefault(v, set()).update(
            (0 if day and toks[i + d] in _MONTHS else d, toks[i + d].replace(",", ""))
            for d in (-1, 1) if 0 <= i + d < len(toks)
            and toks[i + d] not in _FUNCTION_WORDS and toks[i + d] not in STOPWORDS)
    return out


@cache
def _unit_registry() -> object:
    import pint

    return pint.UnitRegistry()


def _same_quantity(a: str, ua: str | None, b: str, ub: str | None) -> bool | None:
    """True / False when pint reads both as quantities of one dimension (equal within 1%),
    None when it cannot compare them."""
    if not ua or not ub or ua == ub:
        return None
    try:
        reg = _unit_registry()
        qa = reg.Quantity(float(a), _PINT_UNITS.get(ua, ua))  # type: ignore[attr-defined]
        qb = reg.Quantity(float(b), _PINT_UNITS.get(ub, ub))  # type: ignore[attr-defined]
        if qa.dimensionality != qb.dimensionality or qa.dimensionless:
            return None
        return bool(abs(qa.to(qb.units).magnitude - qb.magnitude) <= 0.01 * abs(qb.magnitude))
    except Exception:  # pint raises many kinds of errors for words that are not units
        return None


def _number_conflict(fact: str, sentence: str, response_words: frozenset[str],
                     fact_stems: list[str], sentence_stems: set[str], aligned: bool = True
                     ) -> Conflict | None:
    fact_slots = _number_slots(fact)
    sent_slots = _number_slots(sentence)
    others = [(m, u) for m, u in sent_slots if m not in {x for x, _ in fact_slots}]
    fact_around, sentence_around = _number_neighbours(fact), _number_neighbours(sentence)
    fact_ages, sentence_ages = _ages(fact), _ages(sentence)
    sentence_numbers = {m for m, _ in sent_slots}
    # a number the response states elsewhere is no conflict, except in the sentence aligned
    # to the fact, where another value in the same slot says otherwise
    elsewhere = (sentence_numbers | _stated_numbers(sentence)) if aligned else response_words
    for n in sorted(fact_ages - elsewhere):  # "Michael is 33" / "Michael Pulman, 69,"
        for m in sorted(sentence_ages - fact_ages):
            share, size = _rest_share(fact_stems, {n, "age", "year", "old"}, sentence_stems)
            if size >= 1 and share == 1.0:
                return Conflict("number", f"{n} (age)", f"{m} (age)")
    for n, unit in fact_slots:
        if n in elsewhere:
            continue
        for m, unit_m in others:
            same_quantity = _same_quantity(n, unit, m, unit_m)
            if same_quantity:  # "2 hours" / "120 minutes", "40 °C" / "104 °F"
                continue
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
            same_slot = same_slot or (bool(_YEAR.match(n)) and bool(_YEAR.match(m)))
            same_kind = same_slot or \
                (len(fact_slots) == 1 and len(others) == 1 and (unit is None or unit_m is None)
                 and not {unit, unit_m} & _MEASURES
                 and not _YEAR.match(n) and not _YEAR.match(m)
                 and n.isdigit() and m.isdigit())  # "Smith is 25" / "Smith, 53,"
            if not same_kind:
                continue
            share, size = _rest_share(fact_stems, {n}, sentence_stems)
            if n in response_words and not own_slot and not (
                    _YEAR.match(n) and _YEAR.match(m) and share == 1.0):
                continue  # two years where every other word of the fact stands is one slot
            if any(x not in sentence_numbers for x, _ in fact_slots if x != n):
                continue  # the fact's other numbers not there: another time or count
            if size >= 2 and share >= (SLOT_REST_SHARE if same_slot else REST_SHARE):
                return Conflict("number", f"{n} {_SHOWN_UNITS.get(unit or '', unit or '')}".strip(),
                                f"{m} {_SHOWN_UNITS.get(unit_m or '', unit_m or '')}".strip())
    return None


def _initials(text: str) -> set[str]:
    """Acronyms the fact's runs of capitalised words make ("Natural Language Processing" ->
    "nlp"): a shorter name of the same thing."""
    out: set[str] = set()
    for run in re.findall(r"(?:\b[A-Z][a-zA-Z]*(?:\s+|$)){2,}", text):
        words = run.split()  # each stretch of two or more: "The United States" gives "us"
        out.update("".join(w[0] for w in words[i:j]).lower()
                   for i in range(len(words)) for j in range(i + 2, len(words) + 1))
    return out


def _longer_acronym(name: str, initials: set[str], sentence: str) -> bool:
    """Whether ``name`` is written in capitals in ``sentence`` (a plural "s" aside) and holds
    the initials of a name of the fact: a longer name of the same one ("LLMs" for "Language
    Models", "NASA" for "Space Administration")."""
    core = name.removesuffix("s")
    return any(len(x) >= 2 and x in core for x in initials) and bool(
        re.search(rf"\b{re.escape(core.upper())}s?\b", sentence))


def _neighbours(tokens: list[str], word: str) -> set[tuple[int, str]]:
    return {(d, tokens[i + d]) for i, t in enumerate(tokens) if t == word
            for d in (-1, 1) if 0 <= i + d < len(tokens)}


def _spelling_variant(a: str, b: str) -> bool:
    """Two spellings of one name (a typo, a transliteration): the same first three letters,
    or a close match."""
    from difflib import SequenceMatcher

    return a[:3] == b[:3] or SequenceMatcher(None, a, b).ratio() >= 0.7


# a pronoun stands for a name, it does not replace it ("She noticed a stain")
_PRONOUNS = frozenset({"he", "she", "it", "we", "i", "you", "they", "this", "these", "those",
                       "there", "his", "her", "hers", "its", "our", "their", "my", "your"})


def _names(text: str, first: bool = False) -> list[str]:
    """:func:`~factgraph.stages.fact_evidence.names` without a possessive ("Europe's" is
    Europe); with ``first``, also a capitalised first word that is not a common word
    ("Jones scored 170": a swapped name often opens the sentence)."""
    out = [n.removesuffix("'s").removesuffix("’s") for n in names(text)]
    opening = re.match(r"\s*([A-Z][a-z]{1,})\b", text)
    if first and opening and opening.group(1).lower() not in STOPWORDS \
            and opening.group(1).lower() not in _FUNCTION_WORDS | _PRONOUNS:
        out.append(opening.group(1).lower())
    return list(dict.fromkeys(out))


def _name_conflict(fact: str, sentence: str, response_lower: str, fact_stems: list[str],
                   sentence_stems: set[str], aligned: bool = True) -> Conflict | None:
    """Another name where the fact has one. A name of the fact that the whole response never
    states is swapped when another name stands beside a word that stands beside it in the
    fact. A name the response states elsewhere but not in this sentence needs more: the other
    name stands in the fact's own name ("Drew Miller" / "Drew Vandermeer": a capitalised
    word of the fact beside both) — then one word of the rest may be paraphrased — or, in the
    sentence aligned to the fact, beside the same content word that is no part of a name
    ("Smith scored 170" / "Jones scored 170" is; "a shelter in Kathmandu" / "a shelter in
    Nepal" is not: "in" says no slot)."""
    fact, sentence = fold_accents(fact), fold_accents(sentence)
    response_lower = fold_accents(response_lower)
    fact_names = _names(fact)
    # "Baron/Pup": alternatives; one of them stated is enough
    alternatives = [set(m.lower().split("/")) for m in re.findall(r"\w+(?:/\w+)+", fact)]

    spelled_out = _spelled_out_initials(response_lower)  # "MP"
    # a place or its people named alone ("a Brazilian club" / "in Brazil"), not inside a
    # longer name ("European Union" is not stated by "Europe")
    alone = {run.lower() for run in re.findall(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*", fact)
             if " " not in run}

    def stated(n: str, text: str) -> bool:  # a plural too; "MP" for "Member of Parliament"
        return n in spelled_out or any(
            re.search(rf"\b{re.escape(a)}(?:s|es)?\b", text)
            for a in next((g for g in alternatives if n in g), {n})) or (n in alone and any(
                same_place(n, w) for w in re.findall(r"[a-z]{4,}", text)))

    sentence_lower = sentence.lower()
    here = [n for n in fact_names if not stated(n, sentence_lower)]
    if not here:
        return None
    short = _initials(fact)
    others = [m for m in _names(sentence, first=True) if m not in fact_names and m not in short
              and m not in STOPWORDS and not any(m in f or f in m for f in fact_names)
              and not _longer_acronym(m, short, sentence)]
    if not others:
        return None
    nowhere = [n for n in here if not stated(n, response_lower)]
    # a possessive's "s" is no neighbour ("Europe's search" / "Vandermeer's search")
    fact_tokens, sentence_tokens = ([t for t in _tokens(x) if t != "s"] for x in (fact, sentence))
    fact_capitals = {w.lower() for w in re.findall(r"\b[A-Z][a-z]+", fact)} - STOPWORDS
    # a word of a quoted title ("Saturday Night Live") is no one's name
    titled = {w.lower() for q in _QUOTED.findall(fact) + _QUOTED.findall(sentence)
              for w in re.findall(r"\w+", q)}
    for n in here:  # the other name stands where the fact's name stands
        around = {(d, w) for d, w in _neighbours(fact_tokens, n) if w.isalpha()}
        # the other name inside the fact's own: "Drew Miller" / "Drew Vandermeer"; after it
        # ("Glen Higgs" / "Vandermeer Higgs": a relative shares a surname) only where the
        # response never names the fact's one
        in_name = {(d, w) for d, w in around if w in fact_capitals
                   and (d < 0 or n in nowhere)}
        drop = {stem(w) for w in content_words(n)}  # the slot, not every name
        share, size = _rest_share(fact_stems, drop, sentence_stems)
        if size < 2:
            continue
        for m in others:
            if _spelling_variant(n, m):  # "Shepard" / "Shepherd", "Basnet" / "Basu"
                continue
            beside = _neighbours(sentence_tokens, m)
            if in_name & beside and share >= SLOT_REST_SHARE and not {n, m} & titled:
                return Conflict("name", n, m)
            if not around & beside or share < REST_SHARE:
                continue
            if n in nowhere or (aligned and any(
                    w not in STOPWORDS and w not in _FUNCTION_WORDS and w not in fact_capitals
                    and w.isalpha() and len(w) >= 3 for _, w in around & beside)):
                return Conflict("name", n, m)
    return None


_DEMONYM_ENDINGS = ("ians", "ian", "ans", "an", "ese", "ish", "i")
_PLACE_ENDINGS = ("ium", "ia", "y", "a", "")


def same_place(a: str, b: str) -> bool:
    """Whether two lower-case words name one place as the place and its people or language
    ("brazil" / "brazilian", "belgium" / "belgian", "germany" / "german", "japan" /
    "japanese"): one less a demonym ending is the other less a place ending, 4+ letters left
    ("paul" / "paula" is no pair; "austria" / "australia" neither)."""
    def roots(w: str, endings: tuple[str, ...]) -> set[str]:
        return {w[: len(w) - len(e)] for e in endings
                if w.endswith(e) and len(w) - len(e) >= 4}

    if a == b:
        return True
    return bool(roots(a, _DEMONYM_ENDINGS) & roots(b, _PLACE_ENDINGS)
                or roots(b, _DEMONYM_ENDINGS) & roots(a, _PLACE_ENDINGS))


_NEGATING_PREFIXES = ("un", "non")


def _prefixable(word: str) -> bool:
    """A word that a negating prefix can turn: 4+ letters, no function word."""
    return word.isalpha() and len(word) >= 4 and word not in STOPWORDS \
        and word not in _FUNCTION_WORDS


@lru_cache(maxsize=8192)
def opposites(word: str) -> frozenset[str]:
    """The words that say the opposite of ``word``: its :data:`ANTONYMS`, the adjective with or
    without its Latin "in" / "im" / "il" / "ir" (:func:`~factgraph.stages.antonyms.
    latin_opposites`: "effective" / "ineffective"), and the word with or without a negating
    "un" / "non" ("stable" / "unstable", "violent" / "nonviolent"; the rest of at least 4
    letters and no function word, so "under" and "unless" oppose nothing). Cached: it
    is asked for every word of every fact against every sentence checked."""
    out = set(ANTONYMS.get(word, frozenset())) | latin_opposites(word)
    if _prefixable(word):
        for prefix in _NEGATING_PREFIXES:
            out.add(prefix + word)
            if word.startswith(prefix) and _prefixable(word[len(prefix):]):
                out.add(word[len(prefix):])
    return frozenset(out)


def _negated_tokens(tokens: list[str]) -> set[str]:
    """The words of ``tokens`` with a negator (:data:`NEGATORS`) among the two before them."""
    return {t for i, t in enumerate(tokens) if any(w in NEGATORS for w in tokens[max(0, i - 2):i])}


def _antonym_conflict(fact_tokens: list[str], sentence_tokens: list[str], fact_stems: list[str],
                      sentence_stems: set[str]) -> Conflict | None:
    said, held = set(sentence_tokens), set(fact_tokens)
    # "not uncommon" / "common", "closed" / "not open": a negated opposite says the same
    fact_negated, said_negated = _negated_tokens(fact_tokens), _negated_tokens(sentence_tokens)
    for t in fact_tokens:
        opposite = opposites(t)
        # the sentence says the word in another form ("ended" / "ends"), or the fact holds
        # both sides ("removing noise by adding noise"): nothing is turned round
        if not opposite or SAME_WORD.get(t, frozenset({t})) & said or opposite & held:
            continue
        hit = sorted(o for o in opposite & said if (t in fact_negated) == (o in said_negated))
        if hit:
            share, size = _rest_share(fact_stems, {stem(t)}, sentence_stems)
            if share >= REST_SHARE and size >= 2:
                return Conflict("antonym", t, hit[0])
    return None


_CLAUSE = re.compile(r"\s*[;:()]\s*|,\s+|\s+(?:and|but|whereas|while|although|because|which|"
                     r"since|that|so|or|as|when|where|who|after|before|until|unless|if)\s+")


class AlignedClause(NamedTuple):
    """The stretch of a sentence that states a fact: its text as written, and where it starts."""

    text: str
    start: int


def aligned_clause(fact_stems: list[str], sentence: str) -> AlignedClause:
    """The stretch of ``sentence`` that states the fact: the clause piece (cut at punctuation
    and at conjunctions and relative words) holding most of the fact's words, widened to a
    neighbouring piece while that adds a word of the fact — reaching over a short aside that
    adds none ("Maren Sanchez, 16, was stabbed": the age is no clause of its own). A "not"
    outside it says nothing about this fact ("… a warm winter, which was a setback since there
    was not much ice")."""
    spans = _pieces(sentence)
    pieces = [sentence[a:b] for a, b in spans]
    want = set(fact_stems)
    have = [want & set(stems(c)) for c in pieces]
    short = [len(c.split()) <= SHORT_ASIDE for c in pieces]
    best = max(range(len(pieces)), key=lambda k: len(have[k]))
    lo = hi = best
    got = set(have[best])

    def reach(k: int, step: int) -> tuple[int, set[str]]:
        """How far one widening step goes from piece ``k`` and the words it adds."""
        j = k + step
        if not 0 <= j < len(pieces):
            return k, set()
        if have[j] - got:
            return j, have[j] - got
        if short[j] and 0 <= j + step < len(pieces) and have[j + step] - got:
            return j + step, have[j + step] - got
        return k, set()

    while True:
        lo2, left = reach(lo, -1)
        hi2, right = reach(hi, 1)
        if not left and not right:
            break
        if len(left) >= len(right):
            lo = lo2
            got |= left
        else:
            hi = hi2
            got |= right
    # as written, what lies between its pieces too ("did not start or score"): an "or" keeps
    # a negator's reach (:func:`_negated_words`)
    return AlignedClause(sentence[spans[lo][0]: spans[hi][1]], spans[lo][0])


def _pieces(sentence: str) -> list[tuple[int, int]]:
    """The (start, end) offsets of ``sentence``'s clause pieces (:data:`_CLAUSE` cuts them);
    the whole sentence where it holds no cut."""
    out, at = [], 0
    for m in [*_CLAUSE.finditer(sentence), None]:
        end = len(sentence) if m is None else m.start()
        if sentence[at:end].strip():
            out.append((at, end))
        if m is not None:
            at = m.end()
    return out or [(0, len(sentence))]


@lru_cache(maxsize=32)
def _stated_numbers(response: str) -> frozenset[str]:
    """The numbers a response states anywhere, spelled ("seven-year") or not; read once per
    response, not once per fact."""
    response = _joined_numbers(response)
    return frozenset({w.replace(",", "") for w in content_words(response)} | {
        t.replace(",", "") for t in _tokens(response) if t[:1].isdigit()})


@lru_cache(maxsize=32)
def _spelled_out_initials(response_lower: str) -> frozenset[str]:
    """The acronyms a response spells out ("Member of Parliament" -> "mp"); once per response."""
    return frozenset(_initials(response_lower.title().replace(" Of ", " ")))


def contradiction(fact: str, sentence: str, response: str, aligned: bool = True
                  ) -> Conflict | None:
    """The conflict between ``fact`` and a response ``sentence`` (the module docstring's four
    checks, in that order), or None. ``response`` is the whole response: a number or name the
    response states elsewhere is no conflict — except another name inside the fact's own name
    ("Drew Miller" / "Drew Vandermeer"), and, where ``sentence`` is the one aligned to the fact
    (``aligned``), another value in the fact's own slot: a name beside the same content word,
    a number beside the same word or counting the same thing, a year where every other word
    of the fact stands."""
    fact_stems = stems(fact)
    sentence_stems = set(stems(sentence))
    found = _number_conflict(fact, sentence, _stated_numbers(response), fact_stems,
                             sentence_stems, aligned)
    if found is not None:
        return found
    clause = aligned_clause(fact_stems, sentence)
    # the sentence carries the fact; the flip must be in the clause that states it
    share, size = _rest_share(fact_stems, set(), sentence_stems)
    if share >= CLAUSE_SHARE and size >= 3 and not _title_opening(fact, response):
        found = _negation_conflict(fact, _in_scope(clause.text, sentence, clause.start))
        # a word the fact negates that the sentence negates too: the clause read was too narrow
        # ("… and 'non-memorized' ones, which were not part of the training data")
        if found is not None and not (found.fact_value == "not" and set(
                w for w in _negated_words(fact) if w) <= set(_negated_words(sentence))):
            return found
    found = _antonym_conflict(_tokens(fact), _tokens(clause.text), fact_stems,
                              sentence_stems)
    if found is not None:
        return found
    return _name_conflict(fact, sentence, response.lower(), fact_stems, sentence_stems,
                          aligned)


CLAUSE_WORDS = 3  # a fact's clause checked on its own holds at least this many content words


def find_conflict(fact: str, index: ResponseIndex, aligned: int, response: str
                  ) -> tuple[int, Conflict] | None:
    """(sentence index, conflict) for ``fact`` against a response read as ``index``, or None.

    The aligned sentence (``aligned``, from :func:`~factgraph.stages.fact_evidence.fact_evidence`)
    is checked first. A changed name or number can move the alignment to another sentence
    (the changed word was the fact's rarest), and an answer may state a fact in one sentence
    and otherwise in another; so every other sentence holding at least
    ``OTHER_SENTENCE_SHARE`` of the fact's words is checked next, most words first — unless
    the aligned sentence holds every word of the fact and so states it. A conflict in the
    aligned sentence stands only where no other sentence holding every word of the fact
    states it as the fact does. A fact of several
    clauses whose whole shows no conflict has each clause (:data:`CLAUSE_WORDS` content words
    or more) checked against the aligned sentence for another number, a flipped negation or
    an antonym, where the clause has a verb besides the word in conflict: "The reactor had a
    positive void coefficient, which made it unstable at low power" is contradicted by "The
    reactor had a negative void coefficient", which carries too little of the whole."""
    found = _conflict_of(fact, index, aligned, response)
    if found is not None or aligned < 0:
        return found
    clauses = split_facts(fact, "clause", min_content_words=CLAUSE_WORDS)
    for clause in clauses if len(clauses) > 1 else []:
        conflict = contradiction(clause, index.sentences[aligned], response)
        # a clause with a verb of its own, besides the changed word: a name or a noun phrase
        # ("untargeted training data extraction") says too little alone
        if conflict is None or conflict.slot == "name":  # a name needs the whole fact's slot
            continue
        word = re.escape(conflict.fact_value.split()[0])
        if FINITE_VERB.search(re.sub(rf"\b{word}\b", " ", clause, flags=re.I)):
            return aligned, conflict
    return None


def _conflict_of(fact: str, index: ResponseIndex, aligned: int, response: str
                 ) -> tuple[int, Conflict] | None:
    """:func:`find_conflict` for the fact as one piece."""
    if aligned < 0:
        return None
    words = stems(fact)
    shares = [sum(w in have for w in words) / len(words) for have in index.sentence_sets] \
        if words else []
    found = contradiction(fact, index.sentences[aligned], response)
    if found is not None:
        # a sentence that holds every word of the fact and states it as the fact does: the
        # fact is stated, as where the aligned sentence holds them all (alignment breaks ties
        # by order, so the sentence that states it may come second)
        if not any(shares[k] >= 1.0 and contradiction(fact, index.sentences[k], response) is None
                   for k in range(len(shares)) if k != aligned):
            return aligned, found
        return None
    if not words:
        return None
    if shares[aligned] >= 1.0:
        return None
    for k in sorted(range(len(shares)), key=lambda k: -shares[k]):
        if k == aligned or shares[k] < OTHER_SENTENCE_SHARE:
            continue
        found = contradiction(fact, index.sentences[k], response, aligned=False)
        if found is not None:
            return k, found
    return None
