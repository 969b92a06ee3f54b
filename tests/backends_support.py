"""Tiny models built locally for backend tests: random weights, real code paths."""

from __future__ import annotations

import re
from pathlib import Path

WORDS = [
    "the", "a", "of", "and", "to", "in", "is", "was", "it", "that", "premise", "hypothesis",
    "entailment", "neutral", "contradiction", "yes", "no", "one", "two", "three", "museum",
    "bridge", "city", "river", "painter", "year", "long", "short", "old", "new", "large",
    "small", "answer", "question", "json", "true", "false",
]
CHAT_TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|> {{ m['content'] }} <|end|> {% endfor %}"
    "{% if add_generation_prompt %}<|assistant|> {% endif %}"
)
SPECIALS = ["<pad>", "<unk>", "<s>", "</s>", "<|system|>", "<|user|>", "<|assistant|>", "<|end|>"]


def build_tokenizer(folder: Path):  # type: ignore[no-untyped-def]
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {t: i for i, t in enumerate(SPECIALS + WORDS)}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", pad_token="<pad>",
                                   bos_token="<s>", eos_token="</s>")
    fast.chat_template = CHAT_TEMPLATE
    fast.add_special_tokens({"additional_special_tokens": SPECIALS[4:]})
    fast.save_pretrained(folder)
    return fast


def build_tiny_causal_lm(folder: Path) -> Path:
    """A 2-layer Qwen2 with hidden size 64 (head size 32, which vLLM's CPU kernels accept)."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    torch.manual_seed(0)
    tok = build_tokenizer(folder)
    cfg = Qwen2Config(vocab_size=len(tok), hidden_size=64, intermediate_size=128,
                      num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=1,
                      max_position_embeddings=1024, tie_word_embeddings=True,
                      bos_token_id=tok.bos_token_id, eos_token_id=tok.eos_token_id,
                      pad_token_id=tok.pad_token_id)
    model = Qwen2ForCausalLM(cfg)
    torch.nn.Module.to(model, torch.bfloat16)  # in place; transformers' own .to is typed oddly
    model.save_pretrained(folder)
    return folder


def build_tiny_nli(folder: Path, favour: str = "ENTAILMENT") -> Path:
    """A tiny BERT classifier whose labels come in an unusual order; its bias makes ``favour``
    win, so a test can check the backend reads config.id2label instead of assuming an order."""
    import torch
    from transformers import BertConfig, BertForSequenceClassification

    torch.manual_seed(0)
    tok = build_tokenizer(folder)
    id2label = {0: "CONTRADICTION", 1: "NEUTRAL", 2: "ENTAILMENT"}
    cfg = BertConfig(vocab_size=len(tok), hidden_size=32, num_hidden_layers=2,
                     num_attention_heads=2, intermediate_size=64,
                     id2label=id2label,  # three labels: num_labels follows id2label
                     label2id={v: k for k, v in id2label.items()},
                     pad_token_id=tok.pad_token_id)
    model = BertForSequenceClassification(cfg)
    with torch.no_grad():
        model.classifier.weight.zero_()
        model.classifier.bias.copy_(torch.tensor(
            [8.0 if id2label[i] == favour else 0.0 for i in range(3)]))
    model.save_pretrained(folder)
    return folder


NOISE = re.compile(r"nanobind: leaked|^ *- leaked|Route: |^INFO .*(Route|Available routes)")
CAUSE = re.compile(r"Fatal Python error|Traceback|Error|error:|SIGILL|Illegal instruction|"
                   r"Segmentation fault|killed", re.IGNORECASE)


def server_log_excerpt(text: str, context: int = 30, tail: int = 40) -> str:
    """A failing server's log as a test should show it: every line near a sign of the cause
    (fatal errors, tracebacks, signals) and the last lines, without leak and route noise."""
    lines = [ln for ln in text.splitlines() if not NOISE.search(ln)]
    keep = set(range(max(0, len(lines) - tail), len(lines)))
    for i, line in enumerate(lines):
        if CAUSE.search(line):
            keep.update(range(max(0, i - 3), min(len(lines), i + context)))
    shown, last = [], -1
    for i in sorted(keep):
        if i != last + 1:
            shown.append("...")
        shown.append(lines[i])
        last = i
    return "\n".join(shown)
