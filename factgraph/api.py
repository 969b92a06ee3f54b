"""The Python entry points: evaluate one response, evaluate many, read results back.

>>> import factgraph
>>> ev = factgraph.evaluate("Where was Mara Voss born?", "She was born in Bergen.",
...                         ["Mara Voss was born in 1871 in Bergen."],
...                         method="nli", model="openai:qwen@http://127.0.0.1:8000/v1")
... # doctest: +SKIP

Options take the names of the CLI flags (``t_rel``, ``prune_top_k``, ``max_pairs``, ``seed``,
``cache``, ``nli_model`` …) and are validated by the same typed configuration
(:class:`factgraph.config.EvaluationConfig`), so a name the method does not take is an error.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from factgraph.config import ConfigError, EvaluationConfig
from factgraph.errors import describe_validation_error
from factgraph.inputs import Document, EvaluationInput, GivenFact, given_facts_from
from factgraph.models import Evaluation
from factgraph.runners.batch import BatchRunner, progress_bar

if TYPE_CHECKING:
    from factgraph.backends.base import TextBackend
    from factgraph.methods.run import Backends, Evaluator

DocumentLike = str | Mapping[str, Any] | Document
FactLike = str | Mapping[str, Any] | GivenFact
InputLike = EvaluationInput | Mapping[str, Any]
PathLike = str | os.PathLike[str]

log = logging.getLogger(__name__)


def to_documents(documents: Iterable[DocumentLike]) -> list[Document]:
    """Documents from strings (ids ``doc1``, ``doc2``, … by position), ``{id, text}`` mappings
    or Document objects; ids must be unique."""
    docs: list[Document] = []
    for n, item in enumerate(documents, start=1):
        if isinstance(item, Document):
            docs.append(item)
        elif isinstance(item, str):
            docs.append(Document(id=f"doc{n}", text=item))
        elif isinstance(item, Mapping):
            try:
                docs.append(Document.model_validate(item))
            except ValidationError as e:
                raise ConfigError(f"documents[{n - 1}].{describe_validation_error(e)}") from None
        else:
            raise ConfigError(f"documents[{n - 1}]: expected a string, {{id, text}} or a "
                              f"Document, got {type(item).__name__}")
    ids = [d.id for d in docs]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise ConfigError(f"documents: duplicate document ids {dup}")
    return docs


def to_facts(facts: Iterable[FactLike]) -> list[GivenFact]:
    """Given facts from strings (ids ``f1``, ``f2``, … by position), ``{id, text}`` mappings
    or GivenFact objects; ids must be unique."""
    items = [f.model_dump() if isinstance(f, GivenFact) else
             dict(f) if isinstance(f, Mapping) else f for f in facts]
    try:
        return [GivenFact.model_validate(x) for x in given_facts_from(items)]
    except ValidationError as e:
        raise ConfigError(f"facts: {describe_validation_error(e)}") from None
    except ValueError as e:
        raise ConfigError(f"facts: {e}") from None


# The base of every configuration the Python API builds without ``config=``: the documented
# default method of ``factgraph.evaluate`` is nli (the CLI's, and a config file's, is e2e).
API_BASE = {"method": "nli"}


def make_config(method: str | None = None, model: str | None = None,
                config: EvaluationConfig | None = None, judge: str | None = None,
                **options: Any) -> EvaluationConfig:
    """The typed configuration from a method, a model spec and flat option names (the CLI's
    flag names). Precedence is :meth:`EvaluationConfig.merged`'s alone: what is given here
    (None: not given) overrides the base, which is ``config``, else the API's base
    (``method="nli"``). ``judge`` names a judge (``factgraph.methods.judges``) whose method and
    options come under what is given here."""
    base = config if config is not None else EvaluationConfig.from_flat(API_BASE)
    return config_from_flat({"method": method, "model": model, **options}, judge=judge,
                            base=base)


def config_from_flat(flat: Mapping[str, Any], *, judge: str | None = None,
                     base: EvaluationConfig | None = None) -> EvaluationConfig:
    """The one way a configuration is built from flat names (the Python API's keywords, the
    CLI's flags, ``--set`` values and config file): ``flat`` (None: not given) overrides the
    method and options of the judge named ``judge``, which override ``base`` (default: a
    config of the defaults, method e2e). A ``method`` in ``flat`` other than the judge's is
    a ConfigError."""
    values = dict(flat)
    if judge is not None:
        from factgraph.methods.judges import get_judge

        named = get_judge(judge)
        method = values.get("method")
        if method is not None and method != named.method:
            raise ConfigError(f"judge {named.name} is a {named.method} judge; method "
                              f"{method!r} contradicts it")
        values = {**named.flat(), **{k: v for k, v in values.items() if v is not None}}
    return (base if base is not None else EvaluationConfig()).merged(**values)


def evaluator(method: str | None = None, *, model: str | TextBackend | None = None,
              backends: Backends | None = None, config: EvaluationConfig | None = None,
              judge: str | None = None, **options: Any) -> Evaluator:
    """An Evaluator holding loaded models, for repeated use: ``ev(EvaluationInput(...))`` or
    ``factgraph.evaluate(..., evaluator=ev)``. Context parts (atoms, context-context edges)
    are reused across inputs with the same query and texts.

    ``model`` is a spec (``openai:NAME@URL``, ``vllm:PATH``, ``transformers:PATH``) or an
    already loaded text backend; ``backends`` gives every model at once. ``judge`` names a
    judge (``factgraph judges``): its method and options, overridden by ``options``. A
    ``method`` (or option) left None keeps the config's (``config``, else the API's base:
    ``nli``); see :func:`make_config`.
    """
    spec = model if isinstance(model, str) else None
    cfg = make_config(method, spec, config, judge, **options)
    if backends is None and model is not None and not isinstance(model, str):
        backends = _backends_for(model, cfg)
    return cfg.evaluator(backends)


def _backends_for(text: TextBackend, cfg: EvaluationConfig) -> Backends:
    """Backends around a text backend object: cached like a spec's, judging NLI too unless
    the config names an NLI model."""
    from factgraph.backends.cache import CachedTextBackend, CallCache
    from factgraph.backends.factory import LazyEmbeddingBackend, load_nli_backend
    from factgraph.backends.nli_judge import GenerativeNLIJudge
    from factgraph.methods.run import Backends

    call_cache: CallCache | None = (CallCache(cfg.cache) if isinstance(cfg.cache, str)
                                    else CallCache() if cfg.cache else None)
    if call_cache is not None:
        text = CachedTextBackend(text, call_cache)
    nli = load_nli_backend(cfg.nli_model, cache=call_cache or False) if cfg.nli_model \
        else GenerativeNLIJudge(text)
    embed = cfg.embed_model_spec()
    return Backends(text=text, nli=nli,
                    embeddings=LazyEmbeddingBackend(embed) if embed else None)


def evaluate(query: str, response: str, documents: Iterable[DocumentLike] = (), *,
             facts: Iterable[FactLike] = (), method: str | None = None,
             model: str | TextBackend | None = None,
             evaluator: Evaluator | None = None, backends: Backends | None = None,
             config: EvaluationConfig | None = None, input_id: str = "input",
             response_model: str | None = None, judge: str | None = None,
             **options: Any) -> Evaluation:
    """Evaluate one response against its background documents; the same Evaluation as
    ``factgraph evaluate --method METHOD --model SPEC --query … --response … --context …``.

    ``documents``: strings or ``{id, text}`` (or Document). ``facts``: given facts the
    response should contain, strings (ids ``f1``, ``f2``, … by position) or ``{id, text}``
    (or GivenFact); each is judged as given, never split, and where facts are given the
    documents are evidence only (methods: e2e, prf). Given facts with no ``method``,
    ``judge``, ``config`` or ``evaluator`` run the CLI's default, ``e2e`` with its judge
    chosen per input (the evidence judge for given facts; logged): the API's base method,
    nli, cannot read them. ``options``: the CLI flag names
    (method options such as ``t_rel`` or ``skip_implied``, and run settings such as
    ``max_pairs``, ``seed``, ``cache``, ``nli_model``, ``concurrency``). With ``evaluator``
    (see :func:`evaluator`) its loaded models and settings are used and no other setting may
    be given.

    The evidence judge needs no model: each given fact is stated by a sentence of the
    response, stated otherwise (contradicted), or missing.

    >>> import factgraph
    >>> ev = factgraph.evaluate(
    ...     "Who was Mara Voss?", "Mara Voss was a painter born in Bergen in 1880.",
    ...     facts=["Mara Voss was born in Bergen.", "Mara Voss was born in 1871.",
    ...            "Mara Voss studied in Paris."],
    ...     judge="e2e-evidence", cache=False)
    >>> round(ev.scores["comprehensiveness"], 3)
    0.333
    >>> {v.statement_id: v.label for v in ev.verdicts}
    {'g1': 'covered', 'g2': 'basis', 'g3': 'basis'}
    >>> [(r.src, r.dst, r.label.value) for r in ev.graph.relations]
    [('r1', 'g1', 'entails'), ('r1', 'g2', 'contradicts')]
    >>> ev.parameters["method"], ev.parameters["coverage_judge"]
    ('e2e', 'evidence')
    """
    given = to_facts(facts)
    if given and method is None and not (judge or config or evaluator) \
            and "method" not in options:
        method = "e2e"
        log.info("%s: %d given facts and no method: method e2e, its judge chosen for the "
                 "input (nli reads no given facts)", input_id, len(given))
    ev = _resolve_evaluator(evaluator, method, model, backends, config, judge, options)
    inp = EvaluationInput(id=input_id, query=query, response=response,
                          documents=to_documents(documents), facts=given,
                          model=response_model)
    return ev(inp)


def _resolve_evaluator(given: Evaluator | None, method: str | None,
                       model: str | TextBackend | None, backends: Backends | None,
                       config: EvaluationConfig | None, judge: str | None,
                       options: dict[str, Any]) -> Evaluator:
    if given is None:
        return evaluator(method, model=model, backends=backends, config=config, judge=judge,
                         **options)
    if model is not None or backends is not None or config is not None or judge or options:
        raise ConfigError("give either evaluator= or settings (model, options), not both: an "
                          "Evaluator already holds its models and options")
    return given


def to_inputs(inputs: PathLike | Iterable[InputLike]) -> Iterator[EvaluationInput]:
    """EvaluationInputs from an inputs JSONL path or an iterable of inputs / mappings."""
    if isinstance(inputs, (str, os.PathLike)):
        from factgraph.io import read_jsonl

        for _, inp in read_jsonl(inputs, EvaluationInput):
            yield inp
        return
    for n, item in enumerate(inputs):
        if isinstance(item, EvaluationInput):
            yield item
            continue
        data = dict(item)
        if "documents" in data:
            data["documents"] = to_documents(data["documents"])
        try:
            yield EvaluationInput.model_validate(data)
        except ValidationError as e:
            raise ConfigError(f"inputs[{n}].{describe_validation_error(e)}") from None


def evaluate_many(inputs: PathLike | Iterable[InputLike], *, method: str | None = None,
                  model: str | TextBackend | None = None, evaluator: Evaluator | None = None,
                  backends: Backends | None = None, config: EvaluationConfig | None = None,
                  results: PathLike | None = None, resume: bool = False,
                  progress: bool = False, judge: str | None = None,
                  **options: Any) -> Iterator[Evaluation]:
    """Evaluate many inputs with one loaded set of models; yields one Evaluation per input,
    in input order, as each finishes — what ``factgraph batch`` does.

    ``inputs``: an inputs JSONL path, or ``{id, query, response, documents}`` mappings /
    EvaluationInputs (ids unique). Context parts are reused across inputs, requests to a
    server go ``concurrency`` at a time, every model call goes through the call cache.

    With ``results`` each finished Evaluation is appended to that JSONL (one complete line,
    fsync'd), an input that raises is recorded in ``RESULTS.failures.jsonl`` and skipped, and
    ``resume=True`` continues an interrupted run: inputs already in the file are read back
    instead of evaluated (a torn last line is cut off and redone). Without ``results`` an
    input that raises raises. Settings are checked before the first input is read.

    >>> import factgraph
    >>> inputs = [{"id": "a", "query": "Who was Mara Voss?",
    ...            "response": "Mara Voss was born in Bergen.",
    ...            "facts": ["Mara Voss was born in Bergen.", "Mara Voss studied in Paris."]},
    ...           {"id": "b", "query": "Who was Mara Voss?", "response": "A painter.",
    ...            "facts": ["Mara Voss was born in Bergen."]}]
    >>> for ev in factgraph.evaluate_many(inputs, judge="e2e-evidence", cache=False):
    ...     print(ev.id, ev.scores["comprehensiveness"])
    a 0.5
    b 0.0
    """
    ev = _resolve_evaluator(evaluator, method, model, backends, config, judge, options)
    total = len(inputs) if isinstance(inputs, Sequence) and not isinstance(inputs, str) \
        else None
    if results is None:
        return _run_plain(ev, to_inputs(inputs), progress, total)
    return _run_recorded(ev, to_inputs(inputs), Path(results), resume, progress, total)


def _run_plain(ev: Evaluator, inputs: Iterator[EvaluationInput], progress: bool,
               total: int | None) -> Iterator[Evaluation]:
    seen: set[str] = set()
    with progress_bar(progress, total) as tick:
        for inp in inputs:
            _check_unique(inp.id, seen)
            yield _with_id(ev(inp), inp.id)
            tick()


def _run_recorded(ev: Evaluator, inputs: Iterator[EvaluationInput], path: Path, resume: bool,
                  progress: bool, total: int | None) -> Iterator[Evaluation]:
    """The batch runner's stream over ``inputs`` (results appended, failures recorded, finished
    inputs read back); a results file that is already there without ``resume`` is refused
    now, before the first input is read."""
    runner = BatchRunner(ev, path, resume=resume, handle_signals=False, progress=progress)
    runner.check_fresh(resume_hint="resume=True")
    return runner.stream(_unique_ids(inputs), total)


def _unique_ids(inputs: Iterator[EvaluationInput]) -> Iterator[tuple[str, EvaluationInput]]:
    seen: set[str] = set()
    for inp in inputs:
        _check_unique(inp.id, seen)
        yield inp.id, inp


def _check_unique(item_id: str, seen: set[str]) -> None:
    if item_id in seen:
        raise ConfigError(f"duplicate input id {item_id!r}")
    seen.add(item_id)


def _with_id(ev: Evaluation, item_id: str) -> Evaluation:
    return ev if ev.id == item_id else ev.model_copy(update={"id": item_id})


def load_results(path: PathLike) -> Iterator[Evaluation]:
    """Evaluations from a results file, one at a time (a large JSONL is never held in memory):
    a ``.jsonl`` / ``.jsonl.gz`` batch, or a single Evaluation ``.json``. A bad line raises
    InputError naming the file and the line.

    >>> import tempfile, factgraph
    >>> inputs = [{"id": "a", "query": "Who was Mara Voss?",
    ...            "response": "Mara Voss was born in Bergen.",
    ...            "facts": ["Mara Voss was born in Bergen."]}]
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = f"{folder}/results.jsonl"
    ...     _ = list(factgraph.evaluate_many(inputs, judge="e2e-evidence", cache=False,
    ...                                      results=path))
    ...     print([(ev.id, ev.method) for ev in factgraph.load_results(path)])
    [('a', 'e2e')]
    """
    from factgraph.graph.results import iter_evaluations

    yield from iter_evaluations(path)
