"""Docstrings and docs cite papers (e.g. "Dejl et al. 2025, §3.1"), never the project's internal
source-document numbers, which readers of the repository do not have (issue 29, item 6)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INTERNAL_CITATION = re.compile(r"seed\s*0\d\d", re.IGNORECASE)


def _tracked(*patterns: str) -> list[str]:
    try:
        out = subprocess.run(["git", "ls-files", "-z", "--", *patterns], cwd=ROOT,
                             capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    return [name for name in out.decode("utf-8").split("\0") if name]


def test_no_tracked_python_or_markdown_file_cites_a_source_document_number() -> None:
    files = _tracked("*.py", "*.md")
    assert files, "git ls-files listed no .py / .md file"
    hits = []
    for name in files:
        path = ROOT / name
        if not path.is_file():  # deleted in the working tree, not yet in the index
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if INTERNAL_CITATION.search(line):
                hits.append(f"{name}:{number}: {line.strip()}")
    assert not hits, "cite the paper (First-author et al. YEAR, §x) instead:\n" + "\n".join(hits)
