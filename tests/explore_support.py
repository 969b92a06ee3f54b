"""Shared pieces of the explorer tests: a real uvicorn on 127.0.0.1 and the hand-checked
matrix of the examples."""

from __future__ import annotations

from factgraph.explore.serving import serve_in_background as serve

__all__ = ["serve"]

HEBER_QUERY = "Did Bishop Heber meet D’Oyly in the 1840s in Patna ?"
# The coverage matrix of HEBER_QUERY in examples/heber_results.py, worked out by hand (see
# tests/test_matrix.py): columns ans-a, ans-c (model-a), ans-b (model-b).
HEBER_COLUMNS = ["ans-a", "ans-c", "ans-b"]
HEBER_MATRIX = {
    "Bishop Heber described Charles D'Oyly as the best gentleman artist he ever met.":
        ["basis", "basis", "basis"],
    "Charles D'Oyly worked for the Company for forty years.": ["basis", "basis", "basis"],
    "Failing health compelled Charles D'Oyly to retire.": ["basis", "basis", "basis"],
    # c1a and c1d are one row (one SCC); the engine's representative text names it
    "Bishop Heber visited Patna in the 1840s.": ["covered", "basis", "basis"],
    "Charles D'Oyly retired and left India in 1838.": ["basis", "covered", "basis"],
    "Bishop Heber met Charles D'Oyly.": ["uncovered", "uncovered", "covered"],
    "Charles D'Oyly left India in 1838.": ["covered", "covered", "uncovered"],
}
HEBER_MISSED_BY_ALL = 3
