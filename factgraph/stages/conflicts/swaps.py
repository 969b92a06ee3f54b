"""The swap check: two values of the fact — two numbers, two years or two names — each stated
in the sentence, but each where the fact has the other ("interrogates on 1030 MHz and
receives replies on 1090 MHz" / "interrogates on 1090 MHz and receives replies on 1030 MHz";
"Amaterasu was born from his left eye … and Susanoo from his nose" / "Susanoo was born from
his left eye … and Amaterasu from his nose"). Every word of the fact may be there and every
value too; what changed is which value fills which slot, which no check of one value sees.

A value's slot is read from its neighbours: the first :data:`WINDOW` content words on each
side, within its clause (punctuation, a conjunction or another value ends the reach; a name
of several words is one value). The fact's two values are swapped when a neighbour that only
the first value has in the fact is one that only the second has in the sentence, and the
other way round (on the same side or the other): a full exchange. A list said in another
order ("Alice and Bob founded it" / "Bob and Alice founded it") or a sentence built another
way (one value's neighbour moved, the other's dropped) is no swap, nor is one where either
value keeps the word next to it. As every check, the rest of the fact must stand in the
sentence (:func:`~.base.rest_share`)."""

from __future__ import annotations

import re
from itertools import combinations

from factgraph.stages.conflicts.base import (
    FUNCTION_WORDS,
    SLOT_REST_SHARE,
    YEAR,
    Conflict,
    rest_share,
)
from factgraph.stages.context_facts import STOPWORDS, as_digits, fold_accents, stem
from factgraph.stages.fact_evidence import names

WINDOW = 3  # content words read on each side of a value

# a word or number, or a mark that ends a clause
_TOKEN = re.compile(r"[a-z0-9]+(?:[.,][0-9]+)*|[.;:!?()\[\]—–]|,(?!\d)")
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_CLAUSE_WORDS = frozenset({"and", "but", "whereas", "while", "although", "because", "which",
                           "since", "that", "or", "when", "where", "who", "whom", "after",
                           "before", "until", "unless", "if", "than", "then", "whilst"})


def _sequence(text: str, name_words: frozenset[str]) -> list[tuple[str, str]]:
    """``text`` as (kind, key) items: ("num" | "year" | "name", value) for a value, ("word",
    stem) for a content word, ("break", "") for what ends a clause; function words dropped."""
    out: list[tuple[str, str]] = []
    after_name = False  # the token before was a name's word
    for raw in _TOKEN.findall(fold_accents(text).lower()):
        was_name, after_name = after_name, raw in name_words
        if not raw[0].isalnum() or raw in _CLAUSE_WORDS:
            out.append(("break", ""))
            continue
        word = as_digits(raw).replace(",", "")
        if _NUMBER.match(word):
            # "1,500" is a count, "1500" may be a year
            out.append(("year" if YEAR.match(raw) else "num", word))
        elif raw in name_words:
            if was_name:  # a name of several words is its last one
                out.pop()
            out.append(("name", raw))
        elif raw not in FUNCTION_WORDS and raw not in STOPWORDS:
            out.append(("word", stem(raw)))
    return out


def _neighbours(seq: list[tuple[str, str]], at: int, side: int) -> list[str]:
    """The first :data:`WINDOW` content words on ``side`` (-1 before, +1 after) of the value
    at ``at``, within its clause, nearest first."""
    out: list[str] = []
    j = at + side
    while 0 <= j < len(seq) and len(out) < WINDOW and seq[j][0] == "word":
        out.append(seq[j][1])
        j += side
    return out


# a relation that holds both ways: the two values may stand either way round
_SYMMETRIC = re.compile(r"\b(?:with|against|versus|vs|beside|alongside)\b",
                        re.I)


def _between_text(fact: str, a: str, b: str) -> str:
    """The words of ``fact`` (folded, lower-cased) between the values ``a`` and ``b`` as
    written, where both are found ("" where either is not)."""
    text = fold_accents(fact).lower().replace(",", "")
    i, j = text.find(a), text.find(b)
    if i < 0 or j < 0:
        return ""
    lo, hi = sorted((i, j))
    return text[lo:hi]


def swap_conflict(fact: str, sentence: str, fact_stems: list[str], sentence_stems: set[str]
                  ) -> Conflict | None:
    """Two values of ``fact`` that ``sentence`` states in each other's slots (module
    docstring), or None."""
    name_words = frozenset(names(fact))
    fact_seq, said_seq = _sequence(fact, name_words), _sequence(sentence, name_words)

    def once(seq: list[tuple[str, str]]) -> dict[tuple[str, str], int]:
        """Each value that occurs once in ``seq``, and where."""
        seen: dict[tuple[str, str], list[int]] = {}
        for k, item in enumerate(seq):
            if item[0] != "word" and item[0] != "break":
                seen.setdefault(item, []).append(k)
        return {item: at[0] for item, at in seen.items() if len(at) == 1}

    in_fact, in_sentence = once(fact_seq), once(said_seq)
    values = [v for v in in_fact if v in in_sentence]
    for x, y in combinations(values, 2):
        if x[0] != y[0]:
            continue  # a number against a year or a name fills another kind of slot
        crossed, back, kept = None, False, False
        for side in (-1, 1):
            near_x, near_y = (_neighbours(fact_seq, in_fact[v], side) for v in (x, y))
            said_x, said_y = (_neighbours(said_seq, in_sentence[v], side) for v in (x, y))
            fx, fy, sx, sy = set(near_x), set(near_y), set(said_x), set(said_y)
            # a value keeps the word next to it, one the other value's side lacks
            kept = kept or any(before[:1] == after[:1] != [] and before[0] not in other
                               for before, after, other in ((near_x, said_x, fy),
                                                            (near_y, said_y, fx)))
            fx, fy, sx, sy = fx - fy, fy - fx, sx - sy, sy - sx
            if crossed is None and fx & sy:
                crossed = next(w for w in near_x if w in fx & sy)  # the nearest
            back = back or bool(fy & sx)
        # each took the other's word, on one side or on two ("Kramnik used it to neutralise
        # Kasparov" / "Kasparov used it to neutralise Kramnik"), and neither kept its own
        if crossed is None or not back or kept:
            continue
        between = fact_seq[min(in_fact[x], in_fact[y]) + 1: max(in_fact[x], in_fact[y])]
        if not any(kind == "word" for kind, _ in between) or _SYMMETRIC.search(
                _between_text(fact, x[1], y[1])):
            continue  # "Zala will go with Abby Bishop" / "Bishop will go with Zala": one claim
        share, size = rest_share(fact_stems, {x[1], y[1]}, sentence_stems)
        if size >= 3 and share >= SLOT_REST_SHARE:
            return Conflict("swap", f"{x[1]} ({crossed})", f"{y[1]} ({crossed})")
    return None
