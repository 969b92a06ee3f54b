"""Comprehensiveness of a response against background texts (Dejl et al. 2025, §3): NLI, Q&A, E2E.

All three build the same kind of FactGraph — response statements, context statements and
entailment / contradiction relations — and score it with the one engine in ``factgraph.graph``:
``S = |covered| / (|covered| + |uncovered|)`` over context components, plus the uncovered
basis. An evaluation whose response could not be read by the model (every attempt failed) has
``S = None`` and says why in ``metadata["incomplete"]``: a parse failure is never a score of 0.

* ``run_nli``: atomize → revise → relevance filter (context only, ``r ≥ T_rel``) → NLI pairs
  (with the levers of ``factgraph.stages.nli_relations``).
* ``run_qa``: mine questions → refine + relevance → answers with confidence (``c ≥ T_conf``)
  → compare answers within each question (exact, pint, model).
* ``run_e2e``: one call listing covered / uncovered facts with their source texts
  (``coverage_judge="list"``), or per-fact coverage (``coverage_judge="per-fact"``): the
  context facts are extracted once per query and texts (never shown the response, grounded in
  their text), then one yes/no question per fact, its probability read from the first token's
  log-probabilities; a fact is covered when ``P(yes) ≥ coverage_cutoff`` (a cut-off tuned on
  the WikiContradict dev split, stored in the parameters). ``coverage_judge="answers"`` is the
  same with the query itself as the only question (the Q&A method of §3.2 narrowed to the
  query): the facts are the answers each text gives to the query, as short phrases, and the
  question per answer is "does the response give this answer to the query?"; on by default,
  bare yes / no answers share one polarity question per response (``yes_no_polarity``) and a
  response covers a second of the texts' differing answers to a one-answer query only if it
  gives more than one (``several_answers_check``: two one-token questions per response).
  Options for the answers that per-text reading misses (measured on dev, off by default):
  ``answer_joint`` (all texts in one call) and ``response_answers`` (the response's own
  answers, added when a text supports them; ``factgraph.stages.response_answers``).
  ``coverage_judge="sentences"`` is the long-form judge: the clauses of a long reference are
  the facts, covered by the word check or MiniLM similarity, and — with
  ``sentence_model_check`` — one model token for the undecided
  (``factgraph.stages.sentence_coverage``). ``coverage_judge="auto"``, the default, takes the
  best measured judge for the input's kind (``input_kind``, ``factgraph.methods.judges``).

Context reuse: the context side (context atoms, their relevance, context→context relations)
depends only on the query, the background texts, the options and the models. With a
``ContextStore`` it is built once and shared by every response to the same query and texts.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.fields import FieldInfo

from factgraph.inputs import Document, EvaluationInput
from factgraph.io import UserInputError
from factgraph.methods.assemble import assemble
from factgraph.methods.given_facts import given_fact_statements, refuse_given_facts
from factgraph.methods.registry import MethodSpec
from factgraph.models import (
    Evaluation,
    FactGraph,
    Origin,
    ParseFailure,
    Relation,
    RelationLabel,
    Statement,
    StatementKind,
    Trace,
)
from factgraph.stages.answer_match import answer_stated, bare_yes_no
from factgraph.stages.answers import answer_questions
from factgraph.stages.atomize import atomize
from factgraph.stages.compare import AnswerNode, compare_answers
from factgraph.stages.context_facts import extract_context_facts
from factgraph.stages.e2e import e2e_coverage
from factgraph.stages.fact_coverage import (
    coverage_probabilities,
    one_answer_query_probability,
    polarity_probabilities,
    several_answers_probability,
)
from factgraph.stages.nli_relations import PairPolicy, judge_pairs
from factgraph.stages.questions import mine_questions, refine_questions
from factgraph.stages.relevance import keep_relevant, rate_relevance
from factgraph.stages.response_answers import response_answers
from factgraph.stages.revise import revise
from factgraph.stages.session import ModelSession
from factgraph.stages.summarize import summarize_long_texts

log = logging.getLogger(__name__)

RESPONSE = "response"


class _Options(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Summarize(_Options):
    summarize_over_chars: int | None = Field(
        None, description="Summarise background texts longer than this, focused on the query.")


class _Relevance(_Options):
    t_rel: float = Field(3.5, description="Relevance threshold T_rel (1-5) for context atoms "
                                          "and questions.")


class NLIOptions(_Relevance, _Summarize):
    """Options of ``--method nli`` (defaults follow Dejl et al. 2025, §4)."""

    revise: bool = Field(True, description="NLI: revise atoms (resolve references, split).")
    relevance_filter: bool = Field(True, description="NLI: drop context atoms with r < T_rel.")
    prune_top_k: int | None = Field(None, description="NLI lever: judge only the k most similar "
                                                      "premises of each hypothesis.")
    prune_min_similarity: float | None = Field(
        None, description="NLI lever: judge only pairs with cosine similarity ≥ this.")
    skip_implied: bool = Field(False, description="NLI lever: skip pairs a judged path implies.")
    skip_inert: bool = Field(False, description="NLI lever: judge a context→response pair only "
                                                "when the response atom reaches the context "
                                                "atom (coverage unchanged).")
    nli_cutoff: float | None = Field(
        None, ge=0.0, le=1.0, description="NLI: a pair entails when P(entails) ≥ this (tuned "
                                          "on dev); None: when entailment is the most "
                                          "probable label.")


class QAOptions(_Relevance, _Summarize):
    """Options of ``--method qa`` (defaults follow Dejl et al. 2025, §4)."""

    t_conf: float = Field(2.0, description="Answer confidence threshold T_conf (1-5).")
    use_pint: bool = Field(True, description="Q&A: compare quantities with pint before a model.",
                           json_schema_extra={"flag": "pint"})


# --- the e2e judges: one options model per judge, told apart by ``coverage_judge`` -------------
# Every default is written once, here. The cut-offs are the ones benchmarks/judges.py tuned on
# WikiContradict dev answers (Qwen2.5-Coder-1.5B; docs/judge_cards/): per-fact 0.3 on 20
# answers, answers 0.7 on 80 and on 160; the sentences cascade's P(yes) cut-off
# benchmarks/long_form.py tuned on the pairwise dev set: 0.9 (0.5: Pearson / Spearman
# 66.5 / 60.3, 0.7: 66.8 / 61.1, 0.9: 67.3 / 61.8). A run with the defaults is the run the
# judge's card describes.

_CUTOFF_HELP = ("E2E: a fact is covered when P(yes) ≥ this; the default is the judge's cut-off "
                "tuned on dev (per-fact 0.3, answers 0.7, sentences 0.9; list: unused).")


def _cutoff(default: float) -> Any:
    return Field(default, ge=0.0, le=1.0, description=_CUTOFF_HELP)


class _Questions(_Options):
    """What the per-fact and answers judges share: one yes/no question per fact."""

    coverage_samples: int = Field(1, ge=1, le=16,
                                  description="E2E per-fact self-consistency: ask each fact k "
                                              "times at temperature 1 and average (k× cost).")
    grounding_min_overlap: float | None = Field(
        0.5, ge=0.0, le=1.0, description="E2E per-fact: drop a fact whose content words occur "
                                         "in its own text less than this share (None: keep).")


class _AnswerFields(_Questions):
    max_answers_per_text: int = Field(3, ge=1, description="E2E answers: answers to the query "
                                                           "kept per text.")
    answer_quote: bool = Field(False, description="E2E answers: the model first copies the "
                                                  "words of each text that settle the query, "
                                                  "then answers (more tokens, once per text).")
    answer_joint: bool = Field(False, description="E2E answers: read every text's answers in "
                                                  "one call with all texts in view (the model "
                                                  "sees where they disagree), not one call "
                                                  "per text.")
    answer_match: Literal["words-or-model", "model"] = Field(
        "words-or-model", description="E2E answers: an answer the response states word for "
                                      "word is covered without a model call "
                                      "('words-or-model'), or every answer is asked ('model').")
    response_answers: bool = Field(
        False, description="E2E answers: also read the response's own answers to the query and "
                           "ask each background text whether it gives them; one a text "
                           "supports joins the answer set (a text answer the per-text reading "
                           "missed). One more call per response, one token per new answer "
                           "and text.")
    yes_no_polarity: bool = Field(
        True, description="E2E answers: a bare yes / no answer the response does not open "
                           "with is judged by one question per response, 'which answer does "
                           "the response give: yes, no, both or unclear?', instead of one "
                           "question per answer.")
    several_answers_check: bool = Field(
        True, description="E2E answers: to a query with one true answer the texts' answers "
                          "are rivals, so a response covers a second (third, ...) of them "
                          "only if it gives more than one answer. When two or more answers "
                          "reach the cut-off (not all read off the polarity question, which "
                          "has its own 'both'), two one-token questions — does the query ask "
                          "for one answer (o), does the response give more than one (q)? — "
                          "and every answer but the most probable gets P × (1 − o(1 − q)).")
    response_answer_cutoff: float = Field(
        0.5, ge=0.0, le=1.0, description="E2E answers: a text supports a response answer when "
                                         "P(yes) ≥ this.")


class _SentenceFields(_Options):
    fact_unit: Literal["clause", "sentence"] = Field(
        "clause", description="E2E sentences: the facts of a background text are its clauses "
                              "(sentences cut at clause boundaries) or its whole sentences.")
    words_cutoff: float = Field(
        0.3, ge=0.0, le=1.0, description="E2E sentences: a fact is covered when this share "
                                         "of its content words occurs in the response "
                                         "(tuned on the pairwise dev part).")
    similarity_cutoff: float = Field(
        0.5, ge=-1.0, le=1.0, description="E2E sentences: ... or when its cosine similarity "
                                          "to a response sentence reaches this.")
    sentence_model_check: bool = Field(
        False, description="E2E sentences: ask the text model (one yes/no token, the nearest "
                           "response sentences as evidence) about sentences that reach "
                           "neither cut-off but a floor; without it no model is used.")
    words_floor: float = Field(
        0.25, ge=0.0, le=1.0, description="E2E sentences with sentence_model_check: below "
                                         "this word share (and the similarity floor) a "
                                         "sentence is uncovered without a model call.")
    similarity_floor: float = Field(
        0.45, ge=-1.0, le=1.0, description="E2E sentences with sentence_model_check: the "
                                          "similarity floor of the model band.")
    evidence_sentences: int = Field(
        3, ge=1, description="E2E sentences with sentence_model_check: response sentences "
                             "shown to the model per fact (the most similar).")


class ListJudge(_Options):
    """One call lists the covered and uncovered facts (Dejl et al. 2025, §3.3)."""

    coverage_judge: Literal["list"] = "list"
    coverage_cutoff: float = _cutoff(0.5)  # unused: a listed fact is covered or not (P = 1)


class PerFactJudge(_Questions):
    """Context facts extracted once per query and texts, one yes/no question per fact."""

    coverage_judge: Literal["per-fact"] = "per-fact"
    coverage_cutoff: float = _cutoff(0.3)
    max_facts_per_text: int = Field(8, ge=1, description="E2E per-fact: facts kept per text.")


class AnswersJudge(_AnswerFields):
    """The answers each text gives to the query, one yes/no question per answer."""

    coverage_judge: Literal["answers"] = "answers"
    coverage_cutoff: float = _cutoff(0.7)


class SentencesJudge(_SentenceFields):
    """Long references: the background texts' clauses are the facts, covered by the word check,
    embedding similarity and (``sentence_model_check``) one model token."""

    coverage_judge: Literal["sentences"] = "sentences"
    coverage_cutoff: float = _cutoff(0.9)


class AutoJudge(_AnswerFields, _SentenceFields):
    """Per input, the judge that measured best for its kind (``DEFAULT_JUDGES`` of
    ``factgraph.methods.judges``: the answers judge for a short answer, the sentences judge for
    a long-form one). It takes the options of both; those given explicitly are kept when the
    chosen judge has them."""

    coverage_judge: Literal["auto"] = "auto"
    coverage_cutoff: float | None = Field(None, ge=0.0, le=1.0, description=_CUTOFF_HELP)
    long_form_min_words: int = Field(
        80, ge=1, description="E2E auto: a response of at least this many words, or one "
                              "judged against a single text (a reference answer), is a "
                              "long-form answer (judged by the long-form default judge); a "
                              "shorter one over several texts a short answer.")


CoverageJudge = Annotated[ListJudge | PerFactJudge | AnswersJudge | SentencesJudge | AutoJudge,
                          Field(discriminator="coverage_judge")]
JUDGE_OPTIONS: dict[str, type[_Options]] = {
    "auto": AutoJudge, "list": ListJudge, "per-fact": PerFactJudge, "answers": AnswersJudge,
    "sentences": SentencesJudge}
DEFAULT_COVERAGE_JUDGE = "auto"
_JUDGE_HELP = ("E2E judge: 'auto' (the default) picks per input the judge that measured best "
               "for its kind (DEFAULT_JUDGES of factgraph.methods.judges: a short answer or a "
               "long-form one, see long_form_min_words); one call listing covered / uncovered "
               "facts ('list'); context facts extracted once per query and one yes/no question "
               "per fact ('per-fact'); the answers each text gives to the query and one yes/no "
               "question per answer ('answers'); or the background texts' clauses as facts, "
               "judged by the word check, embedding similarity and, with "
               "sentence_model_check, the model for the undecided ('sentences', for long "
               "references).")


class E2EOptions(_Summarize):
    """Options of ``--method e2e``: the judge and its own options (``judge``, one model per
    ``coverage_judge``). Built from flat names as every method's options are
    (``E2EOptions(coverage_judge="answers", coverage_cutoff=0.6)``), read flat too
    (``options.coverage_cutoff`` is ``options.judge.coverage_cutoff``); an option the chosen
    judge does not take is an error naming what it takes."""

    judge: CoverageJudge = Field(default_factory=AutoJudge, description=_JUDGE_HELP)

    @model_validator(mode="before")
    @classmethod
    def _judge_from_flat_names(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "judge" in data:
            return data
        own = {k: v for k, v in data.items() if k in cls.model_fields}
        rest = {k: v for k, v in data.items() if k not in cls.model_fields}
        name = rest.get("coverage_judge", DEFAULT_COVERAGE_JUDGE)
        variant = JUDGE_OPTIONS.get(name) if isinstance(name, str) else None
        if variant is not None:
            wrong = sorted(set(rest) - set(variant.model_fields))
            if wrong:
                raise ValueError(
                    f"option {', '.join(repr(w) for w in wrong)} does not apply to "
                    f"coverage_judge {name!r} (it takes: "
                    f"{', '.join(sorted(set(cls.flat_names(name))))})")
        return {**own, "judge": {"coverage_judge": name, **rest}}

    @classmethod
    def flat_names(cls, judge: str | None = None) -> list[str]:
        """The flat option names (of one judge, or of any judge)."""
        own = [n for n in cls.model_fields if n != "judge"]
        variants = [JUDGE_OPTIONS[judge]] if judge else list(JUDGE_OPTIONS.values())
        return own + [n for v in variants for n in v.model_fields if n not in own]

    @classmethod
    def flat_fields(cls) -> dict[str, FieldInfo]:
        """Every flat option with its field (the first judge's, for a shared name)."""
        out = {n: f for n, f in cls.model_fields.items() if n != "judge"}
        out["coverage_judge"] = FieldInfo(annotation=Literal[tuple(JUDGE_OPTIONS)],  # type: ignore[arg-type]
                                          default=DEFAULT_COVERAGE_JUDGE,
                                          description=_JUDGE_HELP)
        for variant in JUDGE_OPTIONS.values():
            for name, f in variant.model_fields.items():
                out.setdefault(name, f)
        return out

    def flat(self) -> dict[str, Any]:
        """The options as flat names: e2e's own, then the judge's (as recorded in an
        Evaluation's parameters)."""
        own = {n: getattr(self, n) for n in E2EOptions.model_fields if n != "judge"}
        judge = self.judge.model_dump()
        return {**own, "coverage_judge": judge.pop("coverage_judge"), **judge}

    def __getattr__(self, name: str) -> Any:
        judge = self.__dict__.get("judge")
        if judge is not None and name in type(judge).model_fields:
            return getattr(judge, name)
        return super().__getattr__(name)  # type: ignore[misc]


class ComprehensivenessOptions(NLIOptions, QAOptions, E2EOptions):
    """Every option of nli, qa and e2e in one model, for Python code that calls
    :func:`run_nli`, :func:`run_qa` or :func:`run_e2e` directly with one set of options. Each
    run function reads (and records) only its own method's options; the registry, the config
    and the CLI use :class:`NLIOptions`, :class:`QAOptions` and :class:`E2EOptions`, so an
    option a method does not take is an error there."""


def _hash(data: Any) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, ensure_ascii=False,
                                     default=str).encode()).hexdigest()[:16]


