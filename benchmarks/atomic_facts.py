"""Benchmark: our atomic-fact extraction against FActScore's human atomic facts.

    python -m benchmarks.atomic_facts [--n 5] [--max-sentences 3] \
        [--model transformers:~/.cache/factgraph/models#qwen2.5-0.5b-instruct.gguf] \
        [--data ../shared/data/factscore/ChatGPT.jsonl.gz] [--prompt atomize] [--threshold 0.8]

Data: the FActScore labelled biographies (Min et al. 2023; ``../shared/data/factscore``, MIT),
where annotators split every sentence of a model-written biography into atomic facts. For the
first ``--n`` biographies, the first ``--max-sentences`` annotated sentences of each are
atomized by our ``atomize`` stage (one call per sentence) and compared with the human facts of
the same sentence — a local comparison, as Samarinas et al. 2025 (App. A.5) do with their
sliding window.

Metrics (Samarinas et al. 2025, App. A.5), with the packaged MiniLM sentence embedding (cosine):

* soft semantic precision — mean over predicted facts of the best cosine to a human fact;
  soft semantic recall — mean over human facts of the best cosine to a predicted fact;
* hard precision / recall at ``--threshold`` — a predicted fact matches when its cosine to
  some human fact is ≥ the threshold (and a human fact is recovered likewise); recall at 0.8
  is the paper's "completeness".

The FActScore release also has the facts its own (InstructGPT) extractor produced; they are
scored the same way as a reference row. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from factgraph.backends.base import EmbeddingBackend
from factgraph.stages.atomize import atomize
from factgraph.stages.session import ModelSession

log = logging.getLogger("benchmarks.atomic_facts")
REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data" / "factscore" / "ChatGPT.jsonl.gz"


@dataclass
class Sentence:
    key: str
    text: str
    human: list[str]
    reference: list[str]  # FActScore's own model-extracted facts


def load_sentences(path: Path, n: int, max_sentences: int) -> list[Sentence]:
    out: list[Sentence] = []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for row_no, line in enumerate(f):
            if row_no >= n:
                break
            row = json.loads(line)
            taken = 0
            for k, ann in enumerate(row.get("annotations") or []):
                human = [x["text"] for x in ann.get("human-atomic-facts") or []]
                if not ann.get("is-relevant") or not human or taken >= max_sentences:
                    continue
                out.append(Sentence(key=f"{row_no}.{k}", text=ann["text"], human=human,
                                    reference=[x["text"] for x in
                                               ann.get("model-atomic-facts") or []]))
                taken += 1
    return out


@dataclass
class Totals:
    soft_p: list[float]
    soft_r: list[float]
    hard_p: list[bool]
    hard_r: list[bool]
    n_pred: int = 0
    n_sentences: int = 0
    failed: int = 0


def score(embed: EmbeddingBackend, pairs: list[tuple[list[str], list[str]]],
          threshold: float) -> Totals:
    """Soft / hard semantic precision and recall, pooled over facts (micro)."""
    t = Totals([], [], [], [])
    for pred, human in pairs:
        t.n_sentences += 1
        t.n_pred += len(pred)
        if not pred:
            t.soft_r += [0.0] * len(human)
            t.hard_r += [False] * len(human)
            continue
        p = np.asarray(embed.embed(pred))
        h = np.asarray(embed.embed(human))
        sim = p @ h.T  # rows are L2-normalised
        t.soft_p += sim.max(axis=1).tolist()
        t.soft_r += sim.max(axis=0).tolist()
        t.hard_p += (sim.max(axis=1) >= threshold).tolist()
        t.hard_r += (sim.max(axis=0) >= threshold).tolist()
    return t


def _f1(p: float, r: float) -> float:
    return 0.0 if p + r == 0 else 2 * p * r / (p + r)


def row(name: str, t: Totals, seconds: float | None) -> str:
    sp, sr = float(np.mean(t.soft_p)) if t.soft_p else 0.0, float(np.mean(t.soft_r))
    hp, hr = float(np.mean(t.hard_p)) if t.hard_p else 0.0, float(np.mean(t.hard_r))
    secs = "–" if seconds is None else f"{seconds / max(t.n_sentences, 1):.1f}"
    return (f"| {name} | {t.n_sentences} | {t.n_pred / max(t.n_sentences, 1):.2f} | "
            f"{sp:.3f} | {sr:.3f} | {_f1(sp, sr):.3f} | {hp:.3f} | {hr:.3f} | "
            f"{_f1(hp, hr):.3f} | {t.failed} | {secs} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    models = Path(os.environ.get("FACTGRAPH_MODELS", "~/.cache/factgraph/models")).expanduser()
    ap.add_argument("--n", type=int, default=5, help="Biographies to use.")
    ap.add_argument("--max-sentences", type=int, default=3, help="Sentences per biography.")
    ap.add_argument("--model", default=f"transformers:{models}#qwen2.5-0.5b-instruct.gguf",
                    help="Text model spec (see factgraph.backends.factory).")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--prompt", default="atomize", help="Prompt file: atomize (claims) or facts.")
    ap.add_argument("--threshold", type=float, default=0.8, help="Hard-match cosine threshold.")
    ap.add_argument("--max-tokens", type=int, default=256)
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)

    from factgraph.backends.base import GenerationParams
    from factgraph.backends.factory import load_embedding_backend, load_text_backend

    sentences = load_sentences(args.data, args.n, args.max_sentences)
    embed = load_embedding_backend("minilm")
    text = load_text_backend(args.model, cache=False)
    session = ModelSession(text=text, params=GenerationParams(max_tokens=args.max_tokens))
    start = time.perf_counter()
    got = atomize(session, {s.key: s.text for s in sentences}, stage="bench",
                  prompt=args.prompt)
    seconds = time.perf_counter() - start
    ours = score(embed, [(got[s.key] or [], s.human) for s in sentences], args.threshold)
    ours.failed = sum(1 for s in sentences if got[s.key] is None)
    ref = score(embed, [(s.reference, s.human) for s in sentences], args.threshold)
    print(f"FActScore {args.data.name}: {args.n} biographies, ≤{args.max_sentences} sentences "
          f"each, {sum(len(s.human) for s in sentences)} human facts; MiniLM cosine, "
          f"hard threshold {args.threshold}\n")
    print("| extractor | sentences | facts/sentence | soft P | soft R | soft F1 | "
          f"P@{args.threshold} | R@{args.threshold} | F1@{args.threshold} | unreadable | "
          "s/sentence |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    print(row(f"ours ({args.prompt}, {Path(args.model.split('#')[-1]).name})", ours, seconds))
    print(row("FActScore's extractor (InstructGPT, released facts)", ref, None))


if __name__ == "__main__":
    main()
