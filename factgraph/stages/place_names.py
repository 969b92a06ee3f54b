"""A place under its former name: "Bombay" is "Mumbai", "Peking" is "Beijing". A reader takes
them as one place, so the evidence that a fact is stated reads the former name as the current
one and the name check calls neither another name. A closed list of one-word names, each
standing for one place only ("Salisbury", now Harare, is also a town in England: not here;
"Saigon", now Ho Chi Minh City, has no one-word name). Pure data and one pure function."""

from __future__ import annotations

import re

# former -> current, folded to lower case without accents ("Türkiye" reads "turkiye")
FORMER_NAMES: dict[str, str] = {
    "bombay": "mumbai", "calcutta": "kolkata", "madras": "chennai", "bangalore": "bengaluru",
    "poona": "pune", "peking": "beijing", "canton": "guangzhou", "nanking": "nanjing",
    "tientsin": "tianjin", "burma": "myanmar", "rangoon": "yangon", "siam": "thailand",
    "persia": "iran", "constantinople": "istanbul", "kiev": "kyiv", "kharkov": "kharkiv",
    "odessa": "odesa", "lvov": "lviv", "dacca": "dhaka", "batavia": "jakarta",
    "christiania": "oslo", "swaziland": "eswatini", "kampuchea": "cambodia",
    "turkey": "turkiye",
}
_FORMER = re.compile(rf"\b({'|'.join(w.title() for w in FORMER_NAMES)})\b")


def current_place_names(text: str) -> str:
    """``text`` with each capitalised former name of a place as its current one ("in Bombay"
    -> "in Mumbai"; "turkey" in lower case is a bird, and stays)."""
    return _FORMER.sub(lambda m: FORMER_NAMES[m.group(1).lower()].title(), text)


def same_place_name(a: str, b: str) -> bool:
    """Whether two lower-case names are one place, one of them its former name."""
    return FORMER_NAMES.get(a, a) == FORMER_NAMES.get(b, b)
