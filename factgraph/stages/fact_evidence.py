"""Cheap evidence that one fact is stated in a response, fact by fact (the ``evidence`` judge).

The word check of the long-form judge (``factgraph.stages.sentence_coverage.word_share``) says
that a fact's words are *near*; a fact is *stated* when one response sentence carries its
content — its words, its phrases, its numbers and its names — or says the same in other words.
For each fact this module measures, cheapest first:

* ``word_share`` — the share of the fact's content words (light stems: "sleeping" = "sleep")
  found anywhere in the response;
* ``sentence_share`` — the same share within the best single response sentence (the
  *aligned* sentence): words scattered over the answer do not state a fact;
* ``weighted_share`` — the sentence share with each word weighted by how informative it is
  (:func:`informativeness`: names, numbers and long words weigh more than short common words);
* ``bigram_share`` — the share of the fact's adjacent content-word pairs found as a pair
  (within two words) in the aligned sentence: a phrase, not a bag of words;
* ``numbers_missing`` / ``names_missing`` — the share of the fact's numbers and names that the
  response does not contain (shorter or longer names of the same one match: "Koirala" matches
  "Anuradha Koirala");
* ``distinct_share`` / ``distinct_sentence_share`` — the word share and the aligned-sentence
  share with each word weighted by how much it sets this fact apart from the other facts of
  the same reference (:func:`distinctiveness`: a word in every fact — the topic, its main
  name — says little about whether *this* fact is stated);
* ``similarity`` — the best cosine similarity between the fact and a response sentence (one
  embedding call per response, when an embedder is given).

These are the inputs of a calibrated model (``factgraph.stages.fact_calibration``) that turns
them into ``P(stated)``. All functions here are pure: text in, numbers out.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from factgraph.stages.context_facts import content_words, fold_accents, stem
from factgraph.stages.number_forms import other_readings
from factgraph.stages.quantities import MEASURE_UNITS, equal_quantities, stated_quantities
from factgraph.stages.text_units import ends_with_abbreviation

_NUMBER = re.compile(r"\d")
_NAME = re.compile(r"\b[A-Z][a-zA-Z'’.-]*[a-zA-Z]\b|\b[A-Z]{2,}\b")


def stems(text: str) -> list[str]:
    """The stems of ``text``'s content words, in order."""
    return [stem(w) for w in content_words(text)]


def informativeness(word: str) -> float:
    """How much a content word says about a fact: a number 2.0, a word of 7 letters or more
    1.5, any other content word 1.0. A fixed rule, not a corpus statistic, so that it reads
    the same on every kind of text."""
    if _NUMBER.search(word):
        return 2.0
    return 1.5 if len(word) >= 7 else 1.0


def distinctiveness(facts: Sequence[str]) -> dict[str, float]:
    """For each stem of the facts of one reference, ``log(1 + n / df)``: ``n`` facts, ``df`` of
    them holding the stem — the inverse document frequency of the stem with the reference's
    facts as the documents (Spärck Jones 1972). A stem of every fact weighs ``log 2``, a stem
    of one fact in twenty ``log 21``. One fact alone weighs all its words alike."""
    per = [set(stems(f)) for f in facts]
    df = Counter(w for words in per for w in words)
    n = len(per)
    return {w: math.log(1.0 + n / k) for w, k in df.items()}


# a title or an abbreviation before a name or a number is no name ("Mr Miliband" is
# Miliband; "reactor No. 4" names nothing)
TITLES = frozenset({"mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr", "no", "nos", "mt",
                    "fig", "vol", "sir", "dame", "lord", "lady", "rev", "gen", "col", "capt",
                    "lt", "sgt", "gov", "sen", "rep", "pres",
                    # an office or a trade written before a surname ("Justice Ginsburg", "Chef
                    # Ramsay"); not one that is a surname or a name as often ("General",
                    # "King", "Prince", "Bishop", "Pope", "Constable", "Cardinal")
                    "president", "senator", "governor", "judge", "justice", "chancellor",
                    "minister", "mayor", "sheriff", "professor", "doctor", "coach", "chef",
                    "captain", "colonel", "lieutenant", "sergeant", "corporal", "admiral",
                    "commander", "commissioner", "inspector", "detective", "officer",
                    "ambassador", "archbishop", "rabbi", "imam", "reverend", "pastor", "chairman",
                    "chairwoman", "congressman", "congresswoman"})


