"""A fact stated otherwise: the response's aligned sentence says something else in the fact's
slot (the ``evidence`` judge's contradiction check; DESIGN.md, "A score is only as good as its
judge": a fact stated otherwise is contradicted, never covered).

The aligned sentence is the response sentence that carries most of the fact
(``factgraph.stages.fact_evidence``). The fact is **contradicted** by it when the rest of the
fact — its content words outside the slot — is in that sentence (``rest_share ≥
REST_SHARE``, at least two such words; a negation needs the sentence to hold three of the
fact's words, or both of a fact of two) and the slot differs:

* **number** — a number of the fact occurs nowhere in the response, and the sentence has
  another number of the same kind: the same word after it ("28 firefighters" / "31
  firefighters"), the same unit read by pint (metres against feet are compared after
  conversion: equal lengths are no conflict), or both are years; a changed time of day is
  slot **time** ("15:00 → 16:00");
* **date** — the fact's day and month given otherwise ("1 May 1999" / "June 1, 1999"), or
  its year in the other era ("49 BC" / "AD 49");
* **negation** — one of the two says "not" ("no", "never", "n't", "without", …) and the other
  does not (the same negators on both sides are one denial: "leaving none" / "none were
  left");
* **antonym** — the fact has a word whose opposite
  (:data:`~factgraph.stages.conflicts.antonyms.ANTONYMS` in every form: positive /
  negative, reduces / increases, largest / smallest, acquitted / convicted; any word of
  going up against any word of going down: increased / fell; an adjective with or without
  its "in" / "im" / "il" / "ir"; or the word with or without "un" / "non": stable /
  unstable) the sentence has instead; an ordinal, a direction or a season not followed by a
  content word that is no word of the fact ("was first heard" says nothing of "his last
  completed symphony");
* **comparison** — the two sides of a comparison swapped, its comparative kept ("more common
  in men than in women" / "… in women than in men");
* **name** — a name of the fact occurs nowhere in the response, and the sentence has another
  name where the fact has it: a name that is neither in the fact nor a shorter or longer form
  of one of its names ("Koirala" is "Anuradha Koirala"; "Europe's" is "Europe", "López" is
  "Lopez", a pronoun is no name);
* **swap** — two values of the fact (numbers, years or names) both in the sentence, each in
  the other's slot ("interrogates on 1030 MHz and receives on 1090 MHz" / "… on 1090 MHz …
  on 1030 MHz"; :mod:`~factgraph.stages.conflicts.swaps`).

Where the coverage judge reads the aligned sentence as stating the fact (its P at or above
the cut-off: ``judged_stated``), the judge's words, bigrams and embedding already say the
sentence is about it, so half of the fact's other words is enough
(:data:`~factgraph.stages.conflicts.base.JUDGED_STATED_SHARE`) for a value the response
never states, with another value in its slot: another number in its unit ("about 30 hours of
battery life with ANC switched on" / "about 60 hours on a charge with noise cancelling"), the
same number in another unit of a kind the fact gives no other number in ("nine hours" /
"nine days"), another name beside a slot word ("to Resolution Island" / "to Kapiti Island").
A negation or an opposite still needs its clause to carry the fact: read with half, they
alarmed on faithful answers.

A value the response states in another sentence still conflicts where the sentence aligned
to the fact puts another value in the fact's own slot ("Pietersen was sacked …", then
"Vandermeer scored 170 for Surrey"): the same content word beside the name, the same
neighbour or counted word beside the number (not a measure: "7 years" / "20 years" can be two
slots). Other sentences that hold half of the fact are checked only for values stated nowhere.

Each check says which slot and what each side holds (:class:`Conflict`), so that the verdict
can be shown with its reason. Each check is a module of :mod:`factgraph.stages.conflicts`
(``numbers``, ``negation``, ``antonyms``, ``names``, ``swaps``); this one aligns the fact to its
clause and asks them in turn. Pure functions; pint is the only dependency beyond the stdlib.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from factgraph.stages.conflicts.antonyms import antonym_conflict, comparison_conflict
from factgraph.stages.conflicts.base import (
    IRREGULAR_VERBS,
    NEGATORS,
    REST_SHARE,
    YEAR,
    Conflict,
    rest_share,
    tokens,
)
from factgraph.stages.conflicts.names import name_conflict
from factgraph.stages.conflicts.negation import (
    in_scope,
    negated_words,
    negation_conflict,
    title_opening,
)
from factgraph.stages.conflicts.numbers import (
    dates_other_word,
    number_conflict,
    other_slot_stated,
    stated_numbers,
)
from factgraph.stages.conflicts.swaps import swap_conflict
from factgraph.stages.context_facts import STOPWORDS, fold_accents, stem
from factgraph.stages.fact_evidence import ResponseIndex, stems
from factgraph.stages.quantities import MEASURE_UNITS
from factgraph.stages.text_units import FINITE_VERB, split_facts

__all__ = ["NEGATORS", "REST_SHARE", "AlignedClause", "Conflict", "aligned_clause",
           "contradiction", "find_conflict"]

CLAUSE_SHARE = 0.75  # negation and antonyms: the clause must carry the fact

OTHER_SENTENCE_SHARE = 0.5  # another sentence checked for a conflict holds this much of the fact


SHORT_ASIDE = 3  # words: an aside the clause reaches over (an age, "from Oldham")

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
    # an aside in brackets that holds the fact states it on its own: "Climate change doesn't
    # start most fires (roughly 85 percent of wildfires are ignited by people)"
    depth = [sentence[:a].count("(") - sentence[:a].count(")") for a, _ in spans]
    aside = depth[best] > 0 and len(have[best]) >= CLAUSE_WORDS

    def reach(k: int, step: int) -> tuple[int, set[str]]:
        """How far one widening step goes from piece ``k`` and the words it adds."""
        j = k + step
        if not 0 <= j < len(pieces) or (aside and depth[j] < depth[best]):
            return k, set()
        if have[j] - got:
            return j, have[j] - got
        if short[j] and 0 <= j + step < len(pieces) and have[j + step] - got and not (
                aside and depth[j + step] < depth[best]):
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
    # a negator's reach (:func:`negated_words`)
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


def contradiction(fact: str, sentence: str, response: str, aligned: bool = True,
                  judged_stated: bool = False) -> Conflict | None:
    """The conflict between ``fact`` and a response ``sentence`` (the module docstring's four
    checks, in that order), or None. ``response`` is the whole response: a number or name the
    response states elsewhere is no conflict — except another name inside the fact's own name
    ("Drew Miller" / "Drew Vandermeer"), and, where ``sentence`` is the one aligned to the fact
    (``aligned``), another value in the fact's own slot: a name beside the same content word,
    a number beside the same word or counting the same thing, a year where every other word
    of the fact stands."""
    fact_stems = stems(fact)
    sentence_stems = set(stems(sentence))
    found = number_conflict(fact, sentence, stated_numbers(response), fact_stems,
                            sentence_stems, aligned, _referred_to(fact_stems, sentence, response),
                            judged_stated=judged_stated and aligned)
    if found is not None:
        return found
    clause = aligned_clause(fact_stems, sentence)
    # the sentence carries the fact; the flip must be in the clause that states it
    # an irregular verb is its verb ("won" / "did not win", "led" / "did not lead")
    share, size = rest_share([IRREGULAR_VERBS.get(w, w) for w in fact_stems], set(),
                             {IRREGULAR_VERBS.get(w, w) for w in sentence_stems})
    carried = (share >= CLAUSE_SHARE and size >= 3) or (share == 1.0 and size == 2)
    if carried and not title_opening(fact, response):
        found = negation_conflict(fact, in_scope(clause.text, sentence, clause.start))
        # a word the fact negates that the sentence negates too: the clause read was too narrow
        # ("… and 'non-memorized' ones, which were not part of the training data")
        # ... and the other way round: a word the sentence negates inside the fact's own
        # denial ("took the photographs of Tenzing, so no photograph exists of Hillary on the
        # summit" / "so no summit photo of Hillary exists")
        if found is not None and _denial_of_another(fact, clause.text):
            found = None
        if found is not None and not (found.fact_value == "not" and set(
                w for w in negated_words(fact) if w) <= set(negated_words(sentence))) and not (
                found.response_value == "not" and _negators(sentence) == _negators(fact)
                and _denied_in(fact, [w for w in negated_words(sentence)
                                      if w not in negated_words(fact)])):
            return found
    # an alternative of at most two words after "or" belongs to the clause ("aged 41 or
    # younger": the clause is cut at "or")
    alternative = _OR_ALTERNATIVE.match(sentence, clause.start + len(clause.text))
    clause_text = clause.text + (alternative.group(0) if alternative else "")
    found = antonym_conflict(tokens(fact), tokens(clause_text), fact_stems, sentence_stems,
                             clause_text) or \
        comparison_conflict(fact, sentence, fact_stems, sentence_stems) or \
        swap_conflict(fact, sentence, fact_stems, sentence_stems)
    if found is not None:
        return found
    return name_conflict(fact, sentence, response.lower(), fact_stems, sentence_stems,
                         aligned, lowercase_words(response), judged_stated and aligned)


@lru_cache(maxsize=64)  # one response, read for each of its facts
def lowercase_words(response: str) -> frozenset[str]:
    """The words ``response`` writes in lower case somewhere (accents dropped): common words,
    no names, wherever the response capitalises them (a sentence's first word). None where the
    response is not written in cases (most sentences opening in lower case: a text lower-cased
    whole, as REALSumm's summaries are), where a name in lower case says nothing."""
    openings = re.findall(r"(?:^|[.!?]\s+)([A-Za-z])", response.strip())
    if sum(c.isupper() for c in openings) * 2 < len(openings):
        return frozenset()
    return frozenset(re.findall(r"\b[a-z]{2,}\b", fold_accents(response)))


# a word written as a name inside a sentence: capitalised after its first word, or in code
# ("VLOOKUP", "iOS")
_NAME_WORD = re.compile(r"(?<=\S\s)[A-Z][\w'’-]*|\b[A-Za-z]*[A-Z][a-z]*[A-Z][\w-]*")


def _denial_of_another(fact: str, clause: str) -> bool:
    """Whether the clause's negator stands in a part (cut at ";") that names someone or
    something the fact does not and none of the fact's names, with another part naming one of
    the fact's: the denial is of that other one ("VLOOKUP … can't return values to its left;
    XLOOKUP uses separate lookup" against "XLOOKUP … can return values from columns to the
    left")."""
    parts = clause.split(";")
    if len(parts) < 2:
        return False
    fact_words = {w.lower() for w in re.findall(r"[\w'’-]+", fact)}
    fact_names = {w.lower() for w in _NAME_WORD.findall(f" {fact}")} - STOPWORDS

    def names_in(part: str) -> set[str]:
        return {w.lower() for w in _NAME_WORD.findall(f" {part.strip()}")} - STOPWORDS

    denying = [p for p in parts if negated_words(p)]
    return len(denying) == 1 and bool(names_in(denying[0]) - fact_words) and not \
        names_in(denying[0]) & fact_names and any(names_in(p) & fact_names for p in parts
                                                  if p is not denying[0])


_DENIAL = re.compile(r"\b(?:no|not|never|none|without)\b[^.;:,()]*", re.I)


def _negators(text: str) -> int:
    """How many negators ``text`` holds ("cannot" and "n't" are "not")."""
    return sum(t in NEGATORS for t in tokens(text))


def _denied_in(fact: str, words: list[str]) -> bool:
    """Whether each of ``words`` (one at least) stands in a stretch of ``fact`` that a negator
    opens, up to the end of its clause."""
    denied = {w for m in _DENIAL.finditer(fact) for w in stems(m.group(0))}
    wanted = {stem(w) for w in words if w}
    return bool(wanted) and wanted <= denied


# a sentence that opens with a pronoun speaks of what the sentence before it named ("The Kobo
# Libra 2 has a 7-inch screen. It also comes with 16 GB of storage.")
_PRONOUN_OPENING = re.compile(r"\s*(?:it|they|he|she|its|their|his|her)\b", re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def _referred_to(fact_stems: list[str], sentence: str, response: str) -> frozenset[str]:
    """The fact's words that the sentence before ``sentence`` says, where ``sentence`` opens
    with a pronoun: what the pronoun stands for, as far as the fact's number slots need it."""
    if not _PRONOUN_OPENING.match(sentence):  # most sentences: no search of the response
        return frozenset()
    at = response.find(sentence)
    if at <= 0:
        return frozenset()
    before = _SENTENCE_END.split(response[:at].strip())[-1]
    return frozenset(stems(before)) & frozenset(fact_stems)


_OR_ALTERNATIVE = re.compile(r"\s+or\s+\w+(?:\s+\w+)?(?=\s*[,.;:!?)]|\s*$)")

CLAUSE_WORDS = 3  # a fact's clause checked on its own holds at least this many content words

# a fact whose clauses hold under a condition ("Where the rent is £50,000 or more, the cap is
# six weeks' rent"; "… happens when the branch has no new commits, so no merge commit is
# created"): a clause after it states what the fact says only in that case (one before it
# stands alone: "Metformin does not cause weight gain and rarely causes … when used alone")
_CONDITION = re.compile(r"\b(?:if|where|when|whenever|unless|provided|once)\b", re.I)


def find_conflict(fact: str, index: ResponseIndex, aligned: int, response: str,
                  judged_stated: bool = False) -> tuple[int, Conflict] | None:
    """(sentence index, conflict) for ``fact`` against a response read as ``index``, or None;
    ``judged_stated``: the coverage judge reads the aligned sentence as stating the fact (the
    module docstring).

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
    an antonym, where the clause has a verb besides the word in conflict (and, for a measured
    quantity, every other word of the clause stands in the sentence): "The reactor had a
    positive void coefficient, which made it unstable at low power" is contradicted by "The
    reactor had a negative void coefficient", which carries too little of the whole. A clause
    after a condition the fact sets (:data:`_CONDITION`: "if", "where", "when", …) is not
    read alone: it would drop the condition."""
    found = _conflict_of(fact, index, aligned, response, judged_stated)
    if found is not None or aligned < 0:
        return found
    clauses = split_facts(fact, "clause", min_content_words=CLAUSE_WORDS)
    condition = _CONDITION.search(fact)
    fact_words = set(stems(fact))
    sentence_words = set(index.sentence_stems[aligned])
    for clause in clauses if len(clauses) > 1 else []:
        at = fact.find(clause)
        if condition is not None and not (at >= 0 and at + len(clause) <= condition.start()):
            continue  # it holds only under the fact's condition: no clause to read alone
        conflict = contradiction(clause, index.sentences[aligned], response)
        # a clause with a verb of its own, besides the changed word: a name or a noun phrase
        # ("untargeted training data extraction") says too little alone
        if conflict is None or conflict.slot == "name":  # a name needs the whole fact's slot
            continue
        if conflict.response_value.split()[0].lower() in fact_words:
            continue  # the whole fact says it too ("met in May 1789, first since 1614")
        if conflict.slot == "negation" and _denial_of_another(
                fact, aligned_clause(stems(fact), index.sentences[aligned]).text):
            continue  # the sentence denies it of another one the fact does not name
        if conflict.slot == "negation" and conflict.response_value == "not" and \
                NEGATORS & set(tokens(fact)):
            # the sentence's denial may be the one the fact's other clause says ("took the
            # photographs of Tenzing, so no photograph exists of Hillary" / "so no summit
            # photo of Hillary exists")
            continue
        word = re.escape(conflict.fact_value.split()[0])
        if not FINITE_VERB.search(re.sub(rf"\b{word}\b", " ", clause, flags=re.I)):
            continue
        # a length of time or a measure in a short clause: every other word of the clause must
        # stand in the sentence ("should be returned within 10 days" / "must protect it within
        # 30 days" is another duty; a year or a date names its event: "founded … in 1988" /
        # "setting up … in 1989")
        unit = conflict.fact_value.split()[-1]
        if conflict.slot == "number" and unit in MEASURE_UNITS:
            share, _ = rest_share(stems(clause), set(stems(conflict.fact_value)),
                                  sentence_words)
            if share < 1.0:
                continue
        # the sentence states another value of the fact in the clause's unit: its other
        # values in that unit are of the fact's other slots ("On a £5,000 claim with a total
        # excess of £250, the insurer would pay £4,750" / "a £150 broken window with a £250
        # excess")
        # ... and a year of the sentence that dates another word of the whole fact ("Halley
        # died in 1742, before the comet's predicted return" / "predicted its return for 1758")
        elif conflict.slot == "number" and (
                other_slot_stated(fact, clause, index.sentences[aligned])
                or (YEAR.match(conflict.fact_value) and YEAR.match(conflict.response_value)
                    and dates_other_word(conflict.fact_value, fact, conflict.response_value,
                                         index.sentences[aligned], fact_words,
                                         sentence_words))):
            continue
        return aligned, conflict
    return None


def _conflict_of(fact: str, index: ResponseIndex, aligned: int, response: str,
                 judged_stated: bool = False) -> tuple[int, Conflict] | None:
    """:func:`find_conflict` for the fact as one piece."""
    if aligned < 0:
        return None
    words = stems(fact)
    shares = [sum(w in have for w in words) / len(words) for have in index.sentence_sets] \
        if words else []
    found = contradiction(fact, index.sentences[aligned], response, judged_stated=judged_stated)
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
