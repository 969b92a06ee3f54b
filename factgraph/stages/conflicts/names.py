"""The name check: a name of the fact that the sentence does not state, where another name stands
in its place (beside the same word, or inside the fact's own name: "Drew Miller" / "Drew
Vandermeer"). The same name in other forms is no conflict: a shorter or longer name
("Koirala" / "Anuradha Koirala"), a possessive, an accent, a plural, an acronym ("MP",
"LLMs"), a spelling variant, a place and its people ("Brazil" / "Brazilian"), a pronoun."""

from __future__ import annotations

import re
from functools import lru_cache

from factgraph.stages.conflicts.antonyms import NAMED_SETS, WEEKDAYS
from factgraph.stages.conflicts.base import (
    FUNCTION_WORDS,
    JUDGED_STATED_SHARE,
    PREPOSITIONS,
    QUOTED,
    REST_SHARE,
    SLOT_REST_SHARE,
    Conflict,
    rest_share,
    tokens,
)
from factgraph.stages.context_facts import (
    STOPWORDS,
    content_words,
    fold_accents,
    stem,
)
from factgraph.stages.date_forms import MONTH_NAMES
from factgraph.stages.fact_evidence import TITLES, names
from factgraph.stages.place_names import same_place_name
from factgraph.stages.quantities import MEASURE_UNITS

# the members of the closed sets, as the name check reads them ("wednesday", "mondays")
CLOSED_SET_WORDS = frozenset({form for members in NAMED_SETS.values() for m in members
                              for form in (m, m + "s")})


_MONTHS = frozenset(m.lower() for m in MONTH_NAMES)


def _calendar_kind(word: str) -> str | None:
    """"month" or "weekday" for a month's or a day's name (or its plural; a name is written
    capitalised, so "March" and "May" are months here), else None: a date is swapped for
    another date, not for a name."""
    base = word.removesuffix("s")
    return "month" if base in _MONTHS else "weekday" if base in WEEKDAYS else None


def _initials(text: str, whole_runs: bool = True) -> set[str]:
    """Acronyms the fact's runs of capitalised words make ("Natural Language Processing" ->
    "nlp"): a shorter name of the same thing. A run may end at a full stop or a comma ("the
    United Kingdom." gives "uk") and hold an initial ("John F. Kennedy" gives "jfk");
    ``whole_runs=False`` reads only the words before such a mark, a run's inner stretch (what
    :func:`_longer_acronym` reads: "European Space Agency," then gives no "sa" that "NASA"
    would hold)."""
    end = r"(?:\s+|$|(?=[^\w\s]))" if whole_runs else r"(?:\s+|$)"
    dot = r"\.?" if whole_runs else ""
    out: set[str] = set()
    for run in re.findall(rf"(?:\b[A-Z][a-zA-Z]*{dot}{end}){{2,}}", text):
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


def _neighbours(toks: list[str], word: str) -> set[tuple[int, str]]:
    return {(d, toks[i + d]) for i, t in enumerate(toks) if t == word
            for d in (-1, 1) if 0 <= i + d < len(toks)}


def _one_edit(a: str, b: str) -> bool:
    """Whether one letter changed, added or dropped turns ``a`` into ``b``."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) <= 1
    short, long_ = sorted((a, b), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def _spelling_variant(a: str, b: str) -> bool:
    """Two spellings of one name (a typo, a transliteration): the same first three letters,
    one letter changed, added or dropped ("Kin" / "Kim"), or a close match."""
    from difflib import SequenceMatcher

    return a[:3] == b[:3] or (min(len(a), len(b)) >= 3 and _one_edit(a, b)) or \
        SequenceMatcher(None, a, b).ratio() >= 0.7


def _short_form(a: str, b: str) -> bool:
    """Whether one of two names is the other abbreviated (:func:`_abbreviates`: "Utd" /
    "United"), a given name's short form (:data:`_NICKNAMES`: "Bill" / "William") or a
    place's former name ("Bombay" / "Mumbai": :mod:`factgraph.stages.place_names`)."""
    return _abbreviates(a, b) or _abbreviates(b, a) or any(
        a in g and b in g for g in _NICKNAMES) or (a != b and same_place_name(a, b))


def _abbreviates(short: str, long_: str) -> bool:
    """Whether ``short`` is written from ``long_``'s letters in their order, its first letter
    first and some letters inside left out, as an abbreviation is ("utd" / "united", "intl" /
    "international", "govt" / "government"): three letters or more, two fewer than the word
    at least. A word's opening alone is a name as often ("Chris" / "Christie", "Europe" /
    "European")."""
    if len(short) < 3 or len(long_) < len(short) + 2 or short[0] != long_[0] \
            or long_.startswith(short):
        return False
    rest = iter(long_[1:])
    return all(c in rest for c in short[1:])


