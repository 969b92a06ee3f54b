"""Words that say the opposite of each other, or another member of a closed set (weekdays,
months, directions, ordinals, seasons, fractions: :data:`NAMED_SETS`), in the forms a sentence
writes them; "up" / "down" and "under" / "over" only right before a number ("down 3%" /
"up 3%", "under 18" / "over 18").

The contradiction check (:mod:`factgraph.stages.contradiction`) reads a fact as stated
otherwise when the sentence that carries it has the opposite of one of its words: "Aspirin
reduces the risk" / "Aspirin increases the risk", "the largest rainforest" / "the smallest
rainforest", "was acquitted" / "was convicted". Its words are compared as written, so each
pair here is given in base forms and :func:`word_forms` writes the regular inflections of
both sides (-s, -ed, -ing, -er, -est, with a final "e" or "y" and a doubled consonant as
English spells them); the irregular ones are listed (:data:`IRREGULAR`). A form that English
does not have ("positived") costs nothing: no sentence holds it.

A pair is here only where either word, put in the other's place, makes the sentence say
something else whatever the rest of it says, or says the converse (:func:`antonym_conflict`
reads one: "X beat Y" / "Y lost to X", where what stands before the word stands after its
opposite, turns nothing round). Left out on purpose: buy / sell ("sold out", "sold on an
idea"), victory / defeat (nouns whose sides are seldom named beside them), pairs whose words
often mean something else ("old" in "a 45-year-old", "right" in "human rights", "light" as
a noun, "leave" as a noun, "fire" as in "open fire"), and "before" / "after", whose clauses
move. Pure data; :data:`ANTONYMS` is built once, on import, from the tuples below.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from factgraph.stages.conflicts.base import (
    FUNCTION_WORDS,
    IRREGULAR_FORMS,
    PREPOSITIONS,
    REST_SHARE,
    Conflict,
    rest_share,
)
from factgraph.stages.conflicts.negation import negated_tokens
from factgraph.stages.context_facts import STOPWORDS, stem
from factgraph.stages.date_forms import ORDINAL_VALUES, ordinal

# base forms; each side's inflections oppose each of the other's
PAIRS: tuple[tuple[str, str], ...] = (
    # verbs
    ("increase", "decrease"), ("increase", "reduce"), ("raise", "lower"), ("win", "lose"),
    ("pass", "fail"), ("succeed", "fail"), ("accept", "reject"), ("approve", "reject"),
    ("allow", "forbid"), ("allow", "ban"), ("allow", "prohibit"), ("permit", "forbid"),
    ("permit", "prohibit"), ("permit", "ban"), ("include", "exclude"), ("import", "export"),
    ("open", "close"), ("confirm", "deny"), ("admit", "deny"), ("support", "oppose"),
    ("acquit", "convict"), ("survive", "die"), ("add", "remove"), ("appear", "disappear"),
    ("agree", "disagree"), ("remember", "forget"), ("improve", "worsen"),
    ("improve", "deteriorate"), ("strengthen", "weaken"), ("expand", "shrink"),
    ("begin", "end"), ("start", "end"), ("arrive", "depart"), ("love", "hate"),
    ("enable", "disable"), ("maximize", "minimize"), ("maximise", "minimise"),
    ("overestimate", "underestimate"), ("accelerate", "slow"), ("speed", "slow"),
    ("release", "absorb"), ("outperform", "underperform"), ("continue", "stop"),
    ("continue", "discontinue"), ("continue", "cease"), ("gain", "lose"), ("beat", "lose"),
    ("defeat", "lose"), ("ratify", "reject"), ("ahead", "behind"),
    # adjectives (their -er and -est forms too)
    ("positive", "negative"), ("high", "low"), ("large", "small"), ("big", "small"),
    ("long", "short"), ("tall", "short"), ("fast", "slow"), ("strong", "weak"),
    ("early", "late"), ("hot", "cold"), ("warm", "cold"), ("wet", "dry"), ("rich", "poor"),
    ("cheap", "expensive"), ("easy", "difficult"), ("easy", "hard"), ("simple", "complex"),
    ("safe", "dangerous"), ("true", "false"), ("correct", "incorrect"), ("correct", "wrong"),
    ("legal", "illegal"), ("public", "private"), ("domestic", "foreign"),
    ("urban", "rural"), ("mandatory", "optional"), ("mandatory", "voluntary"),
    ("compulsory", "voluntary"), ("temporary", "permanent"), ("common", "rare"),
    ("full", "empty"), ("alive", "dead"), ("present", "absent"), ("male", "female"),
    ("internal", "external"), ("inside", "outside"), ("above", "below"), ("north", "south"),
    ("east", "west"), ("deep", "shallow"), ("wide", "narrow"), ("thick", "thin"),
    ("guilty", "innocent"), ("benign", "malignant"), ("acute", "chronic"),
    ("good", "bad"), ("successful", "unsuccessful"), ("first", "last"),
    ("ancient", "modern"), ("amateur", "professional"), ("junior", "senior"),
    ("overweight", "underweight"), ("good", "poor"), ("child", "adult"), ("pale", "dark"),
    # technical and scientific text
    ("bidirectional", "unidirectional"), ("static", "dynamic"), ("explicit", "implicit"),
    ("sparse", "dense"), ("deterministic", "stochastic"), ("synchronous", "asynchronous"),
    ("homogeneous", "heterogeneous"), ("qualitative", "quantitative"), ("local", "global"),
    ("manual", "automatic"), ("manually", "automatically"), ("online", "offline"),
    ("centralized", "decentralized"), ("centralised", "decentralised"), ("lossless", "lossy"),
    ("upper", "lower"), ("horizontal", "vertical"), ("ascending", "descending"),
    ("aerobic", "anaerobic"), ("hydrophilic", "hydrophobic"), ("endothermic", "exothermic"),
    ("dominant", "recessive"), ("nocturnal", "diurnal"), ("herbivorous", "carnivorous"),
    ("active", "dormant"), ("active", "extinct"),
    # adverbs
    ("often", "rarely"), ("often", "seldom"), ("frequently", "rarely"),
    ("frequently", "seldom"), ("commonly", "rarely"), ("usually", "rarely"),
    ("quickly", "slowly"), ("deliberately", "accidentally"), ("intentionally", "accidentally"),
    ("deliberate", "accidental"), ("intentional", "accidental"),
    # nouns
    ("maximum", "minimum"), ("majority", "minority"), ("success", "failure"),
    ("gain", "loss"), ("profit", "loss"), ("winner", "loser"), ("surplus", "deficit"),
    # forms no rule writes
    ("more", "fewer"), ("more", "less"), ("most", "least"), ("most", "fewest"),
    ("many", "few"), ("most", "few"),
    ("better", "worse"), ("best", "worst"), ("older", "younger"), ("oldest", "youngest"),
    ("heavier", "lighter"), ("heaviest", "lightest"),
    # "a third" is a fraction too (its set is the ordinals')
    ("third", "half"), ("third", "quarter"),
)
# a change's direction: every word of going up opposes every word of going down ("revenue
# increased by 5%" / "revenue fell by 5%")
UP: tuple[str, ...] = ("increase", "rise", "grow", "gain", "soar", "surge", "climb", "raise")
DOWN: tuple[str, ...] = ("decrease", "fall", "drop", "decline", "shrink", "plunge", "slump",
                         "reduce", "lower", "cut")
# closed sets: each member says something else than each other in its place ("closed on
# Mondays" / "closed on Sundays", "on 3 June" / "on 3 July", "flows north" / "flows east",
# "twice a day" / "once a day", "for the third time" / "for the fourth time")
WEEKDAYS: tuple[str, ...] = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                             "sunday")
# the months but "may" and "march", which are verbs as often ("prices may rise")
MONTHS: tuple[str, ...] = ("january", "february", "april", "june", "july", "august",
                           "september", "october", "november", "december")
# by the name a reason shows for a conflict between two members ("weekday: monday →
# tuesday"; a pair of opposites shows "antonym")
NAMED_SETS: dict[str, tuple[str, ...]] = {
    "weekday": WEEKDAYS, "month": MONTHS, "direction": ("north", "south", "east", "west"),
    "region": ("northern", "southern", "eastern", "western"),
    "frequency": ("once", "twice", "thrice"),
    "season": ("spring", "summer", "autumn", "winter"),
    "time of day": ("morning", "afternoon", "evening"),
    "fraction": ("half", "quarter"),
    "ordinal": ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                "ninth", "tenth"),
}
CLOSED_SETS: tuple[tuple[str, ...], ...] = tuple(NAMED_SETS.values())
# the verbs' irregular forms (one table with the negation check's), and the other forms no
# rule writes
IRREGULAR: dict[str, tuple[str, ...]] = {
    **IRREGULAR_FORMS, "shrink": ("shrank", "shrunk"), "beat": ("beaten",), "die": ("dying",),
    "good": ("better", "best"), "bad": ("worse", "worst"),
    "acquit": ("acquitted", "acquitting"), "child": ("children",),
}
# words whose regular forms mean something else: only the forms listed ("closer" is nearer,
# "presented" showed, "lasted" went on)
FIXED_FORMS: dict[str, tuple[str, ...]] = {
    "open": ("opens", "opened", "opening"), "close": ("closes", "closed", "closing"),
    "first": (), "last": (), "present": (), "absent": (),
    **{day: (day + "s",) for day in WEEKDAYS},
    **{w: () for members in CLOSED_SETS if members is not WEEKDAYS for w in members},
}
_VOWELS = "aeiou"


def word_forms(word: str) -> frozenset[str]:
    """``word`` and its regular inflections, as English spells them: "reduce" -> reduces,
    reduced, reducing, reducer…; "drop" -> drops, dropped, dropping; "early" -> earlier,
    earliest; "big" -> bigger, biggest; with the irregular forms of :data:`IRREGULAR`, and
    only the listed forms of the words of :data:`FIXED_FORMS`."""
    if word in FIXED_FORMS:
        return frozenset({word, *FIXED_FORMS[word]})
    out = {word, *IRREGULAR.get(word, ())}
    if not re.fullmatch(r"[a-z]+", word) or len(word) < 3:
        return frozenset(out)
    if word.endswith("e"):
        stem_ = word[:-1]
        out |= {word + "s", word + "d", stem_ + "ing", word + "r", word + "st"}
        return frozenset(out)
    if word.endswith("y") and word[-2] not in _VOWELS:
        stem_ = word[:-1]
        out |= {stem_ + "ies", stem_ + "ied", word + "ing", stem_ + "ier", stem_ + "iest"}
        return frozenset(out)
    plural = word + ("es" if word.endswith(("s", "x", "z", "ch", "sh")) else "s")
    out |= {plural, word + "ed", word + "ing", word + "er", word + "est"}
    if word[-1] not in _VOWELS + "wxy" and word[-2] in _VOWELS and word[-3] not in _VOWELS:
        doubled = word + word[-1]  # "drop" -> "dropped", "big" -> "bigger", "win" -> "winner"
        out |= {doubled + "ed", doubled + "ing", doubled + "er", doubled + "est"}
    return frozenset(out)


def opposed_pairs(pairs: tuple[tuple[str, str], ...] = PAIRS, up: tuple[str, ...] = UP,
                  down: tuple[str, ...] = DOWN,
                  closed: tuple[tuple[str, ...], ...] = CLOSED_SETS) -> list[tuple[str, str]]:
    """The pairs in base forms, with every word of going up against every word of going down,
    "unchanged" against each of them ("kept rates unchanged" / "raised rates") and each member
    of a closed set against each other."""
    members = {(a, b) for group in closed for a in group for b in group if a < b}
    return [*pairs, *((u, d) for u in up for d in down),
            *(("unchanged", w) for w in (*up, *down)),
            *(p for p in sorted(members) if p not in pairs and p[::-1] not in pairs)]


def antonym_table(pairs: list[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """Each written form → the forms that say its opposite: every form of one side of a pair
    (:func:`opposed_pairs`) against every form of the other. A word never opposes one of its
    own forms."""
    table: dict[str, set[str]] = {}
    for a, b in pairs:
        fa, fb = word_forms(a), word_forms(b)
        for x in fa:
            table.setdefault(x, set()).update(fb - fa)
        for y in fb:
            table.setdefault(y, set()).update(fa - fb)
    return {w: frozenset(v) for w, v in table.items() if v}


# the Latin negating prefix, as English spells it before the base's first letter ("im"
# before b, m, p; "il" before l; "ir" before r), turns an adjective only: a base of 5+
# letters with an adjective's ending, not one of the words it makes no opposite of
_LATIN_ENDINGS = ("ble", "ive", "ent", "ant", "al", "ate", "ect", "ete", "id", "ure", "ite")
_LATIN_NOT_OPPOSITE = frozenset({
    "famous", "valuable", "flammable", "habitable", "credible", "different", "migrant",
    "migrate", "mediate", "habitant", "dent", "sure", "cite", "radiate", "tense", "vent"})


def _latin_prefix(base: str) -> str:
    return "im" if base[0] in "bmp" else "il" if base[0] == "l" else \
        "ir" if base[0] == "r" else "in"


def latin_opposites(word: str) -> frozenset[str]:
    """The adjective with or without its negating "in" / "im" / "il" / "ir": "effective" /
    "ineffective", "possible" / "impossible", "relevant" / "irrelevant", "illogical" /
    "logical"; nothing for a word it does not turn ("invaluable" is no "valuable", "income"
    no "come")."""
    out = set()

    def turns(base: str) -> bool:
        return len(base) >= 5 and base.isalpha() and base.endswith(_LATIN_ENDINGS) \
            and base not in _LATIN_NOT_OPPOSITE

    if turns(word) and not word.startswith(("in", "im", "il", "ir")):
        out.add(_latin_prefix(word) + word)
    for prefix in ("in", "im", "il", "ir"):
        base = word[len(prefix):]
        if word.startswith(prefix) and turns(base) and _latin_prefix(base) == prefix:
            out.add(base)
    return frozenset(out)


def same_word_table(pairs: list[tuple[str, str]]) -> dict[str, frozenset[str]]:
    """Each written form of a word of the pairs → every form of that word ("ended" → end,
    ends, ending, …): a sentence that says "ends" still says the fact's "ended"."""
    table: dict[str, set[str]] = {}
    for word in {w for pair in pairs for w in pair}:
        forms = word_forms(word)
        for x in forms:
            table.setdefault(x, set()).update(forms)
    return {w: frozenset(v) for w, v in table.items()}


