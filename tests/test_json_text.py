"""The indented JSON writer of ``analyze --format json`` writes exactly what
``json.dumps(obj, indent=2, ensure_ascii=False)`` writes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from factgraph.cli.json_text import dumps_indented

SCALARS = (st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
           | st.text())
KEYS = st.text() | st.integers() | st.floats() | st.booleans() | st.none()
VALUES = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner)
    | st.dictionaries(KEYS, inner, max_size=5) | st.lists(st.text(), max_size=5),
    max_leaves=40)


@settings(max_examples=300, deadline=None)
@given(VALUES)
def test_same_text_as_json_dumps(value: Any) -> None:
    assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_escapes_and_special_numbers() -> None:
    value = {"s": ["é\u2028\x00\"\\\n\t", "😀"], "f": [1e-05, 1e16, float("nan"), -float("inf")],
             "e": {"l": [], "d": {}}, 1.5: True, None: False}
    assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_refuses_what_json_refuses() -> None:
    with pytest.raises(TypeError):
        dumps_indented({"x": {1, 2}})
    with pytest.raises(TypeError):
        dumps_indented({(1, 2): 1})
