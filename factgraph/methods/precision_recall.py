"""Importance-weighted factual precision and recall (Jafari et al. 2026, §3).

Pipeline: evidence passages → facts per passage → exact + near-duplicate merging (clustering of
embeddings, ``factgraph.stages.reference_facts``) → relevance and salience ratings → importance
``imp = α·r̂ + β·ŝ`` → reference set F*(q) (budget ``k`` and/or ``importance_threshold``) →
claims of the response → precision verdicts (evidence ⇒ claim, NLI) and recall verdicts
(claim ⇒ fact, NLI) → scores (``factgraph.metrics.factual``).

The fact graph holds three kinds of statements: reference facts (``origin=context``,
``kind=fact``, with relevance / salience / importance), claims (``origin=response``,
``kind=claim``) and evidence passages (``origin=context``, ``kind=atom``,
``metadata.role="evidence"``); relations are passage → claim ``entails`` / ``contradicts`` and
claim → fact ``entails``. Evidence passages are context statements that no response statement
ever entails, so on the full graph they would read as "uncovered". Recall is therefore read
off the subgraph of facts and claims (``factgraph.graph.analyze`` on it: a fact is covered
when a claim entails it); evidence passages never count for or against recall. Use
``metadata.role == "evidence"`` to filter them when analysing the stored graph yourself.

Empty cases (never a silent 0; every ``None`` score has its reason in
``metadata["undefined"]``):

* response unreadable by the model → every score ``None``, ``metadata["incomplete"]``;
* no claims (empty response, or an abstention such as "I don't know") → precision and the
  rates are ``None``; recall is 0 (every reference fact is genuinely missed); F1 ``None``;
* no evidence → precision ``None`` (nothing to verify against); no reference fact (nothing
  extracted, or everything pruned) → recall, weighted recall, recall@k, F1 and ρ ``None``;
* weighted recall ``None`` when no fact has a known, non-zero importance.
"""

from __future__ import annotations

import logging
from typing import Any

from factgraph.datasets.argue_io import load_documents
from factgraph.graph import analyze
from factgraph.inputs import Document, EvaluationInput
from factgraph.methods.assemble import assemble
from factgraph.methods.given_facts import given_fact_statements
from factgraph.methods.prf_spec import PRFOptions
from factgraph.metrics.factual import (
    claim_fact_ratio,
    contradiction_rate,
    f1_score,
    factual_precision,
    factual_recall,
    not_supported_rate,
    recall_at_k,
    weighted_recall,
)
from factgraph.models import (
    Evaluation,
    FactGraph,
    Origin,
    Statement,
    StatementKind,
    Verdict,
)
from factgraph.stages.atomize import atomize, clip_text
from factgraph.stages.claim_verdicts import coverage, precision_verdicts
from factgraph.stages.importance import rate_importance, select_reference
from factgraph.stages.session import ModelSession

log = logging.getLogger(__name__)

RESPONSE = "response"


def _evidence(inp: EvaluationInput, options: PRFOptions) -> list[Document]:
    if options.evidence:
        return load_documents(options.evidence)
    if options.corpus:
        from factgraph.retrieval import retrieve_documents  # BM25 (extra: retrieval)

        # The top passages for the query are the evidence (Jafari et al. 2026, §3.2.1).
        return retrieve_documents(inp.query, options.corpus, k=options.retrieve_k,
                                  embeddings=None)
    return list(inp.documents)


