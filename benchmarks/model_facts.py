"""Benchmark: the evidence judge's facts listed by a text model (``reference_facts="model"``)
against the model-free statements, on long answers, with the cost per reference beside.

    python -m benchmarks.model_facts --model openai:qwen-coder-1.5b@http://127.0.0.1:8716/v1
    python -m benchmarks.model_facts --model ... --instances 20    # a quick look

On RAGChecker dev (the first ``--instances`` instances, each a reference answer and two
responses people ranked for completeness; ``meta-eval pairwise``'s protocol), each reference's
facts come once from the model (per paragraph chunk, grounded, merged:
``factgraph.stages.model_facts``) and once from ``split_statements``; both sets are judged by
the same evidence judge (expected coverage), and the table gives the Pearson / Spearman
agreement with the people beside content-word recall and the annotators' own agreement on the
same instances, with facts, model calls and seconds per reference (wall time, over the
references whose calls were all asked afresh: a cached re-run asks nothing and says so).
Nothing here is fitted: the calibration, cut-offs and the grounding rule are the shipped
ones.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from benchmarks.fact_judge import RAGCHECKER


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="the text model spec (openai:NAME@URL, …)")
    ap.add_argument("--instances", type=int, default=None,
                    help="only the first N instances (default: all of dev)")
    ap.add_argument("--chunks", type=int, default=None,
                    help="only each reference's first K chunks (a smoke test, not a result)")
    ap.add_argument("--max-tokens", type=int, default=None,
                    help="cap on each reply's tokens (default: the session's; a smoke test)")
    ap.add_argument("--cache", default=None, help="call cache file (default: factgraph's)")
    ap.add_argument("--no-cache", action="store_true", help="ask the model every time")
    args = ap.parse_args(argv)
    if not RAGCHECKER.exists():
        print(f"no data at {RAGCHECKER}: run from the repository root with ../shared beside it",
              file=sys.stderr)
        return 2
    import factgraph
    from factgraph.backends.params import GenerationParams
    from factgraph.datasets.pairwise import load_pairwise
    from factgraph.evaluation.pairwise import (
        annotator_agreement,
        content_word_recall,
        preference_agreement,
    )
    from factgraph.methods.e2e.evidence import reference_facts
    from factgraph.methods.run import Backends
    from factgraph.stages.model_facts import model_reference_facts, paragraph_chunks
    from factgraph.stages.session import ModelSession

    instances = load_pairwise(RAGCHECKER)[: args.instances]
    labels = [[h.completeness_label for h in i.human] for i in instances]
    backends = Backends.from_specs(model=args.model,
                                   cache=False if args.no_cache else args.cache or True)

    def coverage(response: str, facts: list[str]) -> float | None:
        ev = factgraph.evaluate("", response, facts=facts, judge="e2e-evidence", cache=False)
        return ev.scores.get("expected_coverage")

    rows: dict[str, list[tuple[float | None, float | None]]] = {"statements": [], "model": [],
                                                                  "words": []}
    cost: dict[str, list[float]] = {"facts": [], "statements": [], "calls": [], "seconds": [],
                                    "ungrounded": [], "fallback": []}
    for n, inst in enumerate(instances, 1):
        reference = inst.gt_answer or ""
        if args.chunks is not None:
            reference = "\n\n".join(paragraph_chunks(reference)[: args.chunks])
        session = ModelSession(text=backends.text) if args.max_tokens is None else \
            ModelSession(text=backends.text,
                         params=GenerationParams(max_tokens=args.max_tokens))
        start = time.perf_counter()
        listed = model_reference_facts(session, {"ref": reference})["ref"]
        if session.traces and not any(t.cached for t in session.traces):  # asked afresh
            cost["seconds"].append(time.perf_counter() - start)
        cost["calls"].append(listed.chunks)
        cost["facts"].append(len(listed.facts))
        cost["ungrounded"].append(len(listed.ungrounded) / max(listed.listed, 1))
        cost["fallback"].append(listed.fallback_chunks)
        statements = reference_facts(reference)
        cost["statements"].append(len(statements))
        responses = (inst.model1.response, inst.model2.response)
        rows["model"].append(tuple(coverage(r, listed.facts) for r in responses))  # type: ignore[arg-type]
        rows["statements"].append(tuple(coverage(r, statements) for r in responses))  # type: ignore[arg-type]
        rows["words"].append(tuple(content_word_recall(reference, r) for r in responses))  # type: ignore[arg-type]
        print(f"\r{n}/{len(instances)} references", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    def x100(v: float | None) -> float:
        return float("nan") if v is None else 100 * v

    def agreement(name: str, pairs: list[Any]) -> tuple[float, float]:
        a = preference_agreement(name, pairs, labels, n_resamples=0)
        return x100(a.pearson), x100(a.spearman)

    fresh = len(cost["seconds"])
    mean = {k: float(np.mean(v)) if v else float("nan") for k, v in cost.items()}
    people = annotator_agreement(labels, n_resamples=0)
    print(f"\nLong answers: RAGChecker dev, first {len(instances)} instances, expected coverage "
          f"(x100: Pearson, Spearman); model {args.model}")
    print("| facts of the reference | facts / reference | model calls / reference | "
          "seconds / reference | Pearson | Spearman |")
    print("|---|---|---|---|---|---|")
    p, s = agreement("statements", rows["statements"])
    print(f"| statements (no model) | {mean['statements']:.1f} | 0 | 0 | {p:.1f} | {s:.1f} |")
    p, s = agreement("model", rows["model"])
    seconds = f"{mean['seconds']:.1f}" if fresh else "– (all cached)"
    print(f"| listed by the model, grounded, merged | {mean['facts']:.1f} | {mean['calls']:.1f} "
          f"| {seconds} | {p:.1f} | {s:.1f} |")
    p, s = agreement("words", rows["words"])
    print(f"| content-word recall of the reference (baseline) | – | 0 | 0 | {p:.1f} | {s:.1f} |")
    print(f"| annotator vs annotator | – | – | – | {x100(people.pearson):.1f} "
          f"| {x100(people.spearman):.1f} |")
    print(f"\nSeconds per reference over the {fresh} of {len(instances)} references asked "
          f"afresh (the others came from the call cache).")
    print(f"The model's statements dropped as not grounded in their chunk: "
          f"{100 * mean['ungrounded']:.1f}% on average; chunks that fell back to the "
          f"model-free statements: {sum(cost['fallback']):.0f} of {sum(cost['calls']):.0f}.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
