"""Frozen, list-based copies of the report and the coverage matrix: test oracles."""
