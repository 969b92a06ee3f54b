"""The negation check: one side says "not" ("no", "never", "n't", "without", "has yet to",
"failed to", …) and the other does not, about a word both say. What a negator reaches
(:func:`negated_words`: the next content word, over "yet" or "considered", and over "or"
within its stretch), and what negates nothing: a quoted or capitalised title ("Without a
Trace"), "no-nonsense", "No. 4"."""

from __future__ import annotations

import re
from collections import Counter

from factgraph.stages.conflicts.base import (
    IRREGULAR_VERBS,
    NEGATORS,
    QUOTED,
    Conflict,
    holds_stem,
    stem_forms,
    stem_key,
    tokens,
    verb_forms,
)
from factgraph.stages.context_facts import (
    STOPWORDS,
    stem,
)
from factgraph.stages.fact_evidence import stems

_NO_NUMBER = re.compile(r"\bno\.?\s+(?=\d)", re.I)  # "World No 3", "reactor No. 4": a number


# a capitalised negator inside a sentence belongs to a name ("Without a Trace", "No. 4",
# 'Don't Come Around Here No More')
_TITLE_NEGATORS = "Without|Never|No|Not|None|Nothing"  # negators that open titles, capitalised

_NAME_NEGATOR = re.compile(
    rf"(?<=\S\s)['‘\"“]?(?:{_TITLE_NEGATORS}|Nobody|[A-Z][a-z]*n['’]t)(?![\w'’])")


# "answered no", "voted no": the answer given, no negation of the words after it
_ANSWER_NO = re.compile(r"\b((?:answer|answers|answered|say|says|said|reply|replies|replied|"
                        r"vote|votes|voted)\s+)no\b", re.I)

_NEGATIVE_COMPOUND = re.compile(r"\b(no|non|not|never)-(?=\w)", re.I)  # "no-nonsense"

_RATHER_THAN = re.compile(r"\b(?:rather\s+than|instead\s+of)\b", re.I)


# "has yet to approve" says it has not approved; "refused to approve", "failed to approve"
# and "declined to approve" too; "no longer operates" says it does not operate ("no longer
# than two hours" is a bound)
_YET_TO = re.compile(r"\bno\s+longer\b(?!\s+than)|\b(?:(?:has|have|had|is|are|was|were)\s+yet|"
                     r"(?:refus|fail|declin)(?:e|es|ed|s|ing)?)\s+to\b", re.I)

# an answer that calls a fact open does not state it, and one that finds no evidence for it
# denies it: "it is unclear whether the drug reduces mortality", "there is no evidence that
# the drug reduces mortality" negate what follows, not "unclear" or "evidence"
_UNSETTLED = re.compile(r"\b(?:(?:unclear|unknown|uncertain|undetermined|not\s+(?:known|clear))"
                        r"\s+(?:whether|if)|no\s+(?:evidence|proof|indication|sign)\s+"
                        r"(?:that|of)|nothing\s+suggests\s+that|"
                        # "a common misconception is that phases are caused by …" denies it
                        r"(?:misconception|myth|mistaken\s+belief|false\s+belief|fallacy)\s+"
                        r"(?:is\s+)?that)\b", re.I)

# "did not open until 1932" says it opened in 1932: a negator before "until" in its stretch
# negates nothing
_NOT_UNTIL = re.compile(r"(?:\bnot|n['’]t|\bnever)\b(?=[^,;:.!?]*\b(?:until|till)\b)", re.I)

# "do not work unless they have a magnetic base" and "won't work without a magnetic base" say
# what it takes to work, not that it does not: a negator before "unless" / "without" /
# "except" in its stretch negates nothing, and that "without" reads as "with" ("can't walk
# without help" agrees with "can walk with help")
_NOT_UNLESS = re.compile(r"(?:\bnot|n['’]t|\bnever|\bcannot)\b([^,;:.!?]*?)\b(unless|without|"
                         r"except)\b", re.I)