@dataclass
class ContextPart:
    """The response-independent part of an NLI evaluation."""

    statements: list[Statement]
    relations: list[Relation]
    traces: list[Trace]
    failures: list[ParseFailure]
    counts: dict[str, int]
    texts: dict[str, str] = field(default_factory=dict)  # per-fact judges: texts by key


@dataclass
class ContextStore:
    """Context parts by key (query, texts, options, models); share one per batch run."""

    parts: dict[str, ContextPart] = field(default_factory=dict)
    hits: int = 0


def _context_part(session: ModelSession, store: ContextStore | None, key: str,
                  build: Callable[[], ContextPart]) -> ContextPart:
    """The context part under ``key``: built once per store, then reused — its traces and
    parse failures are carried into this session, so every Evaluation keeps them."""
    part = store.parts.get(key) if store is not None else None
    if part is None:
        part = build()
        if store is not None:
            store.parts[key] = part
        return part
    assert store is not None
    store.hits += 1
    session.count("context.reused")
    session.traces.extend(part.traces)
    session.failures.extend(part.failures)
    return part


def _doc_keys(documents: list[Document]) -> dict[str, Document]:
    return {f"c{n}": d for n, d in enumerate(documents, 1)}


def _session_models(session: ModelSession) -> dict[str, str | None]:
    return {role: getattr(b, "model", None) for role, b in (
        ("text", session.text), ("nli", session.nli), ("embeddings", session.embeddings))}


