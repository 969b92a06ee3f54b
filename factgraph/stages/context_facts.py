"""Context facts for per-fact coverage: the facts of each background text that bear on the
query, extracted once per (query, text) and reused by every response to that query.

Two kinds: ``facts`` (prompt ``context_facts``: every fact a complete answer should mention, as
self-contained sentences) and ``answers`` (prompt ``query_answers``: the answer, or answers,
each text gives to the query itself, as short phrases; the answer-coverage judge).

The response is never shown, so a listed fact cannot be an echo of the response. A grounding
check drops a fact that its own text does not support lexically: fewer than
``min_overlap`` of its content words occur in the text, or it carries a number the text does not
have (a small model sometimes "corrects" a figure). Exact duplicates across texts (WikiContradict
has rows whose two contexts are the same text) are merged, keeping every source.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, create_model

from factgraph.stages.atomize import clip_text
from factgraph.stages.number_forms import (  # NUMBER_WORDS: read from here by other stages
    NUMBER_WORDS,
    PERCENT,
    TENS,
    numbers_as_values,
    split_glued_units,
)
from factgraph.stages.place_names import current_place_names
from factgraph.stages.session import ModelSession

STOPWORDS = frozenset([
    "the", "and", "for", "are", "was", "were", "has", "have", "had", "that", "this", "with",
    "from", "which", "who", "whom", "whose", "what", "when", "where", "why", "how", "its", "his",
    "her", "their", "they", "them", "then", "than", "but", "not", "nor", "all", "any", "can",
    "could", "would", "should", "will", "into", "onto", "over", "under", "about", "after",
    "before", "also", "been", "being", "did", "does", "doing", "one", "two", "per", "via",
])


class FactList(BaseModel):
    model_config = ConfigDict(extra="ignore")

    facts: list[str] = Field(validation_alias=AliasChoices("facts", "answers"))


class ContextFact(BaseModel):
    text: str
    sources: list[str] = Field(description="Keys of the texts that gave this fact.")


def fold_accents(text: str) -> str:
    """``text`` without accents ("José Sánchez del Río" -> "Jose Sanchez del Rio"): one name,
    two spellings, and a fact written without the accents its response has is still stated.
    ASCII text is returned as it is, before the cache, so it never fills it."""
    return text if text.isascii() else _fold_non_ascii(text)


@lru_cache(maxsize=256)
def _fold_non_ascii(text: str) -> str:
    # cached: a response's sentences are folded once, not once per fact
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def ordinals_as_numbers(text: str) -> str:
    """``text`` with each ordinal in digits read as its number ("147th" -> "147"): the one
    reading of the content words and of the contradiction check's numbers."""
    return _ORDINAL.sub(r"\1", text)


_ORDINAL = re.compile(r"\b(\d+)(?:st|nd|rd|th)\b")


_LETTERS = r"[^\W\d_]"  # a letter of any script
_NUMBER_WORD_HYPHEN = re.compile(rf"\b({'|'.join(NUMBER_WORDS)})-(?={_LETTERS})")
_TENS_WORDS = {w: str(n) for w, n in TENS.items()}  # "thirty" alone is 30
_COMPOUND_NUMBER = re.compile(rf"\b({'|'.join(TENS)})-({'|'.join(list(NUMBER_WORDS)[1:10])})\b")


def as_digits(word: str) -> str:
    """A lower-case number word in digits ("seven" -> "7", "thirty" -> "30"), any other word
    as it is: one reading for the content words and the contradiction check's tokens."""
    return NUMBER_WORDS.get(word) or _TENS_WORDS.get(word, word)


# a magnitude written onto its number, as news text does ("£60million", "$3bn", "$7m")
_GLUED_MAGNITUDE = re.compile(r"\b(\d+(?:[.,]\d+)?)(million|billion|trillion|thousand|bn|m)\b",
                              re.I)
_MAGNITUDE_WORD = {"bn": "billion"}


def split_glued_magnitudes(text: str) -> str:
    """``text`` with a magnitude written onto its number set apart ("£60million" -> "£60
    million", "$3bn" -> "$3 billion", "$7m" -> "$7 m"), so the number is a number for every
    reader: the content words and the contradiction check's number slots."""
    return _GLUED_MAGNITUDE.sub(
        lambda m: f"{m.group(1)} {_MAGNITUDE_WORD.get(m.group(2).lower(), m.group(2))}", text)


def _compound_number(m: re.Match[str]) -> str:
    return str(TENS[m.group(1)] + int(NUMBER_WORDS[m.group(2)]))