def _conditional(m: re.Match[str]) -> str:
    """A negation under a condition (:data:`_NOT_UNLESS`), with no negator left."""
    condition = m.group(2)
    return f" {m.group(1)} {'with' if condition.lower() == 'without' else condition}"


# words a negator reaches over to the word it negates: "not yet profitable", "not considered
# safe", "does not appear to increase" (not "always": "not always safe" says it sometimes is)
_SEE_THROUGH = frozenset({"yet", "considered", "deemed", "regarded", "appear", "appears",
                          "appeared", "seem", "seems", "seemed", "currently", "officially"})

# where a negator's reach over "or" ends: a comma, a colon, a stop, or a bracket ("has 10
# days (not counting Sundays) to sign or veto it" negates no "veto")
_STRETCH_END = re.compile(r"[,;:]\s|[.!?](?:\s|$)|[()\[\]]")

# "no more than five weeks", "not later than 1 May": a bound, no negation
_BOUND = re.compile(r"\b(?:no|not)\s+(?:more|less|fewer|later|earlier|sooner|longer|shorter|"
                    r"greater|higher|lower|larger|smaller|older|younger)\s+than\b", re.I)
# "nothing, not even light, can escape" / "lets nothing escape, not even light" / "nothing,
# including light, can escape": an aside that stresses the negation, no negation of its own
_NOT_EVEN = re.compile(r"\b(nothing|nobody|none)\s*,\s*(?:including|even|except|apart\s+from|"
                       r"not\s+even)\b[^,.;:!?]*,|,\s*not\s+even\s+[^,.;:!?]+(?:,|(?=[.;:!?]|$))",
                       re.I)
# "does nothing for ten days": a negating pronoun before a preposition negates no word
_NEGATING_PRONOUNS = frozenset({"nothing", "nobody", "none"})
_PREPOSITIONS = frozenset({"for", "in", "on", "at", "during", "about", "after", "before",
                           "since", "until", "with", "from", "to", "of"})


_OR = frozenset({"or", "nor"})
# a relative clause ends a negator's reach over "or" ("the right not to be subject to decisions
# that have legal or similarly significant effects" negates no "similarly")
_RELATIVE = frozenset({"that", "which", "who", "whom", "whose"})


def negated_words(text: str) -> list[str]:
    """The stems of the words ``text`` negates: for each negator, the next content word that
    is not a number ("does not rely on" -> "rely"; "is not the 2010 winner" -> "winner"), and
    the next after each "or" / "nor" that follows it before a comma or a stop ("did not build
    or open" -> "build", "open"); empty when nothing is negated. Titles (quoted, or a
    capitalised "Without" / "Never" inside a sentence) and "no-nonsense" negate nothing."""
    plain = _NAME_NEGATOR.sub(" ", _NEGATIVE_COMPOUND.sub(r"\1", QUOTED.sub(" ", text)))
    plain = _ANSWER_NO.sub(r"\1nay", plain)
    plain = _NOT_EVEN.sub(lambda m: f"{m.group(1) or ''} ", _BOUND.sub(" bound ", plain))
    plain = _RATHER_THAN.sub(" not ", plain)  # "by nature rather than nurture": not nurture
    plain = _YET_TO.sub(" not ", _UNSETTLED.sub(" not ", _NOT_UNTIL.sub(" ", plain)))
    plain = _NOT_UNLESS.sub(_conditional, plain)
    out = []
    # a negator reaches over "or" / "nor" to the word after it within its stretch ("did not
    # start or score a goal": not score); a comma, a semicolon, a colon or a stop ends it
    for stretch in _STRETCH_END.split(_NO_NUMBER.sub("number ", plain)):
        toks = tokens(stretch)
        negated_at = reached = -1
        for i, t in enumerate(toks):
            if t in _RELATIVE or (t in _PREPOSITIONS and 0 <= reached < i):
                # "not subject to decisions that have legal or …", "doesn't cover the cost
                # of rebuilding or replacing": an "or" inside a relative clause or the
                # negated word's object joins no second word to the negation
                negated_at = -1
            if t in NEGATORS or (t in _OR and negated_at >= 0):
                negated_at = i
                if t in _NEGATING_PRONOUNS and toks[i + 1: i + 2] and \
                        toks[i + 1] in _PREPOSITIONS:
                    out.append("")  # "did nothing for ten days": no word negated
                    continue
                nxt = next((w for w in toks[i + 1: i + 6] if w not in NEGATORS
                            and w.isalpha() and len(w) >= 3 and w not in STOPWORDS
                            and w not in _SEE_THROUGH), None)
                if nxt is None and t == "none" and i > 0 and toks[i - 1].isalpha() and \
                        len(toks[i - 1]) >= 3 and toks[i - 1] not in STOPWORDS:
                    out.append(stem(toks[i - 1]))  # "an actor receiving none": not receiving
                    continue
                if t not in _OR or nxt:
                    out.append(stem(nxt) if nxt else "")
                if nxt:
                    reached = toks.index(nxt, i + 1)
    return out


