"""The ``factgraph`` command line."""
