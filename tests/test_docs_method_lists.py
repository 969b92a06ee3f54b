"""The README's and docs/cli.md's lists of methods follow the registry (issue 34, item 6): a
method added to ``BUILTIN_METHODS``, or one taken away, fails here until the docs say so."""

from __future__ import annotations

import re
from fnmatch import fnmatch
from pathlib import Path

from factgraph.methods import METHODS
from factgraph.methods.registry import BUILTIN_METHODS

REPO = Path(__file__).resolve().parent.parent
BUILT_IN = [m for m in METHODS if m in BUILTIN_METHODS]  # registry order, no plugin


def _paragraph(text: str, start: str) -> str:
    begin = text.index(start)
    end = text.find("\n\n", begin)
    return text[begin:end if end > 0 else None]


def _names(text: str) -> list[str]:
    """The backticked words that look like method names (``icat-*`` included)."""
    return re.findall(r"`([a-z][a-z0-9*]*(?:-[a-z0-9*]+)*)`", text)


def _covers(listed: list[str], method: str) -> bool:
    return any(fnmatch(method, pattern) for pattern in listed)


def test_the_readme_lists_every_built_in_method_and_no_other() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    begin = readme.index("Methods: ")
    listed = _names(readme[begin:readme.index(" Method options are flags", begin)])
    assert listed == BUILT_IN, f"README.md 'Methods:' lists {listed}; the registry has " \
                               f"{BUILT_IN}"


def test_cli_md_names_each_methods_main_score_as_the_registry_does() -> None:
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    sentence = _paragraph(text, "`evaluate` and `batch` take **`--fail-under S`**")
    clauses = re.search(r"main one \((.*?)\);", sentence, re.S)
    assert clauses, "docs/cli.md: the gate's paragraph no longer says each method's main score"
    said: dict[str, list[str]] = {}
    for clause in clauses.group(1).split(";"):
        score, _, methods = " ".join(clause.split()).partition(" for ")
        said[score.strip("`")] = _names(methods)
    for method in BUILT_IN:
        main = METHODS[method].main_score
        assert main in said and _covers(said[main], method), \
            f"docs/cli.md: {method}'s main score is {main} (the registry), not said so"
    assert all(any(fnmatch(m, p) for m in BUILT_IN) for names in said.values() for p in names)


def test_cli_md_says_what_every_built_in_method_does_with_given_facts() -> None:
    text = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    table = _paragraph(text, "| method / judge | with given facts |")
    first_cells = [_names(row.split("|")[1]) for row in table.splitlines()[2:]]
    listed = [n for cell in first_cells for n in cell]
    missing = [m for m in BUILT_IN if not _covers(listed, m)]
    assert not missing, f"docs/cli.md's given-facts table leaves out {missing}"
