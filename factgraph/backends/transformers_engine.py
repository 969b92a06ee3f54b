"""Hugging Face transformers: a causal LM with its chat template, an NLI cross-encoder, and
sentence embeddings. Models load from a local folder or a hub id (GGUF files too, through
``gguf_file``); nothing is downloaded here unless the hub is reachable."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from factgraph.backends.base import (
    ChatMessage,
    Generation,
    GenerationParams,
    NLIResult,
    TokenLogprob,
)
from factgraph.backends.keys import call_key, trace_id
from factgraph.backends.torch_device import device_for_this_machine
from factgraph.errors import UserInputError
from factgraph.models import Trace
from factgraph.telemetry import opt_out

log = logging.getLogger(__name__)


class TransformersTextBackend:
    """Greedy or sampled generation; ``top_logprobs`` returns next-token log-probabilities."""

    engine = "transformers"

    def __init__(self, model: str, gguf_file: str | None = None, device: str | None = None,
                 batch_size: int = 8, revision: str | None = None) -> None:
        opt_out("transformers")  # no hub telemetry (factgraph.telemetry)
        import torch
        from transformers import AutoModelForCausalLM, AutoTokenizer

        from factgraph.backends.model_identity import file_identity, folder_identity

        device = device_for_this_machine(device, "transformers")

        # by name and content hash (the cache key and what an Evaluation records), not by path
        self.path = model if not gguf_file else f"{model}/{gguf_file}"
        gguf_path = Path(model) / gguf_file if gguf_file else None
        self.model = (file_identity(gguf_path) if gguf_path is not None and gguf_path.is_file()
                      else folder_identity(self.path))
        self.revision = revision
        kw: dict[str, Any] = {"revision": revision}
        if gguf_file:
            kw["gguf_file"] = gguf_file
        self.tokenizer = AutoTokenizer.from_pretrained(model, **kw)
        self.tokenizer.padding_side = "left"
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        lm: Any = AutoModelForCausalLM.from_pretrained(model, dtype=torch.float32, **kw)
        self.lm: Any = lm.to(device).eval()
        self.device = device
        self.batch_size = batch_size

    def _prompt(self, messages: Sequence[ChatMessage]) -> str:
        chat = [m.model_dump() for m in messages]
        return str(self.tokenizer.apply_chat_template(chat, tokenize=False,
                                                      add_generation_prompt=True))

    def generate(
        self, batch: Sequence[Sequence[ChatMessage]], params: GenerationParams
    ) -> list[Generation]:
        out: list[Generation] = []
        for start in range(0, len(batch), self.batch_size):
            out.extend(self._generate_chunk(batch[start : start + self.batch_size], params))
        return out

    def _generate_chunk(
        self, chunk: Sequence[Sequence[ChatMessage]], params: GenerationParams
    ) -> list[Generation]:
        import torch

        t0 = time.perf_counter()
        enc = self.tokenizer([self._prompt(m) for m in chunk], return_tensors="pt",
                             padding=True, add_special_tokens=False).to(self.device)
        if params.seed is not None:
            torch.manual_seed(params.seed)
        sample = params.temperature > 0
        with torch.no_grad():
            res: Any = self.lm.generate(
                **enc, max_new_tokens=params.max_tokens, do_sample=sample,
                temperature=params.temperature if sample else None, top_p=None, top_k=None,
                output_scores=bool(params.top_logprobs), return_dict_in_generate=True,
                pad_token_id=self.tokenizer.pad_token_id,
            )
        latency = (time.perf_counter() - t0) / max(len(chunk), 1)
        new_tokens = res.sequences[:, enc["input_ids"].shape[1]:]
        gens = []
        for row, messages in enumerate(chunk):
            ids = new_tokens[row].tolist()
            eos = {self.tokenizer.eos_token_id, self.tokenizer.pad_token_id}
            n = next((k for k, t in enumerate(ids) if t in eos), len(ids))
            text = self.tokenizer.decode(ids[:n], skip_special_tokens=True)
            finish = "stop" if n < len(ids) else "length"
            for s in params.stop:
                if s in text:
                    text, finish = text[: text.index(s)], "stop"
            logprobs = None
            if params.top_logprobs and res.scores:
                logprobs = []
                for step in range(min(n if n else 1, len(res.scores))):
                    lp = torch.log_softmax(res.scores[step][row].float(), dim=-1)
                    top = torch.topk(lp, params.top_logprobs)
                    chosen = ids[step]
                    logprobs.append(TokenLogprob(
                        token=self.tokenizer.decode([chosen]), logprob=float(lp[chosen]),
                        top={self.tokenizer.decode([int(i)]): float(v)
                             for v, i in zip(top.values, top.indices, strict=True)},
                    ))
            key = call_key(self.engine, self.model, messages, params, self.revision)
            usage = {"prompt_tokens": int(enc["attention_mask"][row].sum()),
                     "completion_tokens": n}
            trace = Trace(id=trace_id(key), engine=self.engine, model=self.model,
                          messages=[m.model_dump() for m in messages],
                          parameters=params.model_dump(mode="json"), raw_output=text,
                          usage=usage, latency_s=latency)
            gens.append(Generation(text=text, logprobs=logprobs, finish_reason=finish,
                                   trace=trace))
        return gens


def nli_label_indices(id2label: dict[int, str]) -> dict[str, int]:
    """Map a checkpoint's labels onto entails / neutral / contradicts (by name, any case)."""
    out: dict[str, int] = {}
    for idx, name in id2label.items():
        n = name.lower()
        if n.startswith("entail"):
            out["entails"] = int(idx)
        elif n.startswith("neutral"):
            out["neutral"] = int(idx)
        elif n.startswith("contradict"):
            out["contradicts"] = int(idx)
        elif n.startswith("not_entail") or n.startswith("non_entail"):
            out["not_entails"] = int(idx)
    if "entails" not in out or not ({"contradicts", "neutral", "not_entails"} & set(out)):
        raise UserInputError(f"cannot read NLI labels from config.id2label = {id2label}")
    return out