def _own_options(method: str, options: Any) -> dict[str, Any]:
    """The options of ``method`` as flat names (only its own, whatever model holds them)."""
    if method == "e2e":
        return E2EOptions.flat(options)
    own = NLIOptions if method == "nli" else QAOptions
    return {n: getattr(options, n) for n in own.model_fields}


def _parameters(method: str, options: Any, session: ModelSession) -> dict[str, Any]:
    return {"method": method, **_own_options(method, options),
            "models": _session_models(session),
            "generation": session.params.model_dump(mode="json", exclude={"json_schema"})}


def _incomplete(eval_id: str, method: str, graph: FactGraph, session: ModelSession,
                params: dict[str, Any], inp: EvaluationInput, why: str) -> Evaluation:
    log.warning("%s: %s", eval_id, why)
    return assemble(eval_id=eval_id, method=method, graph=graph, session=session,
                    parameters=params, scores={"comprehensiveness": None},
                    response_id=inp.response_id, model=inp.model,
                    metadata={"incomplete": why})


def _texts(session: ModelSession, inp: EvaluationInput,
           options: _Summarize) -> tuple[dict[str, str], dict[str, Document]]:
    docs = _doc_keys(inp.documents)
    texts = {k: d.text for k, d in docs.items()}
    if options.summarize_over_chars is not None:
        texts = summarize_long_texts(session, inp.query, texts, options.summarize_over_chars)
    return texts, docs


