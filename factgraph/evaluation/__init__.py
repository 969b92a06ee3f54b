"""Meta-evaluation: how far factgraph's scores agree with people (pure statistics)."""