# English given names and their short forms that share no first three letters with them: one
# person, two names ("Bill Gates" / "William Gates"; "Bill Gates" / "Melinda Gates" is two)
_NICKNAMES: tuple[frozenset[str], ...] = tuple(frozenset(g.split()) for g in (
    "william bill billy will willy", "robert bob bobby rob robbie bert",
    "richard dick rick ricky rich", "james jim jimmy jamie", "michael mike mick mickey",
    "thomas tom tommy", "joseph joe joey", "elizabeth liz lizzie beth betty bess eliza",
    "margaret peggy maggie meg", "henry harry hank hal", "charles chuck charlie chas",
    "edward ted teddy ed eddie ned", "john jack johnny jon", "anthony tony",
    "katherine catherine kate kathy katie cathy", "susan sue susie", "lawrence larry",
    "gerald jerry", "jerome jerry", "donald don", "ronald ron", "frederick fred freddie",
    "gregory greg", "peter pete", "philip phil", "raymond ray", "walter walt",
    "theodore ted teddy theo", "nicholas nick", "patricia patty pat trish",
    "patrick pat paddy", "mary molly polly", "sarah sally", "dorothy dot dottie",
    "alexander alex sandy", "christopher chris kit", "matthew matt", "andrew andy drew",
    "stephen steve", "steven steve", "daniel dan danny", "david dave davy",
))


# a pronoun stands for a name, it does not replace it ("She noticed a stain")
_PRONOUNS = frozenset({"he", "she", "it", "we", "i", "you", "they", "this", "these", "those",
                       "there", "his", "her", "hers", "its", "our", "their", "my", "your"})


# a temperature's scale is written capitalised but names no one: the number check reads it as
# the number's unit ("100 degrees Celsius" / "212 degrees Fahrenheit" is one temperature)
_SCALES = frozenset({"celsius", "fahrenheit", "centigrade", "kelvin"})
# an era is written in capitals but names no one either ("AD" / "CE" is one era)
_ERAS = frozenset({"ad", "ce", "bc", "bce"})
_UNIT_AFTER_NUMBER = re.compile(r"\d\s?([A-Za-z]+)\b")


def _names(text: str, first: bool = False) -> list[str]:
    """:func:`~factgraph.stages.fact_evidence.names` without a possessive ("Europe's" is
    Europe), and a capitalised first word that is not a common word where it opens a run of
    capitalised words ("Andy Murray won": a first name) or, with ``first``, alone ("Jones
    scored 170": a swapped name often opens the sentence; a fact's "Locals say" is no name)."""
    # a unit written in capitals after its number ("2 TB", "3.2 GHz") is the number's unit
    units = {m.group(1).lower() for m in _UNIT_AFTER_NUMBER.finditer(text)} & MEASURE_UNITS.keys()
    out = [n.removesuffix("'s").removesuffix("’s") for n in names(text)
           if n.lower() not in _SCALES | _ERAS | units]
    opening = re.match(r"\s*([A-Z][a-z]{1,})\b(\s+[A-Z][a-z])?", text)
    if opening and (first or opening.group(2)) and opening.group(1).lower() not in STOPWORDS \
            and opening.group(1).lower() not in FUNCTION_WORDS | _PRONOUNS | TITLES:
        out.append(opening.group(1).lower())
    # an acronym or a word with a capital inside ("BERT", "SGD", "RoBERTa") is a name
    # wherever it stands, the first word too: no common word is written so
    written_as_name = _OPENING_ACRONYM.match(text)
    if written_as_name:
        word = (written_as_name.group(1) or written_as_name.group(2)).lower()
        if word not in STOPWORDS and word not in FUNCTION_WORDS | _PRONOUNS | TITLES:
            out.append(word)
    # a product's or a model's name: a small letter before a capital ("iPhone", "eBay") or a
    # capitalised word with its number ("Graviton2", "A380"), anywhere in the sentence
    out.extend(m.group(0).lower() for m in _PRODUCT_NAME.finditer(fold_accents(text)))
    return list(dict.fromkeys(out))


# a word with a capital inside ("RoBERTa", "iPhone", "McVie"): no common word is written so
_INNER_CAPITAL = r"[A-Za-z]*[a-z][A-Z][A-Za-z]*"
# a name written as code: capitals in a row, or a capital inside
_CODED_NAME = re.compile(rf"\b(?:[A-Z]{{2,}}[A-Za-z]*|{_INNER_CAPITAL})\b")
# the case-marked parts of a name written as code: "RoBERTa" is "Ro", "BER", "Ta";
# "LetwinPC" is "Letwin", "PC"
_CAMEL_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