def names(text: str) -> list[str]:
    """Capitalised words of ``text`` that are not the first word of a sentence (a proxy for
    names: "Anuradha", "Koirala", "CNN"), lower-cased, accents dropped ("Río" = "rio");
    titles and abbreviations ("Mr", "Dr", "No.") are no names, and the word after one is not
    a sentence's first ("Dr. Smith", "the U.S. Army")."""
    text = fold_accents(text)
    out = []
    for m in _NAME.finditer(text):
        before = text[: m.start()].rstrip()
        if not before or (before[-1] in ".!?:\"“(" and not ends_with_abbreviation(before)):
            continue  # a sentence's first word, not one after "Dr." or "U.S."
        w = m.group(0).strip(".").lower()
        if w and w not in out and w not in TITLES:
            out.append(w)
    return out


def numbers(text: str) -> list[str]:
    """The numbers of ``text`` as content words ("1986", "4", "2.5"; "four" = "4")."""
    return [w for w in content_words(text) if _NUMBER.search(w)]


@dataclass(frozen=True)
class FactEvidence:
    """The cheap evidence for one fact against one response (see the module docstring)."""

    word_share: float
    sentence_share: float
    weighted_share: float
    bigram_share: float
    numbers_missing: float
    names_missing: float
    n_words: int
    sentence: int  # index of the aligned response sentence (-1: none)
    similarity: float | None = None
    distinct_share: float = 0.0
    distinct_sentence_share: float = 0.0
    # what the aligned sentence states in another form: "UK = united kingdom", "1280 metres =
    # 1.28 km" (:func:`stated_sets`), so that a reason shows why its words count
    read_as: tuple[str, ...] = ()


def _pairs(seq: Sequence[str], window: int = 2) -> set[tuple[str, str]]:
    return {(a, seq[j]) for i, a in enumerate(seq)
            for j in range(i + 1, min(len(seq), i + 1 + window))}


# an acronym as a text writes it: "UK", "U.S.", "LLMs" (its plural), "NASA"; not a capital
# inside a word ("RoBERTa")
_ACRONYM = re.compile(r"(?<![\w.])((?:[A-Z]\.){2,}|[A-Z]{2,6})s?(?![A-Za-z])")
_LONGEST_ACRONYM = 6


def acronyms(text: str) -> frozenset[str]:
    """The acronyms ``text`` writes, lower-case, without dots ("U.S." -> "us", "LLMs" ->
    "llm")."""
    return frozenset(m.group(1).replace(".", "").lower() for m in _ACRONYM.finditer(text))


def span_initials(words: Sequence[str]) -> frozenset[str]:
    """The initials of each run of 3 to 6 of ``words`` ("large language models" -> "llm"):
    the acronyms the text spells out."""
    return frozenset("".join(w[0] for w in words[i: i + size])
                     for size in range(3, _LONGEST_ACRONYM + 1)
                     for i in range(len(words) - size + 1))


_NAME_RUN = re.compile(r"\b[A-Z][a-z]+(?:\s+(?:(?:of|and|the|for)\s+)?[A-Z][a-z]+)+")


def name_initials(text: str) -> frozenset[str]:
    """The initials of each stretch of two or more words of a name of ``text`` ("European
    Union" -> "eu"; "the Bank of England" -> "be"): the short acronyms it spells out."""
    out: set[str] = set()
    for run in _NAME_RUN.findall(fold_accents(text)):
        words = [w for w in run.split() if w[0].isupper()]
        out.update("".join(w[0] for w in words[i:j]).lower()
                   for i in range(len(words)) for j in range(i + 2, len(words) + 1))
    return frozenset(out)


def spelled_out(words: Sequence[str], acronym: str, capitalised: frozenset[str]
                ) -> list[int]:
    """The positions of the run of ``words`` whose initials are ``acronym`` ("united",
    "kingdom" for "uk"); an acronym of two letters only over capitalised words ("United
    Kingdom", not "use sparse")."""
    size = len(acronym)
    for i in range(len(words) - size + 1):
        run = words[i: i + size]
        if "".join(w[0] for w in run) == acronym and (
                size >= 3 or all(w in capitalised for w in run)):
            return list(range(i, i + size))
    return []


@dataclass
class ResponseIndex:
    """A response read once: its sentences, their stems, and the stems of the whole text."""

    sentences: list[str]
    sentence_stems: list[list[str]]
    all_stems: set[str]
    lower: str  # the whole text lower-cased, accents dropped (where names are looked up)
    sentence_sets: list[frozenset[str]]  # each sentence's stems as a set: read once, not per fact
    sentence_acronyms: list[frozenset[str]]  # "UK", "LLMs"
    sentence_initials: list[frozenset[str]]  # the acronyms it spells out
    # (number, value, unit) of each measured quantity: "1.28 km", "14 °F"
    sentence_quantities: list[list[tuple[str, float, str]]]

    @classmethod
    def of(cls, sentences: Sequence[str]) -> ResponseIndex:
        per = [stems(s) for s in sentences]
        # a number that reads two ways ("1.2m": a million or metres) states both values
        sets = [frozenset(ws) | other_readings(s) for ws, s in zip(per, sentences, strict=True)]
        return cls(sentences=list(sentences), sentence_stems=per,
                   all_stems={w for ws in sets for w in ws},
                   lower=fold_accents(" ".join(sentences)).lower(),
                   sentence_sets=sets,
                   sentence_acronyms=[acronyms(s) for s in sentences],
                   sentence_initials=[span_initials(ws) | name_initials(s)
                                      for ws, s in zip(per, sentences, strict=True)],
                   sentence_quantities=[stated_quantities(s) for s in sentences])


