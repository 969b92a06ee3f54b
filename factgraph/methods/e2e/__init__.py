"""End-to-end comprehensiveness (``--method e2e``, Dejl et al. 2025, §3.3): one judge reads the
response against the background texts. ``coverage_judge`` picks the judge kind: ``auto`` (the
default: the best measured judge for the input's kind), ``list``, ``per-fact``, ``answers`` or
``sentences`` — each one module here, registered in :mod:`factgraph.methods.e2e.kinds`.

``method`` holds the method (``run_e2e``, ``E2E``), ``options`` the options (``E2EOptions``
and the field groups the kinds share)."""
