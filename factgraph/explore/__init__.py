"""``factgraph explore``: a local web app over a results file or the fact database.

Pages: queries and models on the left; per query the coverage matrix, the leaderboard and each
response's graph view; a panel that runs the named read-only queries of ``cypher/queries``.
Starlette and uvicorn are imported only by ``factgraph.explore.app`` (extra ``explore``).
"""
