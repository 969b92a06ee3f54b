"""Whether a run needs an embedding model is a property of its options (issue 34, item 3): an
e2e judge kind says it (``JudgeKind.embeddings``), nli's pruning levers say it, and the config
reads it from the typed options instead of naming judges itself."""

from __future__ import annotations

import pytest

from factgraph.config import EvaluationConfig
from factgraph.methods.e2e.kinds import get_judge_kind


@pytest.mark.parametrize(("flat", "need", "spec"), [
    ({"method": "e2e", "coverage_judge": "evidence"}, "none", None),
    ({"method": "e2e", "coverage_judge": "list"}, "none", None),
    ({"method": "e2e", "coverage_judge": "sentences"}, "now", "minilm"),
    ({"method": "e2e", "coverage_judge": "auto"}, "lazy", "minilm"),
    ({"method": "e2e"}, "lazy", "minilm"),  # auto is the default judge
    ({"method": "nli"}, "none", None),
    ({"method": "nli", "prune_top_k": 3}, "now", "minilm"),
    ({"method": "nli", "prune_min_similarity": 0.5}, "now", "minilm"),
    ({"method": "qa"}, "none", None),
])
def test_the_options_say_whether_embeddings_are_needed(flat: dict[str, object], need: str,
                                                       spec: str | None) -> None:
    cfg = EvaluationConfig.from_flat(flat)
    assert cfg.embeddings_needed() == need
    assert cfg.embed_model_spec() == spec
    assert EvaluationConfig.from_flat({**flat, "embed_model": "x"}).embed_model_spec() == "x"


def test_each_judge_kind_declares_it() -> None:
    assert {name: get_judge_kind(name).embeddings
            for name in ("auto", "list", "per-fact", "answers", "sentences", "evidence")} == {
        "auto": "lazy", "list": "none", "per-fact": "none", "answers": "none",
        "sentences": "now", "evidence": "none"}
