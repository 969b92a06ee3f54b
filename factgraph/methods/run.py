"""Running a method on inputs: backends from specs, one fresh session per input, shared
context reuse — what ``factgraph evaluate`` / ``batch`` / ``meta-eval`` and Python users call.

>>> from factgraph.inputs import EvaluationInput, GivenFact
>>> from factgraph.methods.run import Evaluator
>>> ev = Evaluator("e2e", options={"coverage_judge": "evidence"})  # the judge needs no model
>>> result = ev(EvaluationInput(
...     id="1", query="Who was Mara Voss?", response="Mara Voss was born in Bergen.",
...     facts=[GivenFact(id="f1", text="Mara Voss was born in Bergen.")]))
>>> result.scores["comprehensiveness"], result.parameters["method"]
(1.0, 'e2e')

With a model: ``Evaluator("e2e", backends=Backends.from_specs("openai:qwen@URL"))``.
"""

from __future__ import annotations

import inspect
import logging
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from factgraph.backends.base import EmbeddingBackend, GenerationParams, NLIBackend, TextBackend
from factgraph.backends.cache import CallCache
from factgraph.inputs import EvaluationInput
from factgraph.methods import get_method
from factgraph.methods.context import ContextStore, session_models
from factgraph.methods.registry import option_fields
from factgraph.models import Evaluation
from factgraph.prompts import PACKAGED, PromptSet
from factgraph.stages.session import Limits, ModelSession

log = logging.getLogger(__name__)


@dataclass
class Backends:
    """The models one run uses (loaded once, shared by every input)."""

    text: TextBackend | None = None
    nli: NLIBackend | None = None
    embeddings: EmbeddingBackend | None = None

    @classmethod
    def from_specs(cls, model: str | None = None, nli_model: str | None = None,
                   embed_model: str | None = None, cache: bool | str = True,
                   text_kwargs: dict[str, Any] | None = None,
                   lazy_embeddings: bool = False) -> Backends:
        """Load backends from specs (see ``factgraph.backends.factory``). Without
        ``nli_model`` the text model judges NLI too (one model in memory, not two);
        ``lazy_embeddings`` loads the embedding model on first use."""
        from factgraph.backends.factory import (
            load_embedding_backend,
            load_nli_backend,
            load_text_backend,
        )
        from factgraph.backends.nli_judge import GenerativeNLIJudge

        call_cache: bool | CallCache = CallCache(cache) if isinstance(cache, str) else cache
        text = load_text_backend(model, cache=call_cache, **(text_kwargs or {})) \
            if model else None
        nli: NLIBackend | None
        if nli_model:
            nli = load_nli_backend(nli_model, cache=call_cache)
        else:
            nli = GenerativeNLIJudge(text) if text is not None else None
        emb: EmbeddingBackend | None = None
        if embed_model and lazy_embeddings:
            from factgraph.backends.factory import LazyEmbeddingBackend

            emb = LazyEmbeddingBackend(embed_model)
        elif embed_model:
            emb = load_embedding_backend(embed_model)
        return cls(text=text, nli=nli, embeddings=emb)


@dataclass
class Evaluator:
    """``Evaluator(method, backends, options)(input) -> Evaluation``; one instance per run so
    that context parts are shared across responses to the same query and texts. ``options``:
    flat names, validated here, or the method's options model already validated (what
    :meth:`EvaluationConfig.evaluator` gives, so a config's options are validated once)."""

    method: str
    backends: Backends = field(default_factory=Backends)
    options: dict[str, Any] | BaseModel = field(default_factory=dict)
    params: GenerationParams = field(default_factory=GenerationParams)
    limits: Limits = field(default_factory=Limits)
    max_repairs: int = 2
    context_store: ContextStore = field(default_factory=ContextStore)
    prompts: PromptSet = PACKAGED  # a user's prompt directory: recorded in every Evaluation

    def __post_init__(self) -> None:
        options_cls, self._run = get_method(self.method)
        given = self.options
        self._options: BaseModel = given if isinstance(given, BaseModel) and \
            type(given) is options_cls else options_cls.model_validate(given)
        self._takes_store = "context_store" in inspect.signature(self._run).parameters

    @property
    def parsed_options(self) -> Any:
        return self._options

    def session(self) -> ModelSession:
        return ModelSession(text=self.backends.text, nli=self.backends.nli,
                            embeddings=self.backends.embeddings, params=self.params,
                            max_repairs=self.max_repairs, limits=self.limits,
                            prompts=self.prompts)

    def __call__(self, inp: EvaluationInput) -> Evaluation:
        session = self.session()
        if self._takes_store:
            ev = self._run(inp, session, self._options,
                           context_store=self.context_store)
        else:
            ev = self._run(inp, session, self._options)
        ev.parameters = stamp(ev.parameters, self.method, self._options, session)
        if self.prompts.hashes:  # replaced prompts: name -> content hash (none: nothing new)
            ev.parameters["prompts"] = self.prompts.recorded()
        return ev


STAMPED = ("method", "models", "generation")  # what stamp() writes beside the options


def recorded_options(options: BaseModel, reported: dict[str, Any]) -> dict[str, Any]:
    """The flat options an Evaluation records: ``options`` under their flat names (the
    model's ``flat()`` where it has one, e2e's and its judge's), each value the run
    ``reported`` for one of them winning. An options model with a ``recorded(reported)``
    method decides itself (e2e: the auto judge's run reports the judge it chose, whose
    options are recorded instead of auto's)."""
    record = getattr(options, "recorded", None)
    if callable(record):
        return dict(record(reported))
    flat = getattr(options, "flat", None)
    return {**(dict(flat()) if callable(flat) else options.model_dump()), **reported}


def stamp(reported: dict[str, Any], method: str, options: BaseModel,
          session: ModelSession) -> dict[str, Any]:
    """An Evaluation's parameters, written here for every method: the method, its flat
    options, the models by role and the generation settings, then what only the method
    knows and ``reported`` (the judge auto chose, a judge's calibration...). An option the
    method reports under its flat name is recorded with the reported value."""
    names = option_fields(type(options))
    told = {k: v for k, v in reported.items() if k in names}
    return {"method": method, **recorded_options(options, told),
            "models": session_models(session),
            "generation": session.params.model_dump(mode="json", exclude={"json_schema"}),
            **{k: v for k, v in reported.items() if k not in names and k not in STAMPED}}