_PRODUCT_NAME = re.compile(r"\b[a-z]+[A-Z][A-Za-z]*\b|\b[A-Z][A-Za-z]*\d+[A-Za-z]*\b")


# "LLMs" is the name "LLM"; "US" opening a sentence is a name too
_OPENING_ACRONYM = re.compile(rf"\s*(?:([A-Z]{{2,}})s?|({_INNER_CAPITAL}))\b(?![-\d])")


_ARTICLES = frozenset({"the", "a", "an"})
# words that pick out how many or which, capitalised only to open a sentence: never a name
# ("Some elms are faring better")
_DETERMINERS = frozenset({"some", "many", "most", "few", "several", "each", "every", "both",
                          "other", "such", "much", "these", "those", "all", "any", "no"})
# one country by its other common names, each a word ("the UK" / "Britain")
_ONE_COUNTRY = (frozenset({"uk", "britain"}), frozenset({"us", "usa", "america"}),
                frozenset({"netherlands", "holland"}))
_DEMONYM = re.compile(r"(?:ian|ish|ese|ean|ench|utch|ican|ccan)$")
_DEMONYMS = frozenset({"greek", "thai", "swiss", "arab", "czech", "iraqi", "israeli",
                       "pakistani", "bangladeshi", "kuwaiti", "saudi", "yemeni", "omani",
                       "nepali", "somali", "roman", "german", "cuban", "tibetan", "kenyan",
                       "ugandan", "rwandan", "afghan", "welsh", "scots", "maori"})


def _demonym_like(word: str) -> bool:
    """Whether a lower-cased name reads as a people's word ("italian", "british", "french",
    "chinese", "greek"): it names who, not which one."""
    return word in _DEMONYMS or _DEMONYM.search(word) is not None


# capitalised words with "of" / "for" / "and" / "the" between: one name
_TITLED_RUN = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:(?:of|for|and|the)\s+)*[A-Z][a-z]+)+")


def _initials_of(run: str) -> str:
    """The lower-cased initials of a name's capitalised words ("International Chamber of
    Commerce" -> "icc")."""
    return "".join(w[0] for w in run.split() if w[0].isupper()).lower()


# a mark no neighbour reaches across (a full stop inside a sentence is an abbreviation's)
_MARK = re.compile(r"[,;:!?()\[\]|—–\"“”]")


def _slot_tokens(text: str, articles: bool = False) -> list[str]:
    """``text``'s tokens as a name's neighbours are read: without a possessive's "s" or (but
    with ``articles``) an article, and a "|" for each mark, across which no word stands beside
    another."""
    out: list[str] = []
    for piece in _MARK.split(text):
        out.extend(t for t in tokens(piece) if t != "s" and (articles or t not in _ARTICLES))
        out.append("|")
    return out


def _common_before(word: str, name: str, text: str) -> bool:
    """Whether ``text`` writes ``word`` in lower case, not beside ``name``, before its first
    ``name`` ("The lake freezes …, while Lake Tanganyika"; not "her niece Zala")."""
    other = re.search(rf"\b{re.escape(name)}\b", text, re.I)
    if other is None:
        return False
    beside = re.compile(rf"\W*{re.escape(name)}\b", re.I)
    return any(m.start() < other.start() and not beside.match(text, m.end())
               for m in re.finditer(rf"\b{re.escape(word)}\b", text))


def _capitalised(word: str, text: str) -> bool:
    """Whether ``text`` writes ``word`` (lower case) with a capital somewhere ("Coast",
    "macOS")."""
    return any(m.group(0) != word for m in re.finditer(rf"\b{re.escape(word)}\b", text, re.I))


def _written_next(text: str, name: str, word: str, side: int, possessive: bool = False
                  ) -> bool:
    """Whether ``word`` stands right after (``side`` 1) or before (-1) ``name`` in ``text``
    (lower-cased), with no mark between, nor a possessive's "'s" unless ``possessive`` (the
    fact writes it so: "Ethiopia's Tesfaye Abera"): one name of two words ("Washington's
    Cascade Range" is no "Washington Cascade")."""
    a, b = (name, word) if side > 0 else (word, name)
    mark = "(?:['’]s)?" if possessive else ""
    # an abbreviation's full stop is no mark ("Dr. Smith")
    return re.search(rf"\b{re.escape(a)}\.?{mark}\s+{re.escape(b)}\b", text) is not None


