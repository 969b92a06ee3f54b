"""The options of ``--method e2e``: e2e's own, the judge's (one model per judge kind, told
apart by ``coverage_judge``; :mod:`factgraph.methods.e2e.kinds`) and the field groups that
several judge kinds share.

Every default is written once, here or in the kind's module. The cut-offs are the ones
benchmarks/judges.py tuned on WikiContradict dev answers (Qwen2.5-Coder-1.5B;
docs/judge_cards/): per-fact 0.3 on 20 answers, answers 0.7 on 80 and on 160; the sentences
cascade's P(yes) cut-off benchmarks/long_form.py tuned on the pairwise dev set: 0.9 (0.5:
Pearson / Spearman 66.5 / 60.3, 0.7: 66.8 / 61.1, 0.9: 67.3 / 61.8). A run with the defaults
is the run the judge's card describes.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, GetCoreSchemaHandler, GetJsonSchemaHandler, model_validator
from pydantic.fields import FieldInfo
from pydantic_core import core_schema

from factgraph.methods.e2e.kinds import (
    JudgeOptions,
    find_judge_kind,
    get_judge_kind,
    judge_kind_names,
    judge_kinds,
)
from factgraph.methods.options import SummarizeOptions
from factgraph.methods.registry import EmbeddingNeed

DEFAULT_COVERAGE_JUDGE = "auto"

CUTOFF_HELP = ("E2E: a fact is covered when P(yes) ≥ this; the default is the judge's cut-off "
               "tuned on dev (per-fact 0.3, answers 0.7, sentences 0.9; list: unused).")


def cutoff_field(default: float) -> Any:
    """A judge's ``coverage_cutoff`` with its tuned default."""
    return share_field(default, CUTOFF_HELP)


def share_field(default: float, description: str) -> Any:
    """An option that is a share or a probability, in [0, 1]."""
    return Field(default, ge=0.0, le=1.0, description=description)


# --- the field groups several judge kinds share ------------------------------------------------

class QuestionFields(JudgeOptions):
    """What the per-fact and answers judges share: one yes/no question per fact."""

    coverage_samples: int = Field(1, ge=1, le=16,
                                  description="E2E per-fact self-consistency: ask each fact k "
                                              "times at temperature 1 and average (k× cost).")
    grounding_min_overlap: float | None = Field(
        0.5, ge=0.0, le=1.0, description="E2E per-fact: drop a fact whose content words occur "
                                         "in its own text less than this share (None: keep).")


class AnswerFields(QuestionFields):
    """The answers judge's fields (auto takes them too)."""

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


EVIDENCE_SENTENCES_HELP = ("E2E sentences / evidence with the model check: response sentences "
                           "shown to the model per fact (the nearest to it, in the response's "
                           "order).")


class SentenceFields(JudgeOptions):
    """The sentences judge's fields (auto takes them too)."""

    fact_unit: Literal["clause", "sentence"] = Field(
        "clause", description="E2E sentences: the facts of a background text are its clauses "
                              "(sentences cut at clause boundaries) or its whole sentences.")
    words_cutoff: float = share_field(0.3, "E2E sentences: a fact is covered when this share of "
                                           "its content words occurs in the response (tuned "
                                           "on the pairwise dev part).")
    similarity_cutoff: float = Field(
        0.5, ge=-1.0, le=1.0, description="E2E sentences: ... or when its cosine similarity "
                                          "to a response sentence reaches this.")
    sentence_model_check: bool = Field(
        False, description="E2E sentences: ask the text model (one yes/no token, the nearest "
                           "response sentences as evidence) about sentences that reach "
                           "neither cut-off but a floor; without it no model is used.")
    words_floor: float = share_field(0.25, "E2E sentences with sentence_model_check: below this "
                                           "word share (and the similarity floor) a sentence "
                                           "is uncovered without a model call.")
    similarity_floor: float = Field(
        0.45, ge=-1.0, le=1.0, description="E2E sentences with sentence_model_check: the "
                                          "similarity floor of the model band.")
    evidence_sentences: int = Field(3, ge=1, description=EVIDENCE_SENTENCES_HELP)


# --- the judge: validated as the model of its kind ----------------------------------------------

def judge_help() -> str:
    """``--coverage-judge``'s help: every registered kind's phrase."""
    phrases = [k.help or f"'{k.name}'" for k in judge_kinds().values()]
    listed = "; ".join(phrases[:-1]) + "; or " + phrases[-1] if len(phrases) > 1 else phrases[0]
    return f"E2E judge: {listed}."


def _judge_of_its_kind(value: Any) -> JudgeOptions:
    """A judge's options as the model of the kind its ``coverage_judge`` names (the tagged
    union of every registered kind, looked up when validated)."""
    if isinstance(value, JudgeOptions):
        return value
    if not isinstance(value, dict):
        raise ValueError("a judge's options are a mapping with coverage_judge")
    name = value.get("coverage_judge", DEFAULT_COVERAGE_JUDGE)
    kind = find_judge_kind(name) if isinstance(name, str) else None
    if kind is None:
        raise ValueError(f"unknown coverage_judge {name!r}; known: "
                         f"{', '.join(judge_kind_names())}")
    return kind.options.model_validate(value)