# --- NLI ------------------------------------------------------------------------------------

def _build_context_part(session: ModelSession, inp: EvaluationInput,
                        options: NLIOptions, policy: PairPolicy) -> ContextPart:
    before_traces, before_failures = len(session.traces), len(session.failures)
    before_counts = dict(session.counts)
    texts, docs = _texts(session, inp, options)
    atoms = atomize(session, texts, stage="atomize")
    for key, value in atoms.items():
        if value is None:
            session.count("atomize.unreadable_texts")
            log.warning("background text %s could not be atomized; it adds no statements",
                        docs[key].id)
    usable = {k: v for k, v in atoms.items() if v}
    if options.revise and usable:
        usable = revise(session, usable, texts)
    statements: list[Statement] = []
    for key, items in usable.items():
        for n, text in enumerate(items, 1):
            statements.append(Statement(
                id=f"{key}.{n}", text=text, origin=Origin.context, source_id=docs[key].id,
                trace_id=session.trace_for("revise", key) or session.trace_for("atomize", key)))
    if statements:
        scores = rate_relevance(session, inp.query, [s.text for s in statements])
        for s, r in zip(statements, scores, strict=True):
            s.relevance = None if r is None else round(r, 6)
        if options.relevance_filter:
            keep = keep_relevant(scores, options.t_rel)
            session.count("relevance.dropped", keep.count(False))
            statements = [s for s, k in zip(statements, keep, strict=True) if k]
    texts_by_id = {s.id: s.text for s in statements}
    ctx = [s.id for s in statements]
    relations, stats = judge_pairs(session, texts_by_id, [], ctx, policy, stage="nli.context")
    _count_pairs(session, "nli.context", stats)
    counts = {k: v - before_counts.get(k, 0) for k, v in session.counts.items()
              if v != before_counts.get(k, 0)}
    return ContextPart(statements=statements, relations=relations,
                       traces=session.traces[before_traces:],
                       failures=session.failures[before_failures:], counts=counts)


def _count_pairs(session: ModelSession, stage: str, stats: Any) -> None:
    for name in ("candidates", "pruned", "skipped_implied", "skipped_inert", "judged", "capped"):
        session.count(f"{stage}.{name}", getattr(stats, name))


def run_nli(inp: EvaluationInput, session: ModelSession, options: NLIOptions,
            context_store: ContextStore | None = None) -> Evaluation:
    """NLI-based comprehensiveness (Dejl et al. 2025, §3.1)."""
    refuse_given_facts(inp, "--method nli", "use --method e2e or prf")
    params = _parameters("nli", options, session)
    policy = PairPolicy(prune_top_k=options.prune_top_k,
                        prune_min_similarity=options.prune_min_similarity,
                        skip_implied=options.skip_implied, skip_inert=options.skip_inert,
                        entail_cutoff=options.nli_cutoff)
    key = _hash({"query": inp.query, "docs": [(d.id, d.text) for d in inp.documents],
                 "options": _own_options("nli", options), "models": _session_models(session),
                 "gen": session.params.model_dump(mode="json")})
    part = _context_part(session, context_store, key,
                         lambda: _build_context_part(session, inp, options, policy))
    response_atoms = atomize(session, {RESPONSE: inp.response}, stage="atomize")[RESPONSE]
    statements = list(part.statements)
    graph = FactGraph(query=inp.query, statements=statements, relations=list(part.relations))
    if response_atoms is None:
        return _incomplete(inp.id, "nli", graph, session, params, inp,
                           "the response could not be split into statements")
    if options.revise and response_atoms:
        response_atoms = revise(session, {RESPONSE: response_atoms},
                                {RESPONSE: inp.response})[RESPONSE]
    rtrace = session.trace_for("revise", RESPONSE) or session.trace_for("atomize", RESPONSE)
    resp = [Statement(id=f"r{n}", text=t, origin=Origin.response, source_id=inp.response_id,
                      trace_id=rtrace) for n, t in enumerate(response_atoms, 1)]
    texts_by_id = {s.id: s.text for s in [*resp, *statements]}
    relations, stats = judge_pairs(
        session, texts_by_id, [s.id for s in resp], [s.id for s in statements], policy,
        known=part.relations, include_context_pairs=False, stage="nli.response")
    _count_pairs(session, "nli.response", stats)
    graph = FactGraph(query=inp.query, statements=[*resp, *statements],
                      relations=[*relations, *part.relations])
    return assemble(eval_id=inp.id, method="nli", graph=graph, session=session,
                    parameters=params, response_id=inp.response_id, model=inp.model)