def name_conflict(fact: str, sentence: str, response_lower: str, fact_stems: list[str],
                  sentence_stems: set[str], aligned: bool = True,
                  common_words: frozenset[str] = frozenset(), judged_stated: bool = False
                  ) -> Conflict | None:
    """Another name where the fact has one. A name of the fact that the whole response never
    states is swapped when another name stands beside a word that stands beside it in the
    fact. A name the response states elsewhere but not in this sentence needs more: the other
    name stands in the fact's own name ("Drew Miller" / "Drew Vandermeer": a capitalised
    word of the fact beside both) — then one word of the rest may be paraphrased — or, in the
    sentence aligned to the fact, beside the same content word that is no part of a name
    ("Smith scored 170" / "Jones scored 170" is; "a shelter in Kathmandu" / "a shelter in
    Nepal" is not: "in" says no slot). An article is a slot only where every other word of the
    fact stands ("the Joseon dynasty" / "the Hunminjeongeum" is none); a word the response
    writes in lower case (``common_words``) is no name where a longer name holds it or where
    it opens the sentence ("Construction of the Golden Gate Bridge began" / "Work began": the
    response speaks of "the bridge"). Where the coverage judge reads the sentence as
    stating the fact (``judged_stated``), half of the rest of the fact is enough beside a
    name the response never states ("organised the Concurso de Cante Jondo in Granada to
    preserve traditional deep song" / "organise the Concurso … in Seville to save the old
    styles")."""
    fact, sentence = fold_accents(fact), fold_accents(sentence)
    # names written as code ("BERT", "RoBERTa", "XLE"): one inside the other's letters, or
    # close in spelling, is another name ("BERT" / "RoBERTa", "LE" / "XLE"), not a longer or
    # misspelt form of it
    coded = {w.lower(): {part.lower() for part in _CAMEL_PART.findall(w)}
             for w in _CODED_NAME.findall(f"{fact} {sentence}")}

    def other_code(a: str, b: str) -> bool:
        """Both written as code and neither a case-marked part of the other ("LetwinPC" holds
        "PC" as a part: one name glued to the next)."""
        return a in coded and b in coded and a not in coded[b] and b not in coded[a]

    def short_form(a: str, b: str) -> bool:
        """One name abbreviated or in its short form; not a name written as code ("AGN" is
        initials, not "Agmatine" with letters left out)."""
        return a not in coded and b not in coded and _short_form(a, b)

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
                same_place(n, w) for w in re.findall(r"[a-z]{4,}", text))) or any(
            n in names and any(re.search(rf"\b{x}\b", text) for x in names)
            for names in _ONE_COUNTRY)  # "the UK" / "Britain"

    sentence_lower = sentence.lower()
    sentence_names = _names(sentence, first=True)
    # a name the sentence spells one letter otherwise ("UNCEF" / "UNICEF"), abbreviates
    # ("Man Utd" / "Manchester United") or gives in its short form ("Bill" / "William") is
    # stated
    # a name the fact spells out before its initials, which the sentence gives ("Statutory
    # Maternity Pay (SMP)" / "SMP runs for up to 39 weeks")
    by_initials = {w.lower() for m in _NAME_RUN.finditer(fact) for w in m.group(0).split()
                   if _defined_initials(m, fact, sentence)}
    # the head of a name "of" another name the sentence states: "the Kingdom of Hungary" is
    # stated by "Upper Hungary"
    by_head = {m.group(1).lower() for m in re.finditer(
        r"\b([A-Z]\w+)\s+of\s+(?:the\s+)?([A-Z]\w+)", fact)
        if stated(m.group(2).lower(), sentence_lower)}
    # a title's other title after "or" ("Frankenstein; or, The Modern Prometheus") is stated
    # by its first
    by_title = {w.lower() for m in _SUBTITLE.finditer(fact) if stated(m.group(1).lower(),
                                                                    sentence_lower)
                for w in m.group(2).split()}
    # a name of several words the response gives by its initials ("International Chamber of
    # Commerce" / "the ICC's current edition")
    # (where the sentence spells no word of it out: "Vandermeer Neural Network Grammars
    # (RNNGs)" is another name)
    by_acronym = {w.lower() for m in _TITLED_RUN.finditer(fact) for w in m.group(0).split()
                  if re.search(rf"\b{_initials_of(m.group(0))}s?\b", response_lower)
                  and not any(re.search(rf"\b{re.escape(x.lower())}\b", sentence_lower)
                              for x in m.group(0).split() if x[0].isupper())}
    here = [n for n in fact_names if not stated(n, sentence_lower) and n not in by_initials
            and n not in by_acronym
            and n not in by_head and n not in by_title
            and not any((min(len(n), len(m)) >= 4 and _one_edit(n, m)) or short_form(m, n)
                        for m in sentence_names)]
    if not here:
        return None
    short, inner = _initials(fact), _initials(fact, whole_runs=False)
    # the sentence's first word is capitalised whatever it is: a word the response writes
    # in lower case there is no name ("Work began on 5 January 1933")
    first = re.match(r"\W*(\w+)", sentence)
    opening = first.group(1).lower() if first else ""
    others = [m for m in sentence_names if m not in fact_names and m not in short
              and m not in _DETERMINERS
              and not (m == opening and m in common_words)
              and m not in STOPWORDS and not any(((m in f or f in m) and not other_code(m, f))
                                                 or short_form(m, f) for f in fact_names
                                                 if f not in _ARTICLES)  # "An Essay" / "Vandermeer"
              and not _longer_acronym(m, inner, sentence)]
    # another name of the same one: a birth or former name ("Born Augusta Ada Byron, she …"),
    # or a peer's title where the fact names the person ("Lady Byron" / "Annabella Milbanke");
    # or a name of another case (:data:`_ALTERNATIVE`)
    aliases = _aliases(sentence, fact)
    others = [m for m in others if m not in aliases]
    if not others:
        return None
    # a number of the fact missing where the sentence gives another: the sentence speaks of
    # another one ("A British fleet of 27 ships … a combined fleet of 33" / "Combined fleet:
    # 33 ships of the line, 18 French and 15 Spanish")
    fact_numbers, sentence_numbers = ({t.replace(",", "") for t in tokens(x) if t[:1].isdigit()}
                                      for x in (fact, sentence))
    if fact_numbers - sentence_numbers and sentence_numbers - fact_numbers:
        return None
    nowhere = [n for n in here if not stated(n, response_lower)]
    # a possessive's "s" is no neighbour ("Europe's search" / "Vandermeer's search")
    fact_tokens, sentence_tokens = ([t for t in tokens(x) if t != "s"] for x in (fact, sentence))
    # what stands beside a name: no article, and nothing across a mark ("In France, Diderot")
    fact_slots, sentence_slots = _slot_tokens(fact), _slot_tokens(sentence)
    fact_lower = fact.lower()
    # an article before both names is a weak slot: every other word of the fact must stand
    # ("the national museum of the Netherlands" / "the Belgian national museum"; not "of the
    # Joseon dynasty" / "in the Hunminjeongeum")
    fact_articled, sentence_articled = (_slot_tokens(x, articles=True) for x in (fact, sentence))
    fact_capitals = {w.lower() for w in re.findall(r"\b[A-Z][a-z]+", fact)} - STOPWORDS
    # ... past the fact's first word, which any word opening it would be
    inner_capitals = {w.lower() for w in re.findall(r"(?<=\S)\s+([A-Z][a-z]+)", fact)}
    # a word of a quoted title ("Saturday Night Live") is no one's name
    titled = {w.lower() for q in QUOTED.findall(fact) + QUOTED.findall(sentence)
              for w in re.findall(r"\w+", q)}
    fact_runs, sentence_runs = _name_runs(fact), _name_runs(sentence)
    # the capitalised words the fact opens with, unless it opens with an article ("The
    # Keating government" names Keating)
    fact_opening = re.match(r"\W*((?:[A-Z]\w*\s*)*)", fact)
    opening_run = set() if fact_opening is None or fact_opening.group(1).split()[:1] in (
        ["The"], ["A"], ["An"]) else {w.lower() for w in fact_opening.group(1).split()}
    for n in here:  # the other name stands where the fact's name stands
        run = next((r for r in fact_runs if n in r), [])
        if n in common_words and len(run) > 1:
            continue  # "Bridge" of "Golden Gate Bridge", where the response says "the bridge"
        around = {(d, w) for d, w in _neighbours(fact_slots, n) if w.isalpha()}
        # the fact's neighbours it writes with a possessive between ("Ethiopia's Tesfaye")
        possessive = {(d, w) for d, w in around if not _written_next(fact_lower, n, w, d)
                      and _written_next(fact_lower, n, w, d, possessive=True)}
        # the other name inside the fact's own: "Drew Miller" / "Drew Vandermeer"; after it
        # ("Glen Higgs" / "Vandermeer Higgs": a relative shares a surname) only where the
        # response never names the fact's one
        drop = {stem(w) for w in content_words(n)}  # the slot, not every name
        share, size = rest_share(fact_stems, drop, sentence_stems)
        # ... or where the judge reads the sentence as stating the fact and every other word
        # of it stands ("married the physicist Pierre Curie in 1895" / "met Vandermeer Curie,
        # whom she married in 1895")
        in_name = {(d, w) for d, w in around if w in fact_capitals
                   and (d < 0 or n in nowhere or (judged_stated and share == 1.0))}
        # a name changed whole ("Jane Austen" / "Charlotte Bronte") leaves the rest of the
        # fact without its other words: the slot is the whole name where another name of
        # two words or more, none of the fact's, stands in the sentence
        whole = rest_share(fact_stems, {stem(w) for w in run}, sentence_stems) \
            if run and not any(stated(w, sentence_lower) for w in run) and not re.search(
                rf"\b{re.escape(''.join(w[0] for w in run).upper())}\b", sentence) else None
        # a fact of two content words: both there; not a weekday or a month, which can date
        # another event of the sentence ("The performance was on Wednesday" / "injured on
        # Thursday night … during a performance")
        if size < 2 and not (size == 1 and share == 1.0 and n not in CLOSED_SET_WORDS):
            continue
        # the same place stands for a neighbour where the response never names the fact's
        # person ("Pietersen was sacked" elsewhere keeps "Kevin Pietersen" stated)
        unnamed = not any(stated(w, response_lower) for w in run)
        lower_run = sum(bool(re.search(rf"\b{re.escape(w)}\b", sentence_lower))
                        for w in run if w != n) >= 2
        for m in others:
            if (_spelling_variant(n, m) and not other_code(n, m)) or short_form(n, m):
                continue  # "Shepard" / "Shepherd", "Bill" / "William"
            if _calendar_kind(n) not in (None, _calendar_kind(m)):
                continue  # a month's rival is a month ("January 1" / "New Year's Day")
            rest = share
            # the other name whole: its run, or the name alone opening the sentence ("Kevin
            # Pietersen was sacked" / "Vandermeer was sacked"; not "…, London, ran across":
            # a comma between)
            other_run = next((r for r in sentence_runs if m in r), [m] if re.match(
                rf"\s*{re.escape(m)}\b", sentence, re.I) else None)
            swapped_whole = whole is not None and (whole[1] >= 2 or whole == (1.0, 1)) and \
                other_run is not None and \
                _same_context(fact_tokens, run, sentence_tokens, other_run)
            if swapped_whole and whole is not None:
                rest = max(share, whole[0])
            # a capitalised word of the fact beside the other name only as written there,
            # no mark or possessive between ("Sea of Galilee, Manet's" is no "Galilee Manet",
            # "Washington's Cascade" no "Washington Cascade")
            # ... in a text written in cases, capitalised there too: part of the other name
            # ("on the Dorset coast" names no "Dorset Coast" against "the Jurassic Coast")
            # (a longer name written in lower case keeps two words of it or more: "Vandermeer
            # neural network grammars (RNNGs)")
            shared = {(d, w) for d, w in around & _neighbours(sentence_slots, m)
                      if w not in fact_capitals or (_written_next(
                          sentence_lower, m, w, d, possessive=(d, w) in possessive) and (
                          not common_words or w not in inner_capitals or lower_run
                          or _capitalised(w, sentence)))}
            named = in_name & shared
            # not where the response (written in cases) names the fact's one elsewhere and
            # this sentence speaks of it first by that word as a common noun ("The lake
            # freezes …, while Lake Tanganyika …": another lake beside it; "Lake Tanganyika
            # is the deepest lake" still names another)
            if n not in nowhere and common_words and any(
                    w in common_words and _common_before(w, m, sentence) for _, w in named):
                named = set()
            if named and share >= SLOT_REST_SHARE and not {n, m} & titled:
                return Conflict("name", n, m)
            # half the rest, where the judge reads the sentence as stating the fact, with a
            # slot word in common or both neighbours ("to Resolution Island" / "to Kapiti
            # Island"; "in Granada to" / "in Seville to"; not "of Commerce" / "of FOB")
            # ... a name the fact does not open with (a headline's capitals: "Governing Body
            # asked" / "ICC asked"), a rival that is no preposition ("Labour leader Amid
            # great fanfare")
            # ... and a people's word of the fact against no people's word ("the Irish
            # scientist" / "a Dublin scientist")
            # ... or the whole name swapped for another in the same two-word context, the
            # fact's name stated nowhere ("Manchester United won the first Premier League
            # title" / "Blackburn Rovers won the inaugural title")
            need = JUDGED_STATED_SHARE if judged_stated and n in nowhere and (
                n not in opening_run or (swapped_whole and unnamed)) and \
                _demonym_like(n) == _demonym_like(m) and \
                m not in PREPOSITIONS and (len({d for d, _ in shared}) == 2 or any(
                    w not in FUNCTION_WORDS and w not in STOPWORDS and w not in PREPOSITIONS
                    for _, w in shared)) else REST_SHARE
            if not shared and n in nowhere and rest == 1.0 and any(
                    w in _ARTICLES for _, w in _neighbours(fact_articled, n)
                    & _neighbours(sentence_articled, m)):
                return Conflict("name", n, m)
            if not (shared or (swapped_whole and unnamed)) or rest < need:
                continue
            if _demonym_like(m) and not _demonym_like(n) and not any(
                    m in r and len(r) > 1 for r in sentence_runs) and any(
                    n in r and len(r) > 1 for r in fact_runs):
                # a people's word where the fact names a person may be true of them (not of
                # another place: "Europe's" / "American") ("translated Luigi Menabrea's
                # article" / "an Italian engineer's paper";
                # "Jonathan Haagensen is an actor" / "a Brazilian actor"); inside a longer name
                # it names one ("the European Space Agency" / "NASA")
                continue
            if _demonym_like(n) and not _demonym_like(m) and re.search(
                    rf"\b{re.escape(m)}['’]s\b", sentence_lower):
                continue  # a people's word against someone's own ("the Spanish fleet" /
                # "Nelson's fleet"): whose, not which people's
            if n in nowhere or (aligned and any(
                    w not in STOPWORDS and w not in FUNCTION_WORDS and w not in fact_capitals
                    and w.isalpha() and len(w) >= 3 for _, w in shared)):
                return Conflict("name", n, m)
    return None