# a negator whose scope reaches over "or" to the clause right after it ("did not score any
# goals or make any assists"); a comma, a colon or a full stop between them ends it
_OPEN_NEGATION = re.compile(r"(?:\bnot|n't|\bnever)\b[^,;.:]*\bn?or\s*$", re.I)


# "there is no evidence that | the drug works": the clause cut after "that" / "if" is unsettled
_UNSETTLED_BEFORE = re.compile(rf"(?:{_UNSETTLED.pattern})\s*$", re.I)


def in_scope(clause: str, sentence: str, start: int) -> str:
    """``clause`` (starting at offset ``start`` of ``sentence``), with the negator that reaches
    it from earlier in the sentence over "or" (:data:`_OPEN_NEGATION`) or that calls it open
    right before it ("no evidence that", "not known if": :data:`_UNSETTLED`), so the clause
    reads as negated as the sentence says."""
    before = sentence[:start]
    if negated_words(clause):
        return clause
    unsettled = _UNSETTLED_BEFORE.search(before)
    if unsettled:
        return f"{' '.join(unsettled.group(0).split())} {clause}"
    return f"not {clause}" if _OPEN_NEGATION.search(before) else clause


# a capitalised negator that opens a title the response names mid-sentence ("Without a Trace",
# "Without Remorse"): at the start of a fact it is that title, not a negation
_CAPITAL_NEGATOR = re.compile(rf"\b(?:{_TITLE_NEGATORS})\s+\w+")


def title_opening(fact: str, response: str) -> bool:
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


# words that forbid: "prohibited from requiring" says "may not require", so a side holding one
# agrees with the other side's "not" / "no" where that side does not hold it too ("Employers
# are prohibited from requiring …" / "No employer may demand …"; "is banned" / "is not
# banned" stays a conflict)
_FORBIDS = re.compile(r"\b(?:prohibit\w*|forbid\w*|forbade|ban|bans|banned|banning|barred|"
                      r"barring|outlaw\w*|disallow\w*|preclud\w*|illegal|unlawful|"
                      # words that prevent: "moisture hinders browning" says it does not
                      # brown ("will steam instead of brown")
                      r"prevent\w*|hinder\w*|inhibit\w*|imped\w*|"
                      # and words that leave it out: "lets the database skip reading the
                      # table" says the table need not be read
                      r"skip|skips|skipped|skipping|avoid\w*|bypass\w*)\b", re.I)