def content_words(text: str, values: bool = True) -> list[str]:
    """Content words: ≥3 letters or a number (accents dropped: "Río" = "rio"; letters of any
    script; spelled-out numbers up to twenty as digits, ordinals as their number, a hyphen
    between letters dropped: "non-selective" = "nonselective", except after a number word,
    which stays a number as a digit's hyphen leaves it: "seven-year" = "7-year" = "7", "year";
    "twenty-one" = "21"; a number in any of its spellings is its value:
    ``numbers_as_values``, "1,200,000" = "1.2 million" = "£1.2m" = "1200000", "5.0" = "5";
    a magnitude written onto a number without a currency sign stands apart: "7m" = "7"; a
    date, a time of day, a century, a decade and a fraction in one form: "1986-04-26" = "26
    April 1986", "9:30 pm" = "21:30", "half a million" = "500000", "half of" = "about 50
    percent of"; "%" and "per cent" = "percent").
    ``values=False`` keeps each number as written ("1,500", "2.1", "million"): what a change
    to the text's own spelling must find."""
    # numbers before the case goes: "8.3M" is 8.3 million, "8.3m" may be metres
    plain = current_place_names(fold_accents(text))  # "Bombay" is "Mumbai"
    plain = split_glued_units(plain)  # "8GB" is 8 GB
    if values:  # "5%" and "5 per cent" are "5 percent"; "half of" is "about 50 percent of"
        plain = PERCENT.sub(" percent", numbers_as_values(plain))
    plain = ordinals_as_numbers(plain.lower())
    plain = _NUMBER_WORD_HYPHEN.sub(r"\1 ", _COMPOUND_NUMBER.sub(_compound_number, plain))
    plain = split_glued_magnitudes(plain)
    plain = re.sub(rf"(?<={_LETTERS})-(?={_LETTERS})", "", plain)
    words = [as_digits(w)
             for w in re.findall(r"(?:[^\W_])+(?:[.,][0-9]+)*", plain)]
    return [w for w in words
            if (len(w) >= 3 or w.isdigit()) and w not in STOPWORDS]


def stem(word: str) -> str:
    """A light suffix-stripping stem, enough to match inflections ("sleeping", "slept" stay
    apart; "sleeps", "sleeping" = "sleep"; "injuries" = "injury"; "studied" = "study"). An
    "-es" goes whole only after ch, sh, x and z ("boxes" = "box"), else as an "-s" ("causes"
    = "cause", "times" = "time"). Numbers are left as they are."""
    if not word.isalpha() or len(word) <= 3:
        return word
    for suffix, repl, min_len in (("ies", "y", 5), ("ied", "y", 5), ("sses", "ss", 5),
                                  ("ing", "", 6), ("ed", "", 5), ("ches", "ch", 6),
                                  ("shes", "sh", 6), ("xes", "x", 5), ("zes", "z", 5),
                                  ("ly", "", 6), ("s", "", 4)):
        if word.endswith(suffix) and len(word) >= min_len:
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                return word
            base = word[: len(word) - len(suffix)] + repl
            if suffix in ("ing", "ed") and len(base) > 3 and base[-1] == base[-2] \
                    and base[-1] not in "lsz":
                base = base[:-1]  # "stopped" -> "stop"
            return base
    return word


def grounding_overlap(fact: str, source: str, stemmed: bool = False) -> float:
    """Share of the fact's content words (≥3 letters or a number, no stop word; "one" = "1")
    found in the source text; a number missing from the source makes it 0 (a number a model
    "corrected" is made up, however many words it shares). With ``stemmed``, words match by
    their :func:`stem` ("injuries" = "injury", "sleeping" = "sleep"): a statement the
    model wrote in other inflections is still the text's. No content word: 0."""
    def words_of(text: str) -> list[str]:
        words = content_words(text)
        return [stem(w) for w in words] if stemmed else words

    fact_words = words_of(fact)
    if not fact_words:
        return 0.0
    source_words = set(words_of(source))
    if any(any(c.isdigit() for c in w) and w not in source_words for w in fact_words):
        return 0.0
    return sum(w in source_words for w in fact_words) / len(fact_words)


_YES_NO = re.compile(r"^\s*(yes|no)\b[\s,.;:!-]*", re.I)


