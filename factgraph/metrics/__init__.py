"""Pure score functions. Each docstring gives the formula and the source (seed) section.

- :mod:`factgraph.metrics.icat` — ICAT_β, factuality and coverage (seed 000 §3; seed 003).
- :mod:`factgraph.metrics.factual` — factual precision / recall with importance (seed 002 §3).
- :mod:`factgraph.metrics.lmr` — label match rates for comprehensiveness (seed 001 App. B).
- :mod:`factgraph.metrics.bootstrap` — BCa bootstrap confidence intervals.
"""

from factgraph.graph import comprehensiveness_score

__all__ = ["comprehensiveness_score"]