# a title and its other title after "or" ("Frankenstein; or, The Modern Prometheus",
# "Twelfth Night, or What You Will")
_SUBTITLE = re.compile(r"\b([A-Z][\w'’-]*)\s*[;,]\s*or,?\s+((?:[A-Z][\w'’-]*\s*)+)")


# a name given as another name of the one the sentence speaks of (not "Spanish-born Pope X")
_ALIAS = re.compile(r"(?<![\w-])(?i:born|n[ée]e|formerly|originally|maiden\s+name|real\s+name|"
                    r"birth\s+name|known\s+as|nicknamed|also\s+called|a\.?k\.?a\.?)\s+"
                    r"((?:[A-Z][\w'’-]*\s*)+)")
# an alternative in brackets is another case ("source .venv/bin/activate (or
# .venv\Scripts\activate on Windows)" names no rival of the fact's "Linux")
_ALTERNATIVE = re.compile(r"\(\s*or\b([^()]*)\)")
# a peer's title: the name after it is the title's, not the person's own ("Lord Kelvin" is
# William Thomson)
_PEERAGE = re.compile(r"\b(?:Lord|Lady|Baron|Baroness|Count|Countess|Duke|Duchess|Earl|Viscount|"
                      r"Viscountess|Marquess|Marquis|Marchioness)\s+((?:[A-Z][\w'’-]*\s*)+)")