class _AnyJudgeKind:
    """The type of ``E2EOptions.judge``: validated by its kind, dumped with all its fields, and
    in the JSON schema one of the registered kinds' models."""

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any,
                                     handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_plain_validator_function(
            _judge_of_its_kind,
            serialization=core_schema.plain_serializer_function_ser_schema(
                lambda judge, info: judge.model_dump(mode=info.mode), info_arg=True))

    @classmethod
    def __get_pydantic_json_schema__(cls, schema: core_schema.CoreSchema,
                                     handler: GetJsonSchemaHandler) -> dict[str, Any]:
        return {"oneOf": [handler(k.options.__pydantic_core_schema__)
                          for k in judge_kinds().values()],
                "discriminator": {"propertyName": "coverage_judge"}}


def _default_judge() -> JudgeOptions:
    return get_judge_kind(DEFAULT_COVERAGE_JUDGE).options.model_validate({})


class E2EOptions(SummarizeOptions):
    """Options of ``--method e2e``: the judge and its own options (``judge``, one model per
    ``coverage_judge``). Built from flat names as every method's options are
    (``E2EOptions(coverage_judge="answers", coverage_cutoff=0.6)``), read flat too
    (``options.coverage_cutoff`` is ``options.judge.coverage_cutoff``); an option the chosen
    judge does not take is an error naming what it takes."""

    judge: Annotated[JudgeOptions, _AnyJudgeKind] = Field(
        default_factory=_default_judge,
        description="The judge's options: the model of the kind coverage_judge names "
                    "(factgraph.methods.e2e.kinds).")

    @model_validator(mode="before")
    @classmethod
    def _judge_from_flat_names(cls, data: Any) -> Any:
        if not isinstance(data, dict) or "judge" in data:
            return data
        own = {k: v for k, v in data.items() if k in cls.model_fields}
        rest = {k: v for k, v in data.items() if k not in cls.model_fields}
        name = rest.get("coverage_judge", DEFAULT_COVERAGE_JUDGE)
        kind = find_judge_kind(name) if isinstance(name, str) else None
        if kind is not None:
            wrong = sorted(set(rest) - set(kind.options.model_fields))
            if wrong:
                # 'auto' takes no judge's own options: say which judge does
                takers = [k for k, v in judge_kinds().items()
                          if set(wrong) <= set(v.options.model_fields)]
                hint = (f"; coverage_judge {' or '.join(repr(k) for k in takers)} takes "
                        f"{'it' if len(wrong) == 1 else 'them'}: name it "
                        "(--coverage-judge, or a named judge of that kind: factgraph judges)"
                        if takers else "")
                raise ValueError(
                    f"option {', '.join(repr(w) for w in wrong)} does not apply to "
                    f"coverage_judge {name!r} (it takes: "
                    f"{', '.join(sorted(set(cls.flat_names(name))))}){hint}")
        return {**own, "judge": {"coverage_judge": name, **rest}}

    @classmethod
    def flat_names(cls, judge: str | None = None) -> list[str]:
        """The flat option names (of one judge, or of any judge)."""
        own = [n for n in cls.model_fields if n != "judge"]
        variants = [get_judge_kind(judge).options] if judge else [
            k.options for k in judge_kinds().values()]
        return own + [n for v in variants for n in v.model_fields if n not in own]

    @classmethod
    def flat_fields(cls) -> dict[str, FieldInfo]:
        """Every flat option with its field (the first judge's, for a shared name)."""
        kinds = judge_kinds()
        out = {n: f for n, f in cls.model_fields.items() if n != "judge"}
        out["coverage_judge"] = FieldInfo(annotation=Literal[tuple(kinds)],  # type: ignore[arg-type]
                                          default=DEFAULT_COVERAGE_JUDGE,
                                          description=judge_help())
        for kind in kinds.values():
            for name, f in kind.options.model_fields.items():
                out.setdefault(name, f)
        return out

    def embeddings_needed(self) -> EmbeddingNeed:
        """What the judge kind needs (``JudgeKind.embeddings``): ``sentences`` reads sentence
        similarity, ``auto`` may pick it (loaded lazily), the others need none."""
        return get_judge_kind(self.judge.coverage_judge).embeddings

    def flat(self) -> dict[str, Any]:
        """The options as flat names: e2e's own, then the judge's (as recorded in an
        Evaluation's parameters)."""
        own = {n: getattr(self, n) for n in E2EOptions.model_fields if n != "judge"}
        judge = self.judge.model_dump()
        return {**own, "coverage_judge": judge.pop("coverage_judge"), **judge}

    def recorded(self, reported: dict[str, Any]) -> dict[str, Any]:
        """The flat options an Evaluation of these options records, with what the run
        ``reported`` winning: a run that ran another judge than ``coverage_judge`` (auto's
        choice) reports that judge's options, and only the names that judge takes are kept."""
        names = set(self.flat_names(str(reported.get("coverage_judge", self.coverage_judge))))
        return {**{k: v for k, v in self.flat().items() if k in names}, **reported}

    def __getattr__(self, name: str) -> Any:
        judge = self.__dict__.get("judge")
        if judge is not None and name in type(judge).model_fields:
            return getattr(judge, name)
        return super().__getattr__(name)  # type: ignore[misc]
