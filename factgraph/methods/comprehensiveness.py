"""Comprehensiveness of a response against background texts (Dejl et al. 2025, §3): NLI, Q&A, E2E.

All three build the same kind of FactGraph — response statements, context statements and
entailment / contradiction relations — and score it with the one engine in ``factgraph.graph``:
``S = |covered| / (|covered| + |uncovered|)`` over context components, plus the uncovered
basis. An evaluation whose response could not be read by the model (every attempt failed) has
``S = None`` and says why in ``metadata["incomplete"]``: a parse failure is never a score of 0.

* ``nli`` (:mod:`factgraph.methods.nli`): atomize → revise → relevance filter (context only,
  ``r ≥ T_rel``) → NLI pairs (with the levers of ``factgraph.stages.nli_relations``).
* ``qa`` (:mod:`factgraph.methods.qa`): mine questions → refine + relevance → answers with
  confidence (``c ≥ T_conf``) → compare answers within each question (exact, pint, model).
* ``e2e`` (:mod:`factgraph.methods.e2e`): one judge reads the response against the texts;
  ``coverage_judge`` picks the judge kind, one module each: ``list`` (one call listing covered
  / uncovered facts), ``per-fact`` and ``answers`` (context facts, or the texts' answers to
  the query, then one yes/no question per fact: ``e2e.fact_questions``), ``sentences`` (the
  long-form judge) and ``auto``, the default (the best measured judge for the input's kind).

What they share — the options' base, the context reuse (``ContextStore``) and the steps every
run takes — is :mod:`factgraph.methods.context`. This module holds
:class:`ComprehensivenessOptions`, the options of all three in one model.
"""

from __future__ import annotations

from factgraph.methods.e2e.options import E2EOptions
from factgraph.methods.nli_spec import NLIOptions
from factgraph.methods.qa_spec import QAOptions


class ComprehensivenessOptions(NLIOptions, QAOptions, E2EOptions):
    """Every option of nli, qa and e2e in one model, for Python code that calls
    :func:`~factgraph.methods.nli.run_nli`, :func:`~factgraph.methods.qa.run_qa` or
    :func:`~factgraph.methods.e2e.method.run_e2e` directly with one set of options. Each run
    function reads (and records) only its own method's options; the registry, the config and
    the CLI use :class:`NLIOptions`, :class:`QAOptions` and :class:`E2EOptions`, so an option a
    method does not take is an error there."""