class CrossEncoderNLIBackend:
    """Any sequence-classification NLI checkpoint; labels come from ``config.id2label``.
    Two-way (entailment / not entailment) checkpoints put the rest on ``neutral``."""

    engine = "cross-encoder"

    def __init__(self, model: str, device: str | None = None, batch_size: int = 32,
                 max_length: int = 512) -> None:
        opt_out("transformers")
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        from factgraph.backends.model_identity import folder_identity

        device = device_for_this_machine(device, "cross-encoder")

        self.path = model
        self.model = folder_identity(model)  # name and content hash, not this machine's path
        self.tokenizer = AutoTokenizer.from_pretrained(model)
        clf: Any = AutoModelForSequenceClassification.from_pretrained(model)
        self.clf: Any = clf.to(device).eval()
        self.labels = nli_label_indices(dict(self.clf.config.id2label))
        self.device = device
        self.batch_size = batch_size
        self.max_length = max_length

    def judge(self, pairs: Sequence[tuple[str, str]]) -> list[NLIResult]:
        import torch

        out: list[NLIResult] = []
        for start in range(0, len(pairs), self.batch_size):
            chunk = pairs[start : start + self.batch_size]
            enc = self.tokenizer([p for p, _ in chunk], [h for _, h in chunk], padding=True,
                                 truncation=True, max_length=self.max_length,
                                 return_tensors="pt").to(self.device)
            with torch.no_grad():
                probs = torch.softmax(self.clf(**enc).logits.float(), dim=-1).tolist()
            for row in probs:
                ent = row[self.labels["entails"]]
                con = row[self.labels["contradicts"]] if "contradicts" in self.labels else 0.0
                neu = row[self.labels["neutral"]] if "neutral" in self.labels else 1 - ent - con
                out.append(NLIResult(entailment=_unit(ent), neutral=_unit(neu),
                                     contradiction=_unit(con), source="probabilities"))
        return out


def _unit(x: float) -> float:
    return min(1.0, max(0.0, float(x)))


class SentenceTransformerEmbeddings:
    """Sentence embeddings (L2-normalised rows) from a sentence-transformers folder or id."""

    engine = "sentence-transformers"

    def __init__(self, model: str, device: str | None = None, batch_size: int = 64,
                 identity: str | None = None) -> None:
        opt_out("transformers")
        from sentence_transformers import SentenceTransformer

        from factgraph.backends.model_identity import folder_identity

        device = device_for_this_machine(device, "sentence-transformers")

        self.path = model
        # what an Evaluation records: name and content hash, not this machine's folder
        self.model = identity or folder_identity(model)
        self.st = SentenceTransformer(model, device=device)
        self.batch_size = batch_size

    def embed(self, texts: Sequence[str]) -> Any:
        return self.st.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                              convert_to_numpy=True, show_progress_bar=False)