def weighted_hits(words: Sequence[str], weights: Sequence[float], response: ResponseIndex,
                  sets: Sequence[frozenset[str]] | None = None) -> list[float]:
    """For each response sentence, the summed weight of ``words`` it holds (``sets``: the
    sentences' stems as the fact reads them, :func:`stated_sets`; the index's by default)."""
    return [sum(wt for w, wt in zip(words, weights, strict=True) if w in have)
            for have in (response.sentence_sets if sets is None else sets)]


# what a sentence (by its index) states of a fact in another form: "UK = united kingdom"
ReadAs = dict[int, list[str]]


def stated_sets(fact: str, words: Sequence[str], response: ResponseIndex
                ) -> tuple[list[frozenset[str]], ReadAs]:
    """Each sentence's stems with the fact's words that it states in another form, and what
    the sentences so state ("UK = united kingdom", "1280 metres = 1.28 km"): an acronym
    (:func:`acronym_sets`) or a quantity in another unit ("1,280 metres" where it says "1.28
    km", "2 weeks" where it says "14 days": the fact's number and unit). Where nothing is read
    otherwise, the index's own sets, unchanged."""
    sets, notes = acronym_sets(fact, words, response)
    if not any(response.sentence_quantities):
        return sets, notes
    have = set(words)
    fact_quantities = [(n, v, u) for n, v, u in stated_quantities(fact) if n in have]
    if not fact_quantities:
        return sets, notes
    sets = list(sets)
    for i, said in enumerate(response.sentence_quantities):
        for n, v, u in fact_quantities:
            same = next(((v2, u2) for _, v2, u2 in said if n not in sets[i] and u2 != u
                         and MEASURE_UNITS[u2] == MEASURE_UNITS[u]
                         and equal_quantities(v, u, v2, u2)), None)
            if same is not None:
                sets[i] = sets[i] | {w for w in (n, stem(u)) if w in have}
                notes.setdefault(i, []).append(f"{v:g} {u} = {same[0]:g} {same[1]}")
    return sets, notes


def acronym_sets(fact: str, words: Sequence[str], response: ResponseIndex
                 ) -> tuple[list[frozenset[str]], ReadAs]:
    """Each sentence's stems with the fact's words that an acronym states, and what it so
    states: the words the sentence writes as an acronym ("United Kingdom" where it says
    "UK", "large language models" where it says "LLMs") and the fact's acronym where the
    sentence spells it out ("NASA" where it says "National Aeronautics and Space
    Administration"). An acronym and its name are one name, for the people who label facts
    too."""
    notes: ReadAs = {}
    fact_acronyms = acronyms(fact) & set(words)
    if not fact_acronyms and not any(response.sentence_acronyms):
        return response.sentence_sets, notes
    sets = list(response.sentence_sets)
    plain = content_words(fact)  # the words of ``words``, unstemmed, in order
    capitalised = frozenset(w.lower() for w in re.findall(r"\b[A-Z][a-z]+", fold_accents(fact)))
    for i, have in enumerate(sets):
        extra = set()
        for a in sorted(fact_acronyms & response.sentence_initials[i]):
            extra.add(a)
            notes.setdefault(i, []).append(f"{a.upper()} spelled out")
        for a in sorted(response.sentence_acronyms[i]):
            span = spelled_out(plain, a, capitalised)
            if span:
                extra.update(words[j] for j in span)
                notes.setdefault(i, []).append(f"{a.upper()} = {' '.join(plain[j] for j in span)}")
        if extra:
            sets[i] = have | extra
    return sets, notes


