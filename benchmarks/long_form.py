"""Benchmark: the long-form judges on the pairwise dev set (RAGChecker's meta-evaluation
protocol), cut-offs tuned on dev from recorded results, and the README's long-form table.

    R=benchmarks/results/longform
    python -m benchmarks.long_form --tune $R/e2e-sentences-model-free-dev.jsonl.gz
    python -m benchmarks.long_form --tune $R/e2e-sentences-cascade-dev.jsonl.gz --coverage-cutoffs
    python -m benchmarks.long_form --cards docs/judge_cards/long-form/*.json

``--tune RESULTS`` re-reads S of every evaluation at each candidate cut-off from the recorded
evidence (``factgraph.methods.e2e.sentences.sentence_score``: word share, similarity and,
for the cascade, the model's P(yes); no model call) and prints Pearson / Spearman x100 with the
annotators' completeness labels, best first by the smaller of the two. The judges' defaults
(``words_cutoff``, ``similarity_cutoff``, ``coverage_cutoff``) are the best rows of these runs.
``--cards`` prints a markdown table of pairwise judge cards: each judge's row, then the
reference rows of the first card (the same instances).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from factgraph.datasets.pairwise import PairwiseInstance, load_pairwise
from factgraph.evaluation.pairwise import preference_agreement
from factgraph.evaluation.pairwise_report import (
    evaluated,
    graded_row,
    label_rows,
    response_id,
    score_pairs,
)
from factgraph.graph.results import iter_evaluations
from factgraph.methods.e2e.sentences import sentence_score

DATA = Path("../shared/data/ragchecker/meta_eval_dev.jsonl.gz")
WORDS = [0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.01]
SIMILARITY = [0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 0.8, 1.01]
COVERAGE = [0.3, 0.5, 0.7, 0.9]


def tune(results: Path, data: Path, coverage: bool) -> list[tuple[float, ...]]:
    """(min(r, ρ), r, ρ, words, similarity, coverage) per candidate, best first (x100)."""
    instances = load_pairwise(data)
    by_id = {ev.id: ev for ev in iter_evaluations(results)}
    scored = evaluated(instances, by_id)
    labels = label_rows(scored, "completeness")
    rows = []
    for w in WORDS:
        for e in SIMILARITY:
            for c in (COVERAGE if coverage else [None]):
                def score(inst: PairwiseInstance, side: str, w: float = w, e: float = e,
                          c: float | None = c) -> float | None:
                    return sentence_score(by_id[response_id(inst, side)], w, e, c)

                pairs = score_pairs(scored, score)
                a = preference_agreement("x", pairs, labels, n_resamples=0)
                if a.pearson is None or a.spearman is None:
                    continue
                r, rho = 100 * a.pearson, 100 * a.spearman
                rows.append((min(r, rho), r, rho, w, e, -1.0 if c is None else c))
    return sorted(rows, reverse=True)


def cards_table(paths: list[Path]) -> str:
    """Markdown: one row per card's judge, then the first card's reference rows."""
    head = ("| judge / reference point | model | split | n | Pearson [95% CI] | "
            "Spearman [95% CI] | Kendall τ-b | pairwise acc. | undefined | model calls, "
            "seconds per instance |\n|---|---|---|---|---|---|---|---|---|---|")
    lines = [head]

    def fmt(v: float | None, ci: list[float] | None = None) -> str:
        if v is None:
            return "undefined"
        return f"{100 * v:.2f}" + (f" [{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]" if ci else "")

    cards = [json.loads(p.read_text(encoding="utf-8")) for p in paths]
    def own(rep: dict, row: dict) -> bool:  # the judge's rows: S, and its graded companion
        return row["scorer"] in (rep["judge"], graded_row(rep["judge"]))

    for card in cards:
        rep = card["report"]
        cost = rep.get("cost") or {}
        model = card.get("model") or ("none (MiniLM only)" if card.get("embeddings")
                                      else "none")
        for row in (r for r in rep["rows"] if own(rep, r)):
            lines.append(
                f"| {row['scorer']} | {model} | "
                f"{card['split']} | {rep['instances']} | "
                f"{fmt(row['pearson'], row['pearson_ci'])} | "
                f"{fmt(row['spearman'], row['spearman_ci'])} | {fmt(row['kendall_tau_b'])} | "
                f"{row['pairwise_accuracy']:.3f} | {row['undefined']} | "
                f"{cost.get('calls', 0):.1f}, {cost.get('model_seconds', 0):.1f} |")
    if cards:
        rep = cards[0]["report"]
        for row in rep["rows"]:
            if own(rep, row):
                continue
            lines.append(
                f"| {row['scorer']} | - | {cards[0]['split']} | {row['instances']} | "
                f"{fmt(row['pearson'], row['pearson_ci'])} | "
                f"{fmt(row['spearman'], row['spearman_ci'])} | {fmt(row['kendall_tau_b'])} | "
                f"{row['pairwise_accuracy']:.3f} | {row['undefined']} | - |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tune", type=Path, default=None, help="Results file to re-read.")
    ap.add_argument("--coverage-cutoffs", action="store_true",
                    help="Also vary the model's P(yes) cut-off (cascade results).")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--cards", nargs="+", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.cards:
        sys.stdout.write(cards_table(args.cards) + "\n")
    if args.tune:
        sys.stdout.write("| min | Pearson | Spearman | words_cutoff | similarity_cutoff | "
                         "coverage_cutoff |\n|---|---|---|---|---|---|\n")
        for row in tune(args.tune, args.data, args.coverage_cutoffs)[: args.top]:
            m, r, rho, w, e, c = row
            sys.stdout.write(f"| {m:.2f} | {r:.2f} | {rho:.2f} | {w} | {e} | "
                             f"{'-' if c < 0 else c} |\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
