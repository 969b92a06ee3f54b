"""Readers of the public data sets factgraph meta-evaluates on (one module per format)."""