def grounded(text: str, source: str, min_overlap: float,
              kind: Literal["facts", "answers"]) -> bool:
    """The grounding check; an answer's leading "yes" / "no" is the answer to a yes/no
    question, not a word of the text: it is checked without it, and a bare "yes" / "no"
    (nothing left to check) passes."""
    if kind == "answers":
        rest = _YES_NO.sub("", text, count=1)
        if rest != text and not content_words(rest):
            return True
        text = rest
    return grounding_overlap(text, source) >= min_overlap


def _normal(text: str) -> str:
    return " ".join(text.lower().split()).rstrip(".")


def _read_jointly(session: ModelSession, query: str, texts: Mapping[str, str], max_answers: int,
                  stage: str) -> list[FactList | None]:
    """Every text's answers in one call (``query_answers_joint``), split back per text; the
    call's trace stands for every text."""
    keys = list(texts)
    fields = [f"text_{n}" for n in range(1, len(keys) + 1)]
    shown = "\n\n".join(f"TEXT {n}:\n{clip_text(session, k, texts[k])}"
                         for n, k in enumerate(keys, 1))
    chat = session.prompt("query_answers_joint").messages(query=query, texts=shown)
    item = {"type": "array", "items": {"type": "string"}, "maxItems": max_answers}
    schema = {"type": "object", "properties": dict.fromkeys(fields, item), "required": fields}
    field_types: dict[str, Any] = {f: (list[str], ...) for f in fields}
    reply_cls: type[BaseModel] = create_model("JointAnswers", **field_types)
    params = session.params.model_copy(update={"json_schema": schema})
    [reply] = session.structured(stage, [chat], reply_cls, items=["joint"], params=params)
    if reply is None:
        return [None] * len(keys)
    trace = session.trace_for(stage, "joint")
    if trace is not None:
        for k in keys:
            session.item_traces[(stage, k)] = trace
    return [FactList(facts=getattr(reply, f)) for f in fields]


def extract_context_facts(
    session: ModelSession, query: str, texts: Mapping[str, str], max_facts: int = 8,
    min_overlap: float | None = 0.5, stage: str = "facts",
    kind: Literal["facts", "answers"] = "facts", quote: bool = False, joint: bool = False,
) -> list[ContextFact] | None:
    """The grounded, de-duplicated facts (or query answers) of ``texts`` (keys kept as
    sources), in text order.

    ``None`` when no text gave a usable reply (recorded by the session); a text that gave an
    empty list simply contributes nothing. With ``joint`` (answers only, two or more texts)
    one call reads every text's answers with all texts in view (``query_answers_joint``), so
    the model sees where they disagree; grounding still checks each answer against its own
    text.
    """
    keys = list(texts)
    quote = quote and kind == "answers"
    joint = joint and kind == "answers" and len(keys) > 1
    if joint:
        replies = _read_jointly(session, query, texts, max_facts, stage)
    else:
        p = session.prompt("context_facts" if kind == "facts" else
                        "query_answers_quoted" if quote else "query_answers")
        chats = [p.messages(query=query, text=clip_text(session, k, texts[k])) for k in keys]
        # The schema bounds the list, so constrained decoding stops a small model from
        # looping; with ``quote`` the model writes the words of the text that settle the
        # query first.
        props: dict[str, Any] = {"quote": {"type": "string", "maxLength": 400}} if quote else {}
        props[kind] = {"type": "array", "items": {"type": "string"}, "maxItems": max_facts}
        schema = {"type": "object", "properties": props, "required": list(props)}
        params = session.params.model_copy(update={"json_schema": schema})
        replies = session.structured(stage, chats, FactList, items=keys, params=params)
    if all(r is None for r in replies):
        return None
    facts: list[ContextFact] = []
    seen: dict[str, ContextFact] = {}
    for key, reply in zip(keys, replies, strict=True):
        if reply is None:
            session.count(f"{stage}.unreadable_texts")
            continue
        listed = [" ".join(f.split()) for f in reply.facts if f and f.strip()]
        if len(listed) > max_facts:
            session.hit_limit(f"max_facts={max_facts}: {key} listed {len(listed)}")
            listed = listed[:max_facts]
        for text in listed:
            if min_overlap is not None and not grounded(text, texts[key], min_overlap, kind):
                session.count(f"{stage}.ungrounded")
                continue
            norm = _normal(text)
            if norm in seen:
                if key not in seen[norm].sources:
                    seen[norm].sources.append(key)
                session.count(f"{stage}.duplicates")
                continue
            fact = ContextFact(text=text, sources=[key])
            seen[norm] = fact
            facts.append(fact)
    session.count(f"{stage}.kept", len(facts))
    return facts