# --- Q&A ------------------------------------------------------------------------------------

def run_qa(inp: EvaluationInput, session: ModelSession, options: QAOptions,
           context_store: ContextStore | None = None) -> Evaluation:
    """Q&A-based comprehensiveness (Dejl et al. 2025, §3.2). ``context_store`` is accepted for a
    uniform signature; questions depend on the response, so nothing is shared."""
    refuse_given_facts(inp, "--method qa", "use --method e2e or prf")
    params = _parameters("qa", options, session)
    texts, docs = _texts(session, inp, options)
    all_texts = {RESPONSE: inp.response, **texts}
    mined = mine_questions(session, all_texts)
    pool = [q for qs in mined.values() if qs for q in qs]
    questions, q_scores = refine_questions(session, inp.query, pool, options.t_rel)
    graph = FactGraph(query=inp.query)
    if mined[RESPONSE] is None and not pool:
        return _incomplete(inp.id, "qa", graph, session, params, inp,
                           "no questions could be mined from any text")
    if not questions:
        return _incomplete(inp.id, "qa", graph, session, params, inp,
                           f"none of the {len(pool)} mined questions reached relevance "
                           f"T_rel = {options.t_rel}")
    answers = answer_questions(session, all_texts, questions, options.t_conf)
    if answers[RESPONSE] is None:
        return _incomplete(inp.id, "qa", graph, session, params, inp,
                           "the response's answers could not be read")
    statements: list[Statement] = []
    nodes: list[AnswerNode] = []
    for key, items in answers.items():
        tag = "r" if key == RESPONSE else key
        trace = session.trace_for("answers", key)
        counters: dict[int, int] = {}
        for a in items or []:
            counters[a.question] = counters.get(a.question, 0) + 1
            sid = f"q{a.question + 1}.{tag}.{counters[a.question]}"
            statements.append(Statement(
                id=sid, text=a.answer, origin=Origin.response if key == RESPONSE
                else Origin.context, source_id=inp.response_id if key == RESPONSE
                else docs[key].id, kind=StatementKind.answer, question_id=f"q{a.question + 1}",
                confidence=a.confidence, trace_id=trace,
                metadata={"question": questions[a.question]}))
            nodes.append(AnswerNode(id=sid, question=a.question, text=a.answer,
                                    from_response=key == RESPONSE))
    relations = compare_answers(session, nodes, questions, use_pint=options.use_pint)
    graph = FactGraph(query=inp.query, statements=statements, relations=relations,
                      metadata={"questions": [{"id": f"q{i + 1}", "text": q, "relevance": s}
                                              for i, (q, s) in enumerate(zip(
                                                  questions, q_scores, strict=True))]})
    return assemble(eval_id=inp.id, method="qa", graph=graph, session=session,
                    parameters=params, response_id=inp.response_id, model=inp.model)


# --- E2E ------------------------------------------------------------------------------------

def run_e2e(inp: EvaluationInput, session: ModelSession, options: E2EOptions,
            context_store: ContextStore | None = None) -> Evaluation:
    """End-to-end comprehensiveness (Dejl et al. 2025, §3.3): the whole response is one response
    statement; each listed fact is a context statement, entailed by it when covered."""
    if options.coverage_judge == "auto":
        options, chosen = resolve_auto_judge(inp, options)
        ev = run_e2e(inp, session, options, context_store)
        ev.parameters["judge"] = chosen
        return ev
    if options.coverage_judge in ("per-fact", "answers"):
        return _run_per_fact(inp, session, options, context_store)
    if options.coverage_judge == "sentences":
        return _run_sentences(inp, session, options)
    refuse_given_facts(inp, "coverage_judge 'list'", "use 'sentences', 'per-fact' or 'auto'")
    params = _parameters("e2e", options, session)
    texts, docs = _texts(session, inp, options)
    shown = [Document(id=d.id, text=texts[k], title=d.title) for k, d in docs.items()]
    reply = e2e_coverage(session, inp.query, inp.response, shown)
    response = Statement(id="r", text=inp.response, origin=Origin.response,
                         source_id=inp.response_id)
    graph = FactGraph(query=inp.query, statements=[response])
    if reply is None:
        return _incomplete(inp.id, "e2e", graph, session, params, inp,
                           "the coverage judge's reply could not be read")
    trace = session.trace_for("e2e", "coverage")
    response.trace_id = trace
    statements = [response]
    relations: list[Relation] = []
    for label, facts in (("covered", reply.covered), ("uncovered", reply.uncovered)):
        for n, fact in enumerate(facts, 1):
            sid = f"{label[0]}{n}"
            sources = [inp.documents[s - 1].id for s in fact.sources]
            statements.append(Statement(
                id=sid, text=fact.statement, origin=Origin.context,
                source_id=sources[0] if sources else None, trace_id=trace,
                metadata={"sources": sources, "judged": label}))
            if label == "covered":
                relations.append(Relation(src="r", dst=sid, label=RelationLabel.entails,
                                          probability=1.0, method="e2e", trace_id=trace))
    graph = FactGraph(query=inp.query, statements=statements, relations=relations)
    return assemble(eval_id=inp.id, method="e2e", graph=graph, session=session,
                    parameters=params, response_id=inp.response_id, model=inp.model)