ANTONYMS: dict[str, frozenset[str]] = antonym_table(opposed_pairs())
# each written form of a closed set's member → the set's name ("mondays" → "weekday")
_SET_OF = {form: name for name, members in NAMED_SETS.items() for m in members
           for form in word_forms(m)}
SAME_WORD: dict[str, frozenset[str]] = same_word_table(opposed_pairs())


_NEGATING_PREFIXES = ("un", "non")


def _prefixable(word: str) -> bool:
    """A word that a negating prefix can turn: 4+ letters, no function word."""
    return word.isalpha() and len(word) >= 4 and word not in STOPWORDS \
        and word not in FUNCTION_WORDS


@lru_cache(maxsize=8192)
def opposites(word: str) -> frozenset[str]:
    """The words that say the opposite of ``word``: its :data:`ANTONYMS`, the adjective with or
    without its Latin "in" / "im" / "il" / "ir" (:func:`~factgraph.stages.conflicts.antonyms.
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


# "up" / "down" right before a number, "from" or "by" give a change's direction ("revenue of
# $94.8 billion, down 3%" / "up 3%", "up from $22,500"); elsewhere they are particles ("set
# up", "broke down") and oppose nothing
_DIRECTION = {"up": frozenset({"down"}), "down": frozenset({"up"}),
              "under": frozenset({"over"}), "over": frozenset({"under"})}


def _directions(toks: list[str]) -> set[str]:
    """The "up" / "down" of ``toks`` that stand right before a number, "from" or "by" ("up
    3%", "down from $22,500", "up by a third"), and the "under" / "over" right before a number
    ("visitors under 18" / "visitors over 18"; elsewhere "over the years", "under the law")."""
    return {t for t, nxt in pairwise(toks)
            if t in _DIRECTION and (nxt[:1].isdigit() or (
                t in ("up", "down") and nxt in ("from", "by")))}


# "was beaten" / "were defeated" is the loser's side: the passive of a verb whose opposite is
# "lose" says "lose" ("Fischer lost the first game" / "Fischer was beaten in the first game")
_PASSIVE_LOSS = frozenset({"beaten", "defeated", "outscored", "outplayed", "outvoted"})
_BE = frozenset({"was", "were", "is", "are", "be", "been", "being", "get", "gets", "got"})


def _passive_as_loss(toks: list[str]) -> tuple[list[str], dict[str, str]]:
    """``toks`` with each passive of winning ("was beaten", "were narrowly defeated": a form
    of "be" or "get" among the two words before it) read as "lost", and what was written."""
    out, written = list(toks), {}
    for i, w in enumerate(toks):
        if w in _PASSIVE_LOSS and any(t in _BE for t in toks[max(0, i - 2): i]):
            out[i] = "lost"
            written["lost"] = w
    return out, written


_PARTICLES = {"up": "down", "down": "up", "in": "out", "out": "in", "on": "off", "off": "on"}


def antonym_conflict(fact_tokens: list[str], sentence_tokens: list[str], fact_stems: list[str],
                     sentence_stems: set[str], clause: str | None = None) -> Conflict | None:
    """A word of the fact whose opposite (:func:`opposites`) the sentence's clause holds
    instead, with the rest of the fact there; a negated opposite says the same ("not
    uncommon" / "common", "closed" / "not open"). Where the ``clause`` is given as written,
    a member of a closed set (an ordinal, a direction, a season …) must not be followed by a
    content word that is no word of the fact (:func:`_beside_another`); a verb's object may
    be any word ("Fischer beat Spassky")."""
    fact_tokens, written_fact = _passive_as_loss(fact_tokens)
    sentence_tokens, written_said = _passive_as_loss(sentence_tokens)
    said = set(sentence_tokens)
    fact_negated, said_negated = negated_tokens(fact_tokens), negated_tokens(sentence_tokens)
    fact_directions, said_directions = _directions(fact_tokens), _directions(sentence_tokens)
    for t in fact_tokens:
        opposite = opposites(t) | (_DIRECTION.get(t, frozenset()) & said_directions
                                   if t in fact_directions else frozenset())
        # the sentence says the word (in any form: "ended" / "ends") as often as the fact
        # does, or its opposite no more often ("removing noise by adding noise" holds both
        # sides): nothing is turned round. Counted, so that one of two is: "the first woman
        # …, the first person …" / "the second woman …, the first person …", "Net income fell
        # … as the company increased spending" / "Net income rose … increased"
        forms = SAME_WORD.get(t, frozenset({t}))
        if not opposite or sum(x in forms for x in sentence_tokens) >= sum(
                x in forms for x in fact_tokens) or sum(
                x in opposite for x in sentence_tokens) <= sum(x in opposite for x in fact_tokens):
            continue
        hit = sorted(o for o in opposite & said if (t in fact_negated) == (o in said_negated)
                     and not _counts_another(fact_tokens, t, sentence_tokens, o)
                     and not (clause is not None and o in _SET_OF and _beside_another(
                         written_said.get(o, o), clause, set(fact_stems) | set(fact_tokens))))
        if hit:
            # a phrasal verb turns its particle with it ("slows neutrons down" / "speeds
            # neutrons up"): the particle is part of the slot
            turned = {p for p in fact_tokens if _PARTICLES.get(p) in said and p not in said}
            # an ordinal word is read in digits after "the" ("the fourth" -> "4th")
            written = {str(ORDINAL_VALUES[t]), ordinal(ORDINAL_VALUES[t])} \
                if t in ORDINAL_VALUES else set()
            # a hyphened word holding it is the slot too ("south-west": stem "southwest")
            joined = {t + x for x in fact_tokens} | {x + t for x in fact_tokens}
            share, size = rest_share(fact_stems, {stem(t)} | turned | written | (
                joined & set(fact_stems)), sentence_stems)
            same_set = _SET_OF.get(t)
            slot = same_set if same_set and same_set == _SET_OF.get(hit[0]) else "antonym"
            # a fact of two content words ("The soup was hot" / "The soup was cold") turns on
            # its opposite where its other word is there; a closed set's member needs more
            # ("The performance was on Wednesday" / "tragedy struck Thursday at the
            # performance": a day can date another event of the sentence)
            if ((share >= REST_SHARE and size >= 2) or (
                    share == 1.0 and size == 1 and slot == "antonym")) and not _roles_swapped(
                    fact_tokens, t, sentence_tokens, hit[0]):
                return Conflict(slot, written_fact.get(t, t), written_said.get(hit[0], hit[0]))
    return None


def _beside_another(word: str, clause: str, fact_words: set[str]) -> bool:
    """Whether each place ``clause`` writes ``word`` has a content word right after it (no
    mark between) that is no word of the fact: the opposite says something of another thing
    ("Beethoven's Ninth Symphony was first heard in 1824" / "… his last completed symphony",
    "the North Atlantic" / "off the south coast"). The word before it is often its own
    modifier ("noticeably slower than"), so only the word after is read."""
    places = list(re.finditer(rf"\b{re.escape(word)}\b", clause, re.I))
    if not places:
        return False

    def content(w: str) -> bool:
        return w.isalpha() and w not in FUNCTION_WORDS and w not in STOPWORDS \
            and w not in PREPOSITIONS

    for place in places:
        after = re.match(r"\s+([\w'’-]+)", clause[place.end():])
        if after is None:
            return False
        beside = after.group(1).lower()
        if not content(beside) or beside in fact_words or stem(beside) in fact_words:
            return False
    return True


# words that count or measure the word after them: the opposite must count the same thing
_QUANTIFIERS = frozenset({"many", "few", "fewer", "fewest", "much", "little", "less", "least",
                          "more", "most"})


def _counts_another(fact_tokens: list[str], word: str, sentence_tokens: list[str],
                    opposite: str) -> bool:
    """Whether a quantifier and its opposite count other things: "mates with many drones" /
    "makes one or a few mating flights, mating with a dozen or more drones" ("few" counts the
    flights); "more common" / "less common" count the same."""
    if word not in _QUANTIFIERS or opposite not in _QUANTIFIERS:
        return False

    def counted(toks: list[str], w: str) -> set[str]:
        return {stem(toks[i + 1]) for i, x in enumerate(toks[:-1]) if x == w}

    return not counted(fact_tokens, word) & counted(sentence_tokens, opposite)


def _roles_swapped(fact_tokens: list[str], word: str, sentence_tokens: list[str],
                   opposite: str) -> bool:
    """Whether the sentence tells the fact from the other side: what stands before the fact's
    word stands after its opposite, and what stands after it before ("Wigan won 30-20 against
    Warrington" / "Warrington lost 20-30 against Wigan", "A is larger than B" / "B is smaller
    than A"): a converse, no conflict."""
    def sides(toks: list[str], w: str) -> tuple[set[str], set[str]]:
        i = toks.index(w)
        before = {t for t in toks[:i] if t not in FUNCTION_WORDS and t not in STOPWORDS}
        after = {t for t in toks[i + 1:] if t not in FUNCTION_WORDS and t not in STOPWORDS}
        return before, after - before

    fact_before, fact_after = sides(fact_tokens, word)
    said_before, said_after = sides(sentence_tokens, opposite)
    # what moved: words of the fact's one side on the sentence's other side, both ways (the
    # verb and the measure may stay: "City finished five points ahead of Arsenal" / "Arsenal
    # finished five points behind City")
    return bool((fact_before - said_before) & said_after) and bool(
        (fact_after - said_after) & said_before)


_COMPARATIVE = re.compile(r"^(?:more|less|fewer|[a-z]{3,}er)$")
_STOP_AT = frozenset({".", ",", ";", ":", "!", "?"})


def comparison_conflict(fact: str, sentence: str, fact_stems: list[str],
                        sentence_stems: set[str]) -> Conflict | None:
    """The two sides of a comparison swapped, its comparative kept ("Gout is more common in
    men than in women" / "… more common in women than in men", "The Nile is longer than the
    Amazon" / "The Amazon is longer than the Nile"): another claim. With the comparative
    turned too ("The Amazon is shorter than the Nile") it is a converse, which the opposites
    read (:func:`_roles_swapped`)."""
    def sides(text: str) -> tuple[str, set[str], set[str]] | None:
        toks = re.findall(r"[a-z0-9]+|[.,;:!?]", text.lower())
        if "than" not in toks:
            return None
        i = toks.index("than")
        start = max((k + 1 for k in range(i) if toks[k] in _STOP_AT), default=0)
        end = next((k for k in range(i + 1, len(toks)) if toks[k] in _STOP_AT), len(toks))
        comparative = next((t for t in reversed(toks[max(start, i - 4):i])
                            if _COMPARATIVE.match(t)), None)
        if comparative is None:
            return None
        keep = {stem(t) for t in toks if t not in FUNCTION_WORDS and t not in STOPWORDS
                and t.isalpha() and t != comparative}
        before = {stem(t) for t in toks[start:i]} & keep
        after = {stem(t) for t in toks[i + 1:end]} & keep
        return comparative, before - after, after - before

    fact_sides, said_sides = sides(fact), sides(sentence)
    if fact_sides is None or said_sides is None or fact_sides[0] != said_sides[0]:
        return None
    (_, fact_before, fact_after), (_, said_before, said_after) = fact_sides, said_sides
    moved_back = sorted((fact_before & said_after) - said_before)
    moved_forward = sorted((fact_after & said_before) - said_after)
    if not moved_back or not moved_forward:
        return None
    share, size = rest_share(fact_stems, set(), sentence_stems)
    if size >= 3 and share >= REST_SHARE:
        return Conflict("comparison", f"{moved_back[0]} than {moved_forward[0]}",
                        f"{moved_forward[0]} than {moved_back[0]}")
    return None