def fact_evidence(fact: str, response: ResponseIndex,
                  similarities: Sequence[float] | None = None,
                  distinct: Mapping[str, float] | None = None) -> FactEvidence:
    """The evidence that ``fact`` is stated in ``response``; ``similarities`` are the cosine
    similarities of the fact to each response sentence (None without an embedder), ``distinct``
    the :func:`distinctiveness` of the reference's stems (None: every word alike). The aligned
    sentence is the one with the largest weighted share (ties: the most similar, then the
    first); with no content word in common, the most similar sentence."""
    words = stems(fact)
    n = len(words)
    if not words or not response.sentences:
        best_e = max(similarities) if similarities is not None and len(similarities) else None
        return FactEvidence(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, n, -1,
                            None if best_e is None else float(best_e))
    weights = [informativeness(w) for w in words]
    total = sum(weights)
    sets, notes = stated_sets(fact, words, response)
    # the fact's words a sentence states in another form (an acronym, another unit)
    read_otherwise: set[str] = set() if sets is response.sentence_sets else set().union(
        *(a - b for a, b in zip(sets, response.sentence_sets, strict=True)))
    said = response.all_stems | read_otherwise
    word_share = sum(w in said for w in words) / n
    best = (-1.0, -2.0, 0)
    for i, hit in enumerate(weighted_hits(words, weights, response, sets)):
        e = float(similarities[i]) if similarities is not None else 0.0
        if (hit / total, e) > best[:2]:
            best = (hit / total, e, i)
    weighted, _, k = best
    if weighted <= 0.0 and similarities is not None and len(similarities):
        k = int(np.argmax(similarities))
    aligned = response.sentence_stems[k]
    have = sets[k]
    sentence_share = sum(w in have for w in words) / n
    fact_pairs = _pairs(words)
    bigram = (len(fact_pairs & _pairs(aligned)) / len(fact_pairs)) if fact_pairs else \
        float(sentence_share)
    nums = numbers(fact)
    numbers_missing = (sum(x not in said for x in nums) / len(nums)) if nums else 0.0
    nms = names(fact)
    # a name stated by its acronym, or an acronym spelled out ("EU" / "European Union")
    spelled = acronyms(fact) & set(nms)
    if spelled:
        spelled &= frozenset().union(*response.sentence_initials)
    names_missing = (sum(not re.search(rf"\b{re.escape(m)}\b", response.lower)
                         and stem(m) not in read_otherwise and m not in spelled for m in nms)
                     / len(nms)) if nms else 0.0
    unseen = max(distinct.values(), default=1.0) if distinct else 1.0  # a stem of no fact
    idf = [1.0 if distinct is None else distinct.get(w, unseen) for w in words]
    idf_total = sum(idf)
    distinct_share = sum(x for w, x in zip(words, idf, strict=True) if w in said) / idf_total
    distinct_sentence = max(weighted_hits(words, idf, response, sets)) / idf_total
    return FactEvidence(
        word_share=word_share, sentence_share=sentence_share, weighted_share=weighted,
        bigram_share=bigram, numbers_missing=numbers_missing, names_missing=names_missing,
        n_words=n, sentence=k,
        similarity=None if similarities is None else float(max(similarities)),
        distinct_share=distinct_share, distinct_sentence_share=distinct_sentence,
        read_as=tuple(notes.get(k, ())))


def nearest_sentences(fact: str, response: ResponseIndex, k: int) -> list[int]:
    """The indices of the ``k`` response sentences holding the largest weighted share of
    ``fact``'s content words (ties: the earlier), in the response's order: the evidence a
    model reads about the fact (a name or number said in the sentence before, the rest of a
    fact told over two sentences)."""
    words = stems(fact)
    if not words or not response.sentences:
        return []
    hits = weighted_hits(words, [informativeness(w) for w in words], response)
    ranked = sorted(range(len(hits)), key=lambda i: (-hits[i], i))
    return sorted(ranked[:k])


FEATURES = ("word_share", "sentence_share", "weighted_share", "bigram_share",
            "numbers_missing", "names_missing", "log_words", "distinct_share",
            "distinct_sentence_share", "similarity")


def feature_values(ev: FactEvidence) -> dict[str, float]:
    """Every feature of :data:`FEATURES` by name (``similarity`` 0 without an embedder)."""
    return {"word_share": ev.word_share, "sentence_share": ev.sentence_share,
            "weighted_share": ev.weighted_share, "bigram_share": ev.bigram_share,
            "numbers_missing": ev.numbers_missing, "names_missing": ev.names_missing,
            "log_words": math.log1p(ev.n_words), "distinct_share": ev.distinct_share,
            "distinct_sentence_share": ev.distinct_sentence_share,
            "similarity": 0.0 if ev.similarity is None else ev.similarity}


def feature_vector(ev: FactEvidence, features: Sequence[str]) -> list[float]:
    """The values of ``features`` (names of :data:`FEATURES`, as a calibration lists them), in
    that order, for the calibrated model."""
    values = feature_values(ev)
    return [values[name] for name in features]