def _facts_part(session: ModelSession, inp: EvaluationInput,
                options: E2EOptions) -> ContextPart:
    if inp.facts:  # given facts: nothing to extract (the documents are evidence only)
        return ContextPart(statements=given_fact_statements(inp), relations=[], traces=[],
                           failures=[], counts={})
    before_traces, before_failures = len(session.traces), len(session.failures)
    before_counts = dict(session.counts)
    texts, docs = _texts(session, inp, options)
    answers = options.coverage_judge == "answers"
    stage = "query_answers" if answers else "facts"
    facts = extract_context_facts(
        session, inp.query, texts,
        options.max_answers_per_text if answers else options.max_facts_per_text,
        options.grounding_min_overlap, stage=stage, kind="answers" if answers else "facts",
        quote=answers and options.answer_quote, joint=answers and options.answer_joint)
    # An answer is a short phrase: it is read together with the query (kind answer, q1).
    statements = [Statement(
        id=f"{'a' if answers else 'f'}{n}", text=f.text, origin=Origin.context,
        source_id=docs[f.sources[0]].id,
        kind=StatementKind.answer if answers else StatementKind.atom,
        question_id="q1" if answers else None,
        trace_id=session.trace_for(stage, f.sources[0]),
        metadata={"sources": [docs[k].id for k in f.sources],
                  **({"question": inp.query} if answers else {})})
        for n, f in enumerate(facts or [], 1)]
    counts = {k: v - before_counts.get(k, 0) for k, v in session.counts.items()
              if v != before_counts.get(k, 0)}
    if facts is None:
        counts["facts.unreadable"] = 1
    return ContextPart(statements=statements, relations=[], texts=dict(texts),
                       traces=session.traces[before_traces:],
                       failures=session.failures[before_failures:], counts=counts)


def per_fact_score(evaluation: Evaluation, cutoff: float) -> float | None:
    """S of a per-fact evaluation re-read at another cut-off, from its recorded probabilities
    (no model call): ``S = |{f : P_f ≥ cutoff}| / |{f : P_f known}|``; None without facts."""
    probs = [s.metadata.get("p_covered") for s in evaluation.graph.statements
             if s.origin == Origin.context]
    known = [p for p in probs if p is not None]
    if not known:
        return None
    return sum(p >= cutoff for p in known) / len(known)


def sentence_score(evaluation: Evaluation, words_cutoff: float, similarity_cutoff: float,
                   coverage_cutoff: float | None = None) -> float | None:
    """S of a ``coverage_judge="sentences"`` evaluation re-read at other cut-offs, from each
    fact's recorded ``word_share``, ``similarity`` and (cascade) ``p_covered`` — no model call:
    a fact is covered when ``w ≥ words_cutoff`` or ``e ≥ similarity_cutoff`` or ``P ≥
    coverage_cutoff``. Exact for the cascade's recorded band (the facts asked were those the
    run's floors chose); None without facts."""
    from factgraph.stages.sentence_coverage import covering_evidence

    facts = [s.metadata for s in evaluation.graph.statements if s.origin == Origin.context]
    if not facts:
        return None
    return sum(covering_evidence(m.get("word_share", 0.0), m.get("similarity"),
                                 m.get("p_covered"), words_cutoff, similarity_cutoff,
                                 coverage_cutoff) is not None for m in facts) / len(facts)


def _how_judged(fact: str, response: str, options: E2EOptions
                ) -> Literal["words", "polarity", "model"]:
    """How a per-fact / answer judge decides one fact: the word check (answers stated word for
    word), the response's polarity (bare yes / no answers), or one model question."""
    if options.coverage_judge != "answers":
        return "model"
    if options.answer_match == "words-or-model" and answer_stated(fact, response):
        return "words"
    if options.yes_no_polarity and bare_yes_no(fact):
        return "polarity"
    return "model"


def _supported_response_answers(session: ModelSession, inp: EvaluationInput,
                                options: E2EOptions, texts: dict[str, str],
                                facts: list[Statement]) -> list[Statement]:
    """Answer statements for the response's answers that a background text supports and the
    texts' own answers lack (``stages/response_answers``), covered by the response; ``texts``
    are the (possibly summarised) texts the answers were read from."""
    docs = _doc_keys(inp.documents)
    read = response_answers(session, inp.query, inp.response, texts,
                            [f.text for f in facts], options.max_answers_per_text,
                            options.grounding_min_overlap)
    if read is None:
        session.count("response_answers.unreadable")
        return []
    out: list[Statement] = []
    for a in read:
        keys = a.supporting(options.response_answer_cutoff)
        if not keys:
            session.count("response_answers.unsupported")
            continue
        out.append(Statement(
            id=f"a{len(facts) + len(out) + 1}", text=a.text, origin=Origin.context,
            source_id=docs[keys[0]].id, kind=StatementKind.answer, question_id="q1",
            trace_id=session.trace_for("response_answers", "response"),
            metadata={"sources": [docs[k].id for k in keys], "question": inp.query,
                      "found_in": "response", "p_covered": 1.0, "matched": "response",
                      "p_supported": {docs[k].id: p for k, p in a.p_supported.items()}}))
    session.count("response_answers.supported", len(out))
    return out