def negation_conflict(fact: str, clause: str) -> Conflict | None:
    """One side negates and the other does not, and the word negated is the other side's
    too ("does not rely on X" against "learns from X" is no conflict: "rely" is not there).
    Where both negate, one side's negated words holding all the other's and more is that
    side negating one more thing ("can walk without help" / "can't walk without help"); two
    sides negating different words ("was not found guilty" / "was found not guilty") say
    nothing of each other."""
    # the same negators on both sides, as often each: one denial said two ways, wherever the
    # words each one denies are read ("leaving none in the wild" / "so none were left flying
    # free", where "none" after its verb and before it deny different words)
    negators = Counter(t for t in tokens(clause) if t in NEGATORS)
    if negators and negators == Counter(t for t in tokens(fact) if t in NEGATORS):
        return None
    in_fact, in_clause = negated_words(fact), negated_words(clause)
    if in_fact and in_clause:
        f, c = {w for w in in_fact if w}, {w for w in in_clause if w}
        if f == c:  # both deny the same ("lost no ships, while … lost 22 ships" / "lost 22")
            return None
        if f < c:
            in_fact, in_clause = [], sorted(c - f)
        elif c < f:
            in_fact, in_clause = sorted(f - c), []
    # a word the same side also says without a negator is said: "does not prevent infection
    # but it prevents severe illness" affirms "prevents" (the clause that carries the fact
    # may have widened over the negated one)
    in_fact, in_clause = _negated_only(fact, in_fact), _negated_only(clause, in_clause)
    if bool(in_fact) == bool(in_clause):
        return None
    negated, other = (in_fact, clause) if in_fact else (in_clause, fact)
    denying = fact if in_fact else clause
    # a word that forbids on the other side agrees unless the denial is of such a word ("is
    # banned" / "is not banned"; "inhibits the enzyme, preventing the recycling" / "inhibits
    # the enzyme, so the body can't recycle": "recycle" is denied, not "inhibits")
    if _FORBIDS.search(other) and not any(_FORBIDS.match(w) for w in negated if w):
        return None
    # the other side's words as both readings give them ("plug-in" is "plugin" and "plug"),
    # an irregular form as its verb too ("did not win" / "won")
    said = stem_forms(verb_forms([*stems(other), *(stem(t) for t in tokens(other))]))
    if not any(holds_stem(said, w) or holds_stem(said, IRREGULAR_VERBS.get(w, w))
               for w in negated):
        return None
    # "are not awarded posthumously" negates the manner, not the award: an adverb right after
    # the negated word that the other side does not say is what is denied
    for w in negated:
        manner = re.search(rf"\b{re.escape(w)}\w*\s+(\w{{3,}}ly)\b", denying, re.I)
        if manner and stem(manner.group(1).lower()) not in said and \
                manner.group(1).lower() not in _NOT_MANNER:
            return None
    # "is only doubled when stressed" says it is not doubled otherwise: a restricted
    # affirmation agrees with a negation under another condition
    toks = tokens(other)
    if any(stem(t) in negated and "only" in toks[max(0, i - 2): i] for i, t in enumerate(toks)):
        return None
    return Conflict("negation", _negator(fact) if in_fact else "(affirmed)",
                    _negator(clause) if in_clause else "(affirmed)")


# words in "-ly" that are no manner of the verb before them
_NOT_MANNER = frozenset({"only", "early", "daily", "weekly", "monthly", "yearly", "likely",
                         "really", "fully", "family", "italy", "july", "supply", "apply",
                         "reply", "rely", "fly", "ally"})


def _negated_only(text: str, negated: list[str]) -> list[str]:
    """The words of ``negated`` (:func:`negated_words` of ``text``) that ``text`` never says
    without a negator: a word said more often than it is negated is affirmed too."""
    said = Counter(stem_key(stem(t)) for t in tokens(text))
    denied = Counter(stem_key(w) for w in negated)
    return [w for w in negated if w and said[stem_key(w)] <= denied[stem_key(w)]]


def _negator(text: str) -> str:
    """How ``text`` negates, as the reason shows it: "not", or the words that call the fact
    open ("unclear whether", "no evidence that")."""
    m = _UNSETTLED.search(text)
    return " ".join(m.group(0).lower().split()) if m else "not"


def negated_tokens(toks: list[str]) -> set[str]:
    """The words of ``toks`` with a negator (:data:`NEGATORS`) among the two before them."""
    return {t for i, t in enumerate(toks) if any(w in NEGATORS for w in toks[max(0, i - 2):i])}