def _scores(n_claims: int, counts: dict[str, int], has_evidence: bool,
            fact_imps: list[float | None], covered: list[bool],
            k: int | None) -> tuple[dict[str, float | None], dict[str, str]]:
    """Every score of Jafari et al. 2026 with the reason for each undefined one."""
    why: dict[str, str] = {}
    judged = n_claims - counts["unjudged"]
    if not has_evidence:
        prec = crate = nsrate = None
        why["precision"] = "no evidence passages to verify claims against"
    elif judged == 0:
        prec = crate = nsrate = None
        why["precision"] = ("no claims (empty response or abstention)" if n_claims == 0
                            else "no claim could be judged")
    else:
        prec = factual_precision(counts["supported"], judged)
        crate = contradiction_rate(counts["contradicted"], judged)
        nsrate = not_supported_rate(counts["not_supported"], judged)
    n_facts = len(fact_imps)
    rec = factual_recall(sum(covered), n_facts)
    known = [(w, c) for w, c in zip(fact_imps, covered, strict=True) if w is not None]
    wrec = weighted_recall([w for w, _ in known], [c for _, c in known]) if known else None
    ranking = [-1.0 if w is None else w for w in fact_imps]  # unknown importance ranks last
    r_at = {kk: recall_at_k(ranking, covered, kk) if n_facts else None for kk in (1, 5)}
    if n_facts == 0:
        why["recall"] = "no reference facts (none extracted, or all pruned)"
    elif wrec is None:
        why["weighted_recall"] = "no reference fact has a known, non-zero importance"
    f1 = f1_score(prec, rec)
    if f1 is None:
        why["f1"] = "precision or recall is undefined"
    rho = claim_fact_ratio([n_claims], [n_facts])
    if rho is None:
        why["claim_fact_ratio"] = "no reference facts"
    scores: dict[str, float | None] = {
        "precision": prec, "contradiction_rate": crate, "not_supported_rate": nsrate,
        "recall": rec, "weighted_recall": wrec, "recall_at_1": r_at[1], "recall_at_5": r_at[5],
        "f1": f1, "claim_fact_ratio": rho,
        "n_claims": float(n_claims), "n_supported": float(counts["supported"]),
        "n_contradicted": float(counts["contradicted"]),
        "n_not_supported": float(counts["not_supported"]),
        "n_unjudged_claims": float(counts["unjudged"]),
        "n_facts": float(n_facts), "n_covered": float(sum(covered)),
    }
    if k is not None:
        scores["recall_at_k"] = recall_at_k(ranking, covered, k) if n_facts else None
    return scores, why


def _extracted_reference(session: ModelSession, inp: EvaluationInput, options: PRFOptions,
                         passages: dict[str, str], doc_of: dict[str, str]
                         ) -> tuple[list[Statement], dict[str, Any]]:
    """F*(q) from the evidence: facts extracted per passage, merged, rated, pruned."""
    # scipy's clustering loads here, not with the registry's options (``factgraph --help``)
    from factgraph.stages.reference_facts import deduplicate, extract_facts

    extracted, unreadable = extract_facts(session, passages) if passages else ([], [])
    clusters = deduplicate(session, extracted, options.dedup_threshold)
    rated = rate_importance(session, inp.query, [c.canonical.text for c in clusters],
                            options.alpha, options.beta)
    keep = select_reference([r.importance for r in rated], options.k,
                            options.importance_threshold)
    facts: list[Statement] = []
    for rank, i in enumerate(keep, 1):
        cl, r = clusters[i], rated[i]
        facts.append(Statement(
            id=f"f{rank}", text=cl.canonical.text, origin=Origin.context,
            source_id=doc_of[cl.canonical.passage], kind=StatementKind.fact,
            relevance=r.relevance, salience=r.salience, importance=r.importance,
            trace_id=cl.canonical.trace_id,
            metadata={"rank": rank, "sources": [doc_of[p] for p in cl.sources],
                      "merged": [m.text for m in cl.members if m.text != cl.canonical.text]}))
    kept = set(keep)
    pruned = [{"text": clusters[i].canonical.text, "importance": rated[i].importance}
              for i in range(len(clusters)) if i not in kept]

    meta: dict[str, Any] = {"n_extracted": len(extracted), "n_after_dedup": len(clusters),
                            "unreadable_passages": [doc_of[p] for p in unreadable],
                            "pruned_facts": pruned}
    return facts, meta


def _given_reference(session: ModelSession, inp: EvaluationInput, options: PRFOptions
                     ) -> tuple[list[Statement], dict[str, Any]]:
    """F*(q) from the input's given facts: each one reference fact as given (ids ``g<n>``,
    ``factgraph.methods.given_facts``), rated for importance and pruned like extracted ones."""
    given = given_fact_statements(inp)
    rated = rate_importance(session, inp.query, [g.text for g in given], options.alpha,
                            options.beta)
    keep = select_reference([r.importance for r in rated], options.k,
                            options.importance_threshold)
    facts = [given[i].model_copy(update={
                 "relevance": rated[i].relevance, "salience": rated[i].salience,
                 "importance": rated[i].importance,
                 "metadata": {**given[i].metadata, "rank": rank}})
             for rank, i in enumerate(keep, 1)]
    kept = set(keep)
    pruned = [{"text": given[i].text, "importance": rated[i].importance}
              for i in range(len(given)) if i not in kept]
    return facts, {"n_given": len(given), "pruned_facts": pruned}


