"""ARGUE evaluation of a report with citations (Mayfield et al. 2024).

Inputs: a report request, the report as sentences with citations, the cited documents and the
nuggets (questions with acceptable answers bound to attesting documents). Every report
sentence gets a Figure 2 outcome (``factgraph.metrics.argue``) from judgements that come from a
manual file, a model, or both (``factgraph.stages.argue_judge``).

The fact graph: every nugget answer is a context statement (``kind=nugget``,
``question_id`` = the nugget id); every report sentence a response statement (``kind=claim``,
citations and outcome in its metadata). A sentence that validly gives an answer (outcome #3,
or #8 for an absence nugget) ``entails`` it. ``factgraph.graph.analyze`` then marks answers
covered, and a nugget is reported when any of its answers is covered — so the same engine
that scores comprehensiveness gives covered and missing nuggets.

Scores:

* ``precision`` — sentence precision ``|+| / (|S| − |0|)`` (§4.5); None when no sentence is
  scored (reason in ``metadata["undefined"]``).
* ``recall`` — nugget recall, each nugget once; ``weighted_recall`` with the nuggets'
  ``importance`` (None unless every nugget has one).
* ``citation_micro`` / ``citation_macro`` — supported citations over all citations, and the
  mean per cited sentence.
* ``n_outcome_1`` … ``n_outcome_8``, ``n_sentences``, ``n_unjudged``, ``n_nuggets``,
  ``n_nuggets_reported``.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from factgraph.datasets.argue_io import (
    Nugget,
    Report,
    load_documents,
    load_judgements,
    load_nuggets,
    load_report,
    load_request,
    report_from_text,
)
from factgraph.errors import UserInputError
from factgraph.graph import analyze
from factgraph.inputs import EvaluationInput
from factgraph.methods.argue_spec import ArgueOptions
from factgraph.methods.assemble import assemble
from factgraph.methods.given_facts import refuse_given_facts
from factgraph.metrics.argue import (
    REWARD,
    SentenceJudgement,
    citation_scores,
    nugget_recall,
    sentence_outcome,
    sentence_precision,
    weighted_nugget_recall,
)
from factgraph.models import (
    Evaluation,
    FactGraph,
    Origin,
    Relation,
    RelationLabel,
    Statement,
    StatementKind,
    Verdict,
)
from factgraph.stages.argue_judge import MANUAL, ArgueJudge, ArgueJudgements
from factgraph.stages.session import ModelSession

log = logging.getLogger(__name__)


def answer_statement_id(nugget_id: str, answer_id: str) -> str:
    return f"n{nugget_id}.{answer_id}"


def build_graph(query: str, report: Report, nuggets: list[Nugget], judged: ArgueJudgements,
                outcomes: dict[str, int]) -> FactGraph:
    """Sentences (response) + nugget answers (context) + sentence ⇒ answer for valid matches."""
    statements: list[Statement] = []
    for s in report.sentences:
        statements.append(Statement(
            id=s.id, text=s.text, origin=Origin.response, source_id=report.id,
            kind=StatementKind.claim,
            metadata={"citations": s.citations, "outcome": outcomes.get(s.id),
                      "support": judged.support.get(s.id, {}),
                      "judged_by": judged.source.get(s.id, {})}))
    for n in nuggets:
        for a in n.answers:
            statements.append(Statement(
                id=answer_statement_id(n.id, a.id), text=a.text, origin=Origin.context,
                kind=StatementKind.nugget, question_id=n.id, importance=n.importance,
                metadata={"question": n.question, "docs": a.docs}))
    relations: list[Relation] = []
    for s in report.sentences:
        if outcomes.get(s.id) not in (3, 8):
            continue
        manual = judged.source.get(s.id, {}).get("nuggets") == MANUAL
        for nid, aid in judged.matches.get(s.id, []):
            trace = judged.trace.get(s.id, {}).get(f"nugget:{nid}")
            relations.append(Relation(
                src=s.id, dst=answer_statement_id(nid, aid), label=RelationLabel.entails,
                probability=1.0, method="human" if manual else "llm", trace_id=trace,
                metadata={"outcome": outcomes[s.id]}))
    return FactGraph(query=query, statements=statements, relations=relations,
                     metadata={"nuggets": [{"id": n.id, "question": n.question,
                                            "importance": n.importance} for n in nuggets]})


def _load(inp: EvaluationInput, options: ArgueOptions) -> tuple[str, Report, list[Nugget],
                                                                 list[Any]]:
    request = load_request(options.request).text if options.request else inp.query
    if options.report:
        report = load_report(options.report)
    elif inp.response.strip():
        report = report_from_text(inp.response, inp.response_id or inp.id)
    else:
        raise UserInputError("argue needs a report (--report FILE, or --response)")
    if not options.nuggets:
        raise UserInputError("argue needs nuggets (--nuggets FILE)")
    nuggets = load_nuggets(options.nuggets)
    docs = load_documents(options.docs) if options.docs else list(inp.documents)
    return request, report, nuggets, docs


def run_argue(inp: EvaluationInput, session: ModelSession, options: ArgueOptions) -> Evaluation:
    """Score one report with ARGUE (Mayfield et al. 2024, §4.5): outcomes, precision, nugget
    recall."""
    refuse_given_facts(inp, "--method argue", "ARGUE reads nuggets as questions with answers "
                       "(--nuggets FILE); given facts have no question: use --method e2e or "
                       "prf")
    request, report, nuggets, docs = _load(inp, options)
    manual = load_judgements(options.judgements) if options.judgements else {}
    judged = ArgueJudge(session, request, report, nuggets, docs, manual).run()

    outcomes: dict[str, int] = {}
    for s in report.sentences:
        if s.id in judged.unjudged:
            continue
        j = SentenceJudgement(
            has_citation=bool(s.citations),
            all_supported=all(judged.support[s.id].values()) if s.citations else None,
            nuggets=frozenset(n for n, _ in judged.matches.get(s.id, [])),
            negative=judged.negative.get(s.id), needs_citation=judged.needs_citation.get(s.id),
            first_occurrence=judged.first_occurrence.get(s.id))
        outcomes[s.id] = sentence_outcome(j)

    graph = build_graph(request, report, nuggets, judged, outcomes)
    cov = analyze(graph)
    covered_answers = {m for c in cov.covered() for m in c.members}
    answer_of = {answer_statement_id(n.id, a.id): n.id for n in nuggets for a in n.answers}
    reported = sorted({answer_of[a] for a in covered_answers if a in answer_of})
    nugget_ids = [n.id for n in nuggets]

    undefined: dict[str, str] = {}
    precision = sentence_precision(list(outcomes.values()))
    if precision is None:
        undefined["precision"] = "no sentence was rewarded or penalised (all outcomes are 0)"
    recall = nugget_recall(reported, nugget_ids)
    if recall is None:
        undefined["recall"] = "no nuggets"
    weights = {n.id: n.importance for n in nuggets if n.importance is not None}
    weighted = weighted_nugget_recall(reported, weights) if len(weights) == len(nuggets) \
        else None
    if weighted is None:
        undefined["weighted_recall"] = "not every nugget has an importance (or they sum to 0)"
    support_lists = [[judged.support[s.id][d] for d in s.citations]
                     for s in report.sentences if s.citations and s.id in judged.support
                     and len(judged.support[s.id]) == len(s.citations)]
    micro, macro = citation_scores(support_lists)
    if micro is None:
        undefined["citation_micro"] = undefined["citation_macro"] = "no judged citation"
    if judged.unjudged:
        undefined["unjudged_sentences"] = "; ".join(f"{k}: {v}"
                                                    for k, v in judged.unjudged.items())
    counts = Counter(outcomes.values())
    scores: dict[str, float | None] = {
        "precision": precision, "recall": recall, "weighted_recall": weighted,
        "citation_micro": micro, "citation_macro": macro,
        "n_sentences": float(len(report.sentences)), "n_unjudged": float(len(judged.unjudged)),
        "n_nuggets": float(len(nuggets)), "n_nuggets_reported": float(len(reported)),
        **{f"n_outcome_{k}": float(counts.get(k, 0)) for k in range(1, 9)},
    }

    verdicts: list[Verdict] = []
    for s in report.sentences:
        o = outcomes.get(s.id)
        label = "unjudged" if o is None else f"outcome_{o}"
        evidence = [answer_statement_id(n, a) for n, a in judged.matches.get(s.id, [])] \
            if o in (3, 8) else []
        verdicts.append(Verdict(statement_id=s.id, label=label, evidence=evidence,
                                probability=None if o is None else float(REWARD[o])))
    for n in nuggets:
        ans = [answer_statement_id(n.id, a.id) for a in n.answers]
        for a in ans:
            # An answer no sentence gave is "missing" only when its whole nugget is.
            label = "covered" if a in covered_answers else (
                "other_answer_given" if n.id in reported else "missing")
            verdicts.append(Verdict(statement_id=a, label=label,
                                    evidence=cov.explain(a) or [] if label == "covered" else []))
    return assemble(
        eval_id=inp.id, method="argue", graph=graph, session=session,
        parameters={},  # the Evaluator records the method, options and models
        scores=scores, verdicts=verdicts, response_id=inp.response_id or report.id,
        model=inp.model,
        metadata={"undefined": undefined, "outcomes": outcomes,
                  "reported_nuggets": reported,
                  "missing_nuggets": [n for n in nugget_ids if n not in reported],
                  "rejected_matches": judged.rejected,
                  "judged_by": dict(Counter(src for q in judged.source.values()
                                            for src in q.values())), "request": request,
                  "report_id": report.id})