def _aliases(sentence: str, fact: str) -> set[str]:
    """The lower-case words of the names ``sentence`` gives as another name of whom it speaks
    (:data:`_ALIAS`), of a peer's title where ``fact`` gives no such title
    (:data:`_PEERAGE`), and of a bracketed alternative (:data:`_ALTERNATIVE`)."""
    runs = [m.group(1) for m in _ALIAS.finditer(sentence)]
    if not _PEERAGE.search(fact):
        runs += [m.group(1) for m in _PEERAGE.finditer(sentence)]
    return {w.lower().removesuffix("'s").removesuffix("’s") for run in runs for w in run.split()
            } | {w.lower() for alt in _ALTERNATIVE.findall(sentence)
                 for w in re.findall(r"\w+", alt)}


# a run of capitalised words, with the particles of a name inside it ("Guido van Rossum")
_NAME_RUN = re.compile(r"\b[A-Z][\w'’-]*(?:\s+(?:(?:van|von|de|der|del|da|di|du|la|le|bin|al)\s+)*"
                       r"[A-Z][\w'’-]*)+")


def _defined_initials(run: re.Match[str], fact: str, sentence: str) -> bool:
    """Whether ``run`` (a name of ``fact``) is followed by its initials in brackets that
    ``sentence`` uses ("Statutory Maternity Pay (SMP)")."""
    initials = "".join(w[0] for w in run.group(0).split()).upper()
    return len(initials) >= 2 and fact[run.end():].lstrip().startswith(f"({initials})") and \
        re.search(rf"\b{initials}s?\b", sentence) is not None


