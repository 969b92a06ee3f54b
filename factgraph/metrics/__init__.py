"""Pure score functions. Each docstring gives the formula and the source paper's section.

- :mod:`factgraph.metrics.icat` — ICAT_β, factuality and coverage (Samarinas et al. 2025, §3;
  graded coverage from an ICAT integration guide for a LangGraph multi-agent RAG system).
- :mod:`factgraph.metrics.factual` — factual precision / recall with importance (Jafari et al.
  2026, §3).
- :mod:`factgraph.metrics.lmr` — label match rates for comprehensiveness (Dejl et al. 2025, App. B).
- :mod:`factgraph.metrics.bootstrap` — BCa bootstrap confidence intervals.
"""

from factgraph.graph import comprehensiveness_score

__all__ = ["comprehensiveness_score"]
