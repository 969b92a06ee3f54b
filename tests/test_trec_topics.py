"""The TREC Web Track 2009-2012 topic reader on the real topic files (../shared/data)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from factgraph.datasets.aspects import load_aspects, read_trec_topics
from factgraph.errors import InputError


def test_all_200_topics_with_their_subtopics(shared_data: Path) -> None:
    folder = shared_data / "trec-web"
    topics = read_trec_topics(folder)
    assert [t.number for t in topics] == [str(n) for n in range(1, 201)]
    # Subtopic counts checked against a plain regex count of the raw files.
    raw = "".join(f.read_text() for f in sorted(folder.glob("topics.web.*.txt")))
    assert sum(len(t.subtopics) for t in topics) == len(re.findall(r"<subtopic\s", raw))
    assert all(1 <= len(t.subtopics) <= 8 and t.query and t.description for t in topics)
    first = topics[0]
    assert (first.query, first.type) == ("obama family tree", "faceted")
    assert [s.text for s in first.subtopics] == [
        'Find the TIME magazine photo essay "Barack Obama\'s Family Tree".',
        "Where did Barack Obama's parents and grandparents come from?",
        "Find biographical information on Barack Obama's mother."]
    assert [s.type for s in first.subtopics] == ["nav", "inf", "inf"]


def test_aspects_of_one_topic(shared_data: Path) -> None:
    folder = shared_data / "trec-web"
    aspects = load_aspects(folder / "topics.web.151-200.txt", topic="152")
    assert [a.id for a in aspects] == ["1", "2", "3", "4"]
    assert aspects[1].text == "What causes angular cheilitis?"
    assert [a.id for a in load_aspects(folder, topic="1")] == ["1", "2", "3"]
    with pytest.raises(InputError, match="pick one with --topic"):
        load_aspects(folder)
    with pytest.raises(InputError, match="no TREC topic 999"):
        load_aspects(folder, topic="999")
