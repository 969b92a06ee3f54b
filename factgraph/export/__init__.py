"""Evaluations as tables: the rows of DataFrames and of ``factgraph export``."""
