"""Benchmark: one fact written two ways. Each pair of ``data/form_probe.json`` is a fact and a
faithful sentence that writes it otherwise ("1.2 million" / "1,200,000", "UK" / "United
Kingdom", "2 weeks" / "14 days", "Bill" / "William"); the default long-form judge
(``e2e-evidence``, no model) should call each covered and none contradicted. Prints, per set,
how many are shown contradicted, how many counted missing, and the mean P, beside the same
sentences judged by the fact's word share alone (the share of its content words the sentence
holds, covered at ≥ 0.6: the optimistic cut-off of REALSumm dev). A set may also hold changed
pairs (the fact and a sentence that gives another value, written another way too: "at 3 pm" /
"at 16:00"), each of which should be shown contradicted.

    python -m benchmarks.form_probe [--set NAME|all] [--verbose]

NAME: numbers, names, quantities, dates, fractions, blind-forms, blind-forms-2,
blind-forms-3, blind-forms-4.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data" / "form_probe.json"
WORD_SHARE_CUTOFF = 0.6


def judge_pair(fact: str, said: str) -> dict[str, Any]:
    """The judge's verdict on ``fact`` against the one-sentence answer ``said``: its label,
    P (0 when contradicted) and the fact's word share in the sentence."""
    import factgraph
    from factgraph.stages.fact_evidence import ResponseIndex, fact_evidence

    ev = factgraph.evaluate("q", said, facts=[fact], judge="e2e-evidence")
    fact_node = next(s for s in ev.graph.statements if s.metadata.get("given"))
    contradicted = any(r.label.value == "contradicts" and fact_node.id in (r.src, r.dst)
                       for r in ev.graph.relations)
    label = next(v.label for v in ev.verdicts if v.statement_id == fact_node.id)
    share = fact_evidence(fact, ResponseIndex.of([said])).sentence_share
    return {"fact": fact, "said": said, "contradicted": contradicted,
            "covered": label == "covered", "p": float(ev.scores["expected_coverage"] or 0.0),
            "word_share": share}


def run(names: list[str], verbose: bool) -> list[dict[str, Any]]:
    """One row per set: pairs, shown contradicted, counted missing, mean P, word share; and,
    for a set with changed pairs (the same kind of sentence with another value), how many of
    those are shown contradicted and how many still counted covered."""
    data = json.loads(DATA.read_text(encoding="utf-8"))["sets"]
    log = logging.getLogger(__name__)
    rows = []
    for name in names:
        results = [judge_pair(p["fact"], p["said"]) for p in data[name]["pairs"]]
        changed = [judge_pair(p["fact"], p["said"]) for p in data[name].get("changed", [])]
        n = len(results)
        rows.append({
            "set": name, "pairs": n,
            "contradicted": sum(r["contradicted"] for r in results),
            "missing": sum(not r["covered"] and not r["contradicted"] for r in results),
            "mean_p": sum(r["p"] for r in results) / n,
            "word_share_missing": sum(r["word_share"] < WORD_SHARE_CUTOFF for r in results),
            "changed": len(changed),
            "changed_contradicted": sum(r["contradicted"] for r in changed),
            "changed_covered": sum(r["covered"] and not r["contradicted"] for r in changed)})
        if verbose:
            for r in results:
                if r["contradicted"] or not r["covered"]:
                    tag = "CONTRADICTED" if r["contradicted"] else "missing"
                    log.warning("%s (P %.2f): %s || %s", tag, r["p"], r["fact"], r["said"])
            for r in changed:
                if not r["contradicted"]:
                    tag = "changed, covered" if r["covered"] else "changed, missing"
                    log.warning("%s (P %.2f): %s || %s", tag, r["p"], r["fact"], r["said"])
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    data = json.loads(DATA.read_text(encoding="utf-8"))["sets"]
    parser.add_argument("--set", choices=[*data, "all"], default="all")
    parser.add_argument("--verbose", action="store_true", help="each pair not covered")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    logging.getLogger("factgraph").setLevel(logging.ERROR)
    names = list(data) if args.set == "all" else [args.set]
    rows = run(names, args.verbose)
    print("| set | pairs | shown contradicted | counted missing | mean P | "
          f"word share < {WORD_SHARE_CUTOFF} (missing without the judge) | "
          "changed pairs: shown contradicted / still counted covered |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        changed = (f"{r['changed_contradicted']} / {r['changed_covered']} of {r['changed']}"
                   if r["changed"] else "–")
        print(f"| {r['set']} | {r['pairs']} | {r['contradicted']} | {r['missing']} | "
              f"{r['mean_p']:.2f} | {r['word_share_missing']} | {changed} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