def run_prf(inp: EvaluationInput, session: ModelSession, options: PRFOptions) -> Evaluation:
    """Factual precision / recall / weighted recall / recall@k / F1 of one response."""
    params: dict[str, Any] = {}  # the Evaluator records the method, options and models
    docs = _evidence(inp, options)
    passages = {f"e{n}": clip_text(session, d.id, d.text) for n, d in enumerate(docs, 1)}
    doc_of = {f"e{n}": d.id for n, d in enumerate(docs, 1)}
    evidence = [Statement(id=pid, text=text, origin=Origin.context, source_id=doc_of[pid],
                          metadata={"role": "evidence"}) for pid, text in passages.items()]

    # Reference facts F(q) -> importance -> F*(q): given facts are F(q) as given (no
    # extraction, no merging); else extracted from the evidence and merged.
    facts, meta = (_given_reference(session, inp, options) if inp.facts else
                   _extracted_reference(session, inp, options, passages, doc_of))
    claims_text = atomize(session, {RESPONSE: inp.response}, stage="claims")[RESPONSE] \
        if inp.response.strip() else []
    if claims_text is None:
        graph = FactGraph(query=inp.query, statements=[*facts, *evidence])
        reason = "the response could not be split into claims"
        log.warning("%s: %s", inp.id, reason)
        return assemble(eval_id=inp.id, method="prf", graph=graph, session=session,
                        parameters=params, scores={"precision": None, "recall": None, "f1": None},
                        response_id=inp.response_id, model=inp.model,
                        metadata={**meta, "incomplete": reason})
    ctrace = session.trace_for("claims", RESPONSE)
    claims = [Statement(id=f"c{n}", text=t, origin=Origin.response, source_id=inp.response_id,
                        kind=StatementKind.claim, trace_id=ctrace)
              for n, t in enumerate(claims_text, 1)]
    claim_texts = {c.id: c.text for c in claims}

    verdicts_c, prec_rel = precision_verdicts(session, claim_texts, passages) \
        if passages else ({}, [])
    covering, judged_f, cov_rel = coverage(session, claim_texts, {f.id: f.text for f in facts})

    graph = FactGraph(query=inp.query, statements=[*facts, *claims, *evidence],
                      relations=[*cov_rel, *prec_rel])
    # Recall on the facts + claims subgraph: evidence passages never enter coverage.
    sub = FactGraph(query=inp.query, statements=[*facts, *claims], relations=cov_rel)
    cov = analyze(sub)
    covered_ids = {m for comp in cov.covered() for m in comp.members}
    # A fact none of whose pairs could be judged is left out of recall (never a guessed miss).
    scored = [f for f in facts if judged_f[f.id] or not claims or f.id in covered_ids]
    covered = [f.id in covered_ids for f in scored]

    counts = {"supported": 0, "contradicted": 0, "not_supported": 0, "unjudged": 0}
    verdicts: list[Verdict] = []
    for c in claims:
        v = verdicts_c.get(c.id)
        clabel = v.label if v is not None else "unjudged"
        counts[clabel] += 1
        verdicts.append(Verdict(statement_id=c.id, label=clabel,
                                evidence=v.passages if v else [],
                                probability=v.probability if v else None))
    scored_ids = {f.id for f in scored}
    for f in facts:
        label = "covered" if f.id in covered_ids else (
            "not_covered" if f.id in scored_ids else "unjudged")
        verdicts.append(Verdict(statement_id=f.id, label=label, evidence=covering[f.id]))

    scores, why = _scores(len(claims), counts, bool(passages),
                          [f.importance for f in scored], covered, options.k)
    scores["n_unjudged_facts"] = float(len(facts) - len(scored))
    meta["undefined"] = why
    return assemble(eval_id=inp.id, method="prf", graph=graph, session=session,
                    parameters=params, scores=scores, verdicts=verdicts,
                    response_id=inp.response_id, model=inp.model, metadata=meta)
