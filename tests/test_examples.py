"""Committed examples are exactly what their generators write (so running a generator, as the
README suggests, never leaves a change behind)."""

from __future__ import annotations

from pathlib import Path

from examples.heber_results import heber_evaluations

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_heber_results_equal_their_generator() -> None:
    written = "".join(ev.model_dump_json() + "\n" for ev in heber_evaluations())
    committed = (EXAMPLES / "heber_results.jsonl").read_text()
    assert committed == written, "run `python examples/heber_results.py` and commit the result"
