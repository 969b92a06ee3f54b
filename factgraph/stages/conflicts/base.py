"""What the contradiction checks share (:mod:`factgraph.stages.contradiction`): the verdict
(:class:`Conflict`), the words a text is read as (:func:`tokens`: "didn't" is "did not", "%"
is "percent", "non-parametric" one word), and how much of a fact stands in a sentence outside
its slot (:func:`rest_share`, which each check asks before it calls a slot changed)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from factgraph.stages.context_facts import as_digits
from factgraph.stages.number_forms import PERCENT

REST_SHARE = 0.75

SLOT_REST_SHARE = 0.66  # the other value sits in the fact's own slot: one paraphrased word
# another value in the fact's unit, where the response never states the fact's: the rest of
# the fact may be paraphrased more (the topic left unsaid, other words)
UNSTATED_UNIT_SHARE = 0.55
# ... and where the coverage judge reads the sentence as stating the fact (its P at or above
# the cut-off), the judge's words, bigrams and embedding already say the sentence is about it
JUDGED_STATED_SHARE = 0.5


NEGATORS = frozenset({"not", "no", "never", "n't", "without", "none", "nobody", "nothing",
                      "lacks", "lacked", "lacking",
                      "neither", "nor", "cannot", "nowhere", "unable"})


TOKEN = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*|n't", re.I)

YEAR = re.compile(r"^(1[5-9]\d\d|20\d\d)$")


@dataclass(frozen=True)
class Conflict:
    """Why a fact is contradicted: the slot, what the fact holds and what the sentence holds."""

    # "number" | "date" | "time" | "negation" | "antonym" | "comparison" | "name", or the
    # name of a closed set ("weekday")
    slot: str
    fact_value: str
    response_value: str

    def describe(self) -> str:
        """One line for a person: "number: fact 28, response 31"."""
        return f"{self.slot}: fact {self.fact_value!r}, response {self.response_value!r}"


_NOT = re.compile(r"n\s*'\s*t\b|\bcannot\b", re.I)  # "didn't", "didn ' t", "cannot"


# "non-parametric" is "nonparametric": one word, else its half reads as the opposite
_PREFIX_HYPHEN = re.compile(r"\b(non|un)-(?=[a-z])", re.I)


def tokens(text: str) -> list[str]:
    """The lower-cased words and numbers of ``text`` as the checks compare them: "n't" and
    "cannot" as "not", "%" and "per cent" as "percent", "non-" / "un-" joined to the word,
    number words as digits."""
    plain = _NOT.sub(" not", PERCENT.sub(" percent", text.replace("’", "'")))
    plain = _PREFIX_HYPHEN.sub(r"\1", plain)
    return [as_digits(t) for t in (t.lower() for t in TOKEN.findall(plain))]


# a quoted title says nothing about the fact's polarity ("The Night We Never Met", a quote
# left open by a cut sentence too); a quoted phrase that is no title ("never carried it") does
QUOTED = re.compile(r"\"[A-Z][^\"]*(?:\"|$)|“[A-Z][^”]*(?:”|$)|``\s*[A-Z].*?(?:''|$)")


def rest_share(fact_stems: list[str], drop: set[str], sentence_stems: set[str]) -> tuple[
        float, int]:
    """(share, size): the share of the fact's stems outside ``drop`` (the slot) that the
    sentence holds, and how many there are; a check calls the slot changed only where the
    rest of the fact stands."""
    # a number is one word with or without its thousands commas ("7,000" / "7000")
    rest = [w.replace(",", "") for w in fact_stems if w.replace(",", "") not in drop]
    if not rest:
        return 0.0, 0
    said = stem_forms(w.replace(",", "") for w in sentence_stems)
    return sum(holds_stem(said, w) for w in rest) / len(rest), len(rest)


def stem_key(stem: str) -> str:
    """A stem without its silent "e": one key for "approve" and "approv(ed)"."""
    return stem.removesuffix("e")


def stem_forms(stems: Iterable[str]) -> set[str]:
    """Each stem with and without its silent "e" (:func:`stem_key`): one word either way;
    read with :func:`holds_stem`."""
    return {x for w in stems for x in (w, stem_key(w))}


# the irregular past forms and participles of verbs, one table for the checks: the negation
# check reads a form as its verb ("did not win" / "won", "was not taken" / "took"), the
# antonym check writes a verb's forms ("won" / "lost")
IRREGULAR_FORMS: dict[str, tuple[str, ...]] = {
    base: tuple(forms.split()) for base, forms in {
        "win": "won", "lose": "lost", "run": "ran", "begin": "began begun", "take": "took taken",
        "make": "made", "give": "gave given", "find": "found", "hold": "held", "keep": "kept",
        "lead": "led", "leave": "left", "meet": "met", "pay": "paid", "send": "sent",
        "spend": "spent", "sell": "sold", "tell": "told", "think": "thought",
        "write": "wrote written", "break": "broke broken", "choose": "chose chosen",
        "rise": "rose risen", "fall": "fell fallen", "grow": "grew grown", "come": "came",
        "go": "went gone", "see": "saw seen", "know": "knew known", "bring": "brought",
        "buy": "bought", "build": "built", "catch": "caught", "teach": "taught", "feel": "felt",
        "stand": "stood", "strike": "struck", "drive": "drove driven", "fly": "flew flown",
        "eat": "ate eaten", "speak": "spoke spoken", "show": "shown", "draw": "drew drawn",
        "throw": "threw thrown", "do": "did done", "get": "got gotten", "hide": "hid hidden",
        "forget": "forgot forgotten", "sing": "sang sung", "swim": "swam swum"}.items()}
# each irregular form → its verb
IRREGULAR_VERBS: dict[str, str] = {form: base for base, forms in IRREGULAR_FORMS.items()
                                   for form in forms}


def verb_forms(words: Iterable[str]) -> set[str]:
    """``words`` with the verb of each irregular form among them ("won" adds "win"): what a
    negated word is matched in."""
    out = set(words)
    out.update(IRREGULAR_VERBS[w] for w in list(out) if w in IRREGULAR_VERBS)
    return out


def holds_stem(forms: set[str], word: str) -> bool:
    """Whether ``forms`` (:func:`stem_forms`) hold ``word``, silent "e" or not."""
    return bool(word) and stem_key(word) in forms


FUNCTION_WORDS = frozenset({"of", "the", "a", "an", "in", "on", "at", "to", "for", "and", "or",
                            "per", "by", "from", "with", "than", "as", "is", "are", "was",
                            "were", "be", "that", "which", "who", "it", "its", "their"})
# prepositions beyond the function words: they name no slot of their own
PREPOSITIONS = frozenset({"amid", "amidst", "during", "across", "against", "among", "amongst",
                          "despite", "via", "toward", "towards", "upon", "within", "without",
                          "throughout", "beside", "besides", "beyond", "including",
                          "following", "near", "onto", "unlike", "versus"})