def _one_answer_unless_several(session: ModelSession, inp: EvaluationInput,
                               options: E2EOptions, how: Sequence[str],
                               probs: list[float | None], response: Statement
                               ) -> list[float | None]:
    """The several-answers check (``several_answers_check``): to a query with one true
    answer, the answers the texts give are rivals, so covering two of them needs a response
    that gives more than one answer; to a query that asks for a list they are parts of one
    reply. When two or more answers reach ``coverage_cutoff`` (and not all of them come from
    the polarity question, whose "both" already says this), two one-token questions:
    ``o = P(the query asks for one answer, not a list)`` and ``q = P(the response gives more
    than one different answer)``. The most probable answer keeps ``P``, every other gets
    ``P · (1 − o · (1 − q))`` — ``P · q`` for a one-answer query, ``P`` for a list. The re-read
    S at any cut-off ≥ ``coverage_cutoff`` is exact (``per_fact_score``). ``o`` and ``q`` are
    kept on the response statement (``p_one_answer_query``, ``p_several``)."""
    reached = [k for k, p in enumerate(probs) if p is not None and p >= options.coverage_cutoff]
    if len(reached) < 2 or all(how[k] == "polarity" for k in reached):
        return probs
    o = one_answer_query_probability(session, inp.query)
    q = several_answers_probability(session, inp.query, inp.response)
    if o is None or q is None:
        session.count("several_answers.unreadable")
        return probs
    response.metadata["p_one_answer_query"] = round(o, 6)
    response.metadata["p_several"] = round(q, 6)
    keep = 1.0 - o * (1.0 - q)
    top = max(reached, key=lambda k: probs[k] or 0.0)  # ties: the first answer
    return [p if p is None or k == top else p * keep for k, p in enumerate(probs)]


def _run_per_fact(inp: EvaluationInput, session: ModelSession,
                  options: E2EOptions,
                  context_store: ContextStore | None) -> Evaluation:
    """Per-fact end-to-end coverage: facts (or the texts' answers to the query) once per
    (query, texts), one question per fact."""
    params = _parameters("e2e", options, session)
    answers = options.coverage_judge == "answers"
    key = _hash({"per-fact": True, "query": inp.query,
                 "docs": [(d.id, d.text) for d in inp.documents],
                 "facts": [(f.id, f.text) for f in inp.facts],
                 "options": {k: v for k, v in E2EOptions.flat(options).items()
                             if k in ("summarize_over_chars", "max_facts_per_text",
                                      "max_answers_per_text", "answer_quote", "answer_joint",
                                      "coverage_judge", "grounding_min_overlap")},
                 "models": _session_models(session),
                 "gen": session.params.model_dump(mode="json")})
    part = _context_part(session, context_store, key,
                         lambda: _facts_part(session, inp, options))
    response = Statement(id="r", text=inp.response, origin=Origin.response,
                         source_id=inp.response_id)
    facts = [s.model_copy(deep=True) for s in part.statements]
    graph = FactGraph(query=inp.query, statements=[response, *facts])
    if part.counts.get("facts.unreadable"):
        return _incomplete(inp.id, "e2e", graph, session, params, inp,
                           "no background text's facts could be read")
    if not facts:
        return _incomplete(inp.id, "e2e", graph, session, params, inp,
                           "the background texts gave no answer to the query" if answers else
                           "the background texts gave no fact that bears on the query")
    found: list[Statement] = []
    if answers and options.response_answers:
        found = _supported_response_answers(session, inp, options, part.texts, facts)
    # Cheapest check first (as the Q&A method's exact match): an answer stated word for word
    # is covered without asking the model; with ``yes_no_polarity`` the bare yes / no answers
    # left share one polarity question for the response; every other fact gets its own.
    how = [_how_judged(f.text, inp.response, options) for f in facts]
    if answers:
        session.count("coverage.stated", how.count("words"))
    polarity = (polarity_probabilities(session, inp.query, inp.response)
                if "polarity" in how else None)
    asked = iter(coverage_probabilities(
        session, inp.response, [f.text for f, h in zip(facts, how, strict=True) if h == "model"],
        samples=options.coverage_samples, query=inp.query if answers else None))
    probs = [1.0 if h == "words" else next(asked) if h == "model" else
             None if polarity is None else polarity[bare_yes_no(f.text) or ""]
             for f, h in zip(facts, how, strict=True)]
    stated = probs
    if answers and options.several_answers_check:
        probs = _one_answer_unless_several(session, inp, options, how, probs, response)
    judged: list[Statement] = []
    relations: list[Relation] = []
    for f, h, p, p0 in zip(facts, how, probs, stated, strict=True):
        f.metadata["p_covered"] = None if p is None else round(p, 6)
        if p != p0:  # lowered by the several-answers check: keep what the response states
            f.metadata["p_stated"] = None if p0 is None else round(p0, 6)
        if answers:
            f.metadata["matched"] = h
        if p is None:
            continue
        judged.append(f)
        if p >= options.coverage_cutoff:
            relations.append(Relation(src="r", dst=f.id, label=RelationLabel.entails,
                                      probability=round(p, 6),
                                      method=options.coverage_judge if h == "model" else h))
    unjudged = len(facts) - len(judged)
    if unjudged:
        session.count("coverage.unjudged", unjudged)
    for f in found:  # the response's own answer, attested by a text: covered
        judged.append(f)
        relations.append(Relation(src="r", dst=f.id, label=RelationLabel.entails,
                                  probability=1.0, method="response-answer"))
    if not judged:
        return _incomplete(inp.id, "e2e", graph, session, params, inp,
                           "no fact got a readable yes/no answer")
    graph = FactGraph(query=inp.query, statements=[response, *judged], relations=relations)
    return assemble(eval_id=inp.id, method="e2e", graph=graph, session=session,
                    parameters=params, response_id=inp.response_id, model=inp.model)


# --- the default judge per kind of input ------------------------------------------------------

def input_kind(inp: EvaluationInput, long_form_min_words: int) -> Literal["short answer",
                                                                         "long-form"]:
    """What ``coverage_judge="auto"`` decides by: ``long-form`` when the response has at least
    ``long_form_min_words`` words or is judged against one text alone (a reference answer, as
    in RAGChecker's set), else ``short answer`` (a short response to a question over several
    background texts, as in WikiContradict). On the two dev sets this routes every RAGChecker
    answer to the long-form judge and 1,167 of WikiContradict's 1,200 answers to the
    short-answer judge (the 33 others have 80 words or more). An input with given facts is
    long-form: its facts are judged as the long-form judge judges a reference's clauses."""
    if inp.facts or len(inp.documents) == 1 \
            or len(inp.response.split()) >= long_form_min_words:
        return "long-form"
    return "short answer"


