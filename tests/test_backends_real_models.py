"""Backends against real small models (``-m model``): llama.cpp's OpenAI-compatible server and
transformers reading a packaged GGUF. Each checks generation, log-probabilities and the
generative NLI judge return well-formed results."""

from __future__ import annotations

import math
from collections.abc import Iterator

import pytest

from factgraph.backends.base import ChatMessage, GenerationParams, TextBackend
from factgraph.backends.nli_judge import GenerativeNLIJudge
from tests.llama_server import llama_server, model_folder, small_gguf

PAIRS = [("The Kessler Dam was finished in 1962.", "The Kessler Dam was finished."),
         ("The Kessler Dam was finished in 1962.", "The Kessler Dam was finished in 1970.")]


def check_backend(backend: TextBackend) -> None:
    chats = [[ChatMessage(role="user", content="Name one colour. Answer with one word.")],
             [ChatMessage(role="user", content="What is 2 + 2? Answer with a number.")]]
    gens = backend.generate(chats, GenerationParams(max_tokens=8, top_logprobs=3))
    assert len(gens) == 2 and all(g.text.strip() for g in gens)
    for g in gens:
        assert g.logprobs, "no log-probabilities"
        assert all(lp.logprob <= 0.0 and 1 <= len(lp.top) <= 3 for lp in g.logprobs)
        assert g.trace.raw_output == g.text
    assert "4" in gens[1].text
    results = GenerativeNLIJudge(backend).judge(PAIRS)
    assert results
    for r in results:
        assert r.source in ("probabilities", "parsed_label")
        assert math.isclose(r.entailment + r.neutral + r.contradiction, 1.0, abs_tol=1e-6)
        assert r.trace is not None


@pytest.fixture(scope="module")
def llama_spec(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with llama_server(small_gguf(), tmp_path_factory.mktemp("llama") / "server.log") as spec:
        yield spec


@pytest.mark.model
def test_llama_cpp_server_through_the_openai_backend(llama_spec: str) -> None:
    from factgraph.backends.factory import load_text_backend

    check_backend(load_text_backend(llama_spec, cache=False))


@pytest.mark.model
def test_transformers_reads_a_packaged_gguf() -> None:
    pytest.importorskip("gguf", reason="gguf is not installed (extra: transformers)")
    gguf = model_folder() / "qwen2.5-0.5b-instruct.gguf"
    if not gguf.exists():
        pytest.skip(f"{gguf} is absent (run scripts/assemble-models.sh)")
    from factgraph.backends.factory import load_text_backend

    check_backend(load_text_backend(f"transformers:{gguf.parent}#{gguf.name}", cache=False))