def _name_runs(fact: str) -> list[list[str]]:
    """The fact's names of two or more words, each as its lower-case words."""
    return [content_words(run.lower()) for run in _NAME_RUN.findall(fact)]


def _context(toks: list[str], run: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The two words before the name ``run`` in ``toks`` and the two after it."""
    if run[0] not in toks:
        return (), ()
    i = toks.index(run[0])
    j = next((k for k in range(i, len(toks)) if toks[k] == run[-1]), i)
    # a relative pronoun after the name makes it the subject of what follows ("Christine
    # McVie, who had broken up" is "Christine McVie had broken up")
    after = j + 2 if toks[j + 1: j + 2] == ["who"] else j + 1
    return tuple(toks[max(0, i - 2): i]), tuple(toks[after: after + 2])


def _same_context(fact_tokens: list[str], run: list[str], sentence_tokens: list[str],
                  other: list[str]) -> bool:
    """Whether the two names stand in one place: the same two words before them or after
    them, one a content word ("written by | Jane Austen" / "written by | Charlotte Bronte";
    not "in the | Atlantic Division" / "against the | Ottawa Senators")."""
    before, after = _context(fact_tokens, run)
    before_s, after_s = _context(sentence_tokens, other)
    return any(len(a) == 2 and a == b and any(
        w not in FUNCTION_WORDS and w not in STOPWORDS and w.isalpha() for w in a)
        for a, b in ((before, before_s), (after, after_s)))


_DEMONYM_ENDINGS = ("ians", "ian", "ans", "an", "ese", "ish", "i")

_PLACE_ENDINGS = ("ium", "ia", "y", "a", "")


# places whose people or language are not the place less an ending ("netherlands" / "dutch")
_IRREGULAR_DEMONYMS: dict[str, frozenset[str]] = {
    "dutch": frozenset({"netherlands", "holland"}),
    "british": frozenset({"britain", "uk"}), "english": frozenset({"england"}),
    "welsh": frozenset({"wales"}), "scottish": frozenset({"scotland"}),
    "scots": frozenset({"scotland"}), "irish": frozenset({"ireland"}),
    "french": frozenset({"france"}), "spanish": frozenset({"spain"}),
    "swiss": frozenset({"switzerland"}), "danish": frozenset({"denmark"}),
    "swedish": frozenset({"sweden"}), "finnish": frozenset({"finland"}),
    "polish": frozenset({"poland"}), "turkish": frozenset({"turkey"}),
    "greek": frozenset({"greece"}), "portuguese": frozenset({"portugal"}),
    "icelandic": frozenset({"iceland"}), "thai": frozenset({"thailand"}),
    "filipino": frozenset({"philippines"}), "norwegian": frozenset({"norway"}),
    "cypriot": frozenset({"cyprus"}), "malagasy": frozenset({"madagascar"}),
    "argentine": frozenset({"argentina"}), "peruvian": frozenset({"peru"}),
    "czech": frozenset({"czechia"}), "slovak": frozenset({"slovakia"}),
    "croatian": frozenset({"croatia"}), "serbian": frozenset({"serbia"}),
    "monegasque": frozenset({"monaco"}),
}


def same_place(a: str, b: str) -> bool:
    """Whether two lower-case words name one place as the place and its people or language
    ("brazil" / "brazilian", "belgium" / "belgian", "germany" / "german", "japan" /
    "japanese"): one less a demonym ending is the other less a place ending, 4+ letters left
    ("paul" / "paula" is no pair; "austria" / "australia" neither), or a pair of
    :data:`_IRREGULAR_DEMONYMS` ("netherlands" / "dutch", "wales" / "welsh")."""
    def roots(w: str, endings: tuple[str, ...]) -> set[str]:
        return {w[: len(w) - len(e)] for e in endings
                if w.endswith(e) and len(w) - len(e) >= 4}

    if a == b or a in _IRREGULAR_DEMONYMS.get(b, ()) or b in _IRREGULAR_DEMONYMS.get(a, ()):
        return True
    return bool(roots(a, _DEMONYM_ENDINGS) & roots(b, _PLACE_ENDINGS)
                or roots(b, _DEMONYM_ENDINGS) & roots(a, _PLACE_ENDINGS))


@lru_cache(maxsize=32)
def _spelled_out_initials(response_lower: str) -> frozenset[str]:
    """The acronyms a response spells out ("Member of Parliament" -> "mp", "National
    Aeronautics and Space Administration" -> "nasa": the small words of a name make no
    letter); once per response."""
    return frozenset(_initials(_SMALL_WORDS.sub(" ", response_lower.title())))


_SMALL_WORDS = re.compile(r" (?:Of|And|The|For|&) ")