def resolve_auto_judge(inp: EvaluationInput, options: E2EOptions
                       ) -> tuple[E2EOptions, str]:
    """The options of the default judge for this input's kind (``DEFAULT_JUDGES``), with every
    option the user set explicitly kept where that judge takes it; and the judge's name.
    Logged once per input."""
    from factgraph.methods.judges import DEFAULT_JUDGES, get_judge

    kind = input_kind(inp, options.long_form_min_words)
    judge = get_judge(DEFAULT_JUDGES[kind])
    auto = options.judge
    chosen = JUDGE_OPTIONS[judge.options["coverage_judge"]]
    given = {k: getattr(auto, k) for k in auto.model_fields_set
             if k != "coverage_judge" and k in chosen.model_fields}
    log.info("%s: a %s (%d words): judge %s", inp.id, kind, len(inp.response.split()),
             judge.name)
    resolved = chosen.model_validate({**judge.options, **given})
    return options.model_copy(update={"judge": resolved}), judge.name


# --- long references: sentences as facts -----------------------------------------------------

def _run_sentences(inp: EvaluationInput, session: ModelSession,
                   options: E2EOptions) -> Evaluation:
    """The long-form judge (``factgraph.stages.sentence_coverage``): every sentence of the
    background texts is a fact; the word check, then embedding similarity, then (with
    ``sentence_model_check``) one yes/no token for the undecided. Each fact records ``w``
    (``word_share``), ``e`` (``similarity``) and, when asked, ``p_covered``; the relation's
    method says which evidence covered it. Given facts (``inp.facts``) are the facts, as given;
    the documents are then not split into facts."""
    from factgraph.stages.fact_coverage import evidence_probabilities
    from factgraph.stages.sentence_coverage import (
        covering_evidence,
        sentence_evidence,
        split_facts,
    )

    params = _parameters("e2e", options, session)
    if session.embeddings is None:
        raise UserInputError("the sentences judge needs an embedding model (--embed-model minilm)")
    docs = _doc_keys(inp.documents)
    response = Statement(id="r", text=inp.response, origin=Origin.response,
                         source_id=inp.response_id)
    facts = given_fact_statements(inp) if inp.facts else [  # given: the documents are evidence
        Statement(id=f"{key}.s{n}", text=text, origin=Origin.context, source_id=doc.id)
        for key, doc in docs.items()
        for n, text in enumerate(split_facts(doc.text, options.fact_unit), 1)]
    graph = FactGraph(query=inp.query, statements=[response, *facts])
    if not facts:
        return _incomplete(inp.id, "e2e", graph, session, params, inp,
                           "the background texts have no sentence")
    ev = sentence_evidence(session, [f.text for f in facts], inp.response,
                           options.evidence_sentences)
    cheap = [covering_evidence(w, e, None, options.words_cutoff, options.similarity_cutoff)
             for w, e in zip(ev.words, ev.similarity, strict=True)]
    asked = [k for k, (by, w, e) in enumerate(zip(cheap, ev.words, ev.similarity, strict=True))
             if by is None and options.sentence_model_check
             and (w >= options.words_floor or (e is not None and e >= options.similarity_floor))]
    probs = evidence_probabilities(session, [
        (" ".join(ev.response_sentences[i] for i in ev.nearest[k]), facts[k].text)
        for k in asked])
    p_of = dict(zip(asked, probs, strict=True))
    session.count("sentences.words", cheap.count("words"))
    session.count("sentences.embedding", cheap.count("embedding"))
    session.count("sentences.model", len(asked))
    session.count("sentences.uncovered", cheap.count(None) - len(asked))
    relations: list[Relation] = []
    judged: list[Statement] = []
    for k, f in enumerate(facts):
        f.metadata["word_share"] = round(ev.words[k], 6)
        if ev.similarity[k] is not None:
            f.metadata["similarity"] = round(float(ev.similarity[k] or 0.0), 6)
        p = p_of.get(k)
        if k in p_of:
            f.metadata["p_covered"] = None if p is None else round(p, 6)
            if p is None:
                session.count("coverage.unjudged")
                continue
        by = covering_evidence(ev.words[k], ev.similarity[k], p, options.words_cutoff,
                               options.similarity_cutoff, options.coverage_cutoff)
        if by is not None:
            relations.append(Relation(src="r", dst=f.id, label=RelationLabel.entails,
                                      probability=None if p is None else round(p, 6),
                                      method=by))
        judged.append(f)
    if not judged:
        return _incomplete(inp.id, "e2e", graph, session, params, inp,
                           "no sentence got a readable yes/no answer")
    graph = FactGraph(query=inp.query, statements=[response, *judged], relations=relations)
    return assemble(eval_id=inp.id, method="e2e", graph=graph, session=session,
                    parameters=params, response_id=inp.response_id, model=inp.model)


# --- registration (factgraph.methods.registry) ------------------------------------------------

NLI = MethodSpec(name="nli", options=NLIOptions, run=run_nli, meta_evaluable=True,
                 description="Atoms, relevance filter, NLI pairs (Dejl et al. 2025, §3.1).")
QA = MethodSpec(name="qa", options=QAOptions, run=run_qa, meta_evaluable=True,
                description="Questions, answers per text, answer comparison (Dejl et al. 2025, "
                            "§3.2).")
E2E = MethodSpec(name="e2e", options=E2EOptions, run=run_e2e, meta_evaluable=True,
                 description="One judge reads the response against the texts (Dejl et al. "
                             "2025, §3.3); coverage_judge picks how.")
