"""Wrong facts on other kinds of text: hand-written paragraphs, each changed in one place.

The dev sets the contradiction check was built on are news summaries (REALSumm) and RAG
answers (RAGChecker). This probe is paragraphs written by hand for factgraph
(``benchmarks/data/wrong_facts_probe.json``: science, medicine, law, finance, sport, software,
history, a product review, a work policy), each changed once — a number, a date, a name, an
opposite, a negation, or (kind ``other``) a noun or an action swapped, which the issue's kinds
do not cover. Four sets: ``fitted``, whose misses the rules were then extended for (a dev
number); ``blind``, written before any rule was changed for it; ``blind-2`` and ``blind-3``,
written by another author (an agent that never saw the code), before any rule was changed for
them; ``blind-3`` has a faithful rewrite of each paragraph (other words, the same facts), on
which nothing should be called contradicted; ``blind-4``, by that author with rewrites too,
was measured once the rules were done and is kept blind: write no rule for its misses, or it
is a dev number like the others; ``blind-5``, by a new author with rewrites, on fifteen kinds
of text the others lack, was measured once as the rules stood and its misses and false alarms
were then mended (a dev number now); ``blind-6``, 20 paragraphs with rewrites reworded as far
as an editor would, measured once those rules were in and kept blind like ``blind-4``;
``blind-7``, by a new author, twenty other kinds of text with two changes each and rewrites,
measured once as the rules stood (38 of 40), then one rule written for a miss (a dev number).

For each change, the paragraph's statements (``split_statements``) are judged against the
changed paragraph as the evidence judge does (``find_conflict`` on the aligned sentence); a
change is caught when a statement the change touched is called contradicted. The baseline, in
the same run, is the same judge without its contradiction check: how many of the touched
statements it would count as covered (P ≥ its cut-off) — what an answer stating the opposite
scored before. The originals against themselves give the false alarms.

    python -m benchmarks.wrong_facts_probe
    python -m benchmarks.wrong_facts_probe --set blind-2
"""

from __future__ import annotations

import argparse
import json
import logging
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.fact_judge import judged_conflict, judged_facts
from factgraph.stages.fact_calibration import load_calibration
from factgraph.stages.fact_evidence import (
    ResponseIndex,
    distinctiveness,
    fact_evidence,
    feature_vector,
)
from factgraph.stages.judged_conflict import judged_conflict as conflict_as_judged
from factgraph.stages.text_units import split_sentences, split_statements

log = logging.getLogger(__name__)

PROBE = Path(__file__).resolve().parent / "data" / "wrong_facts_probe.json"


def judge_change(paragraph: str, change: dict[str, str]) -> dict[str, Any]:
    """One change: whether a touched statement is called contradicted, and whether the judge
    without its contradiction check would count a touched statement covered."""
    changed = paragraph.replace(change["from"], change["to"], 1)
    statements = split_statements(paragraph)
    after = set(split_statements(changed))
    touched = [s for s in statements if s not in after]
    index = ResponseIndex.of(split_sentences(changed, min_content_words=1))
    distinct = distinctiveness(statements)
    calibration = load_calibration()
    caught, reason, covered_without_check = False, "", False
    for fact in touched:
        evidence = fact_evidence(fact, index, distinct=distinct)
        p = float(calibration.probability(np.array([feature_vector(evidence,
                                                                    calibration.features)]))[0])
        covered_without_check |= p >= calibration.cutoff
        found = conflict_as_judged(fact, index, evidence, changed, calibration)
        if found is not None and not caught:
            caught, reason = True, found[1].describe()
    return {"kind": change["kind"], "caught": caught, "reason": reason,
            "covered_without_check": covered_without_check, "touched": len(touched)}


def self_alarms(paragraphs: list[str]) -> tuple[int, int]:
    """(statements called contradicted by their own paragraph, statements)."""
    alarms = total = 0
    for paragraph in paragraphs:
        index = ResponseIndex.of(split_sentences(paragraph, min_content_words=1))
        for fact in split_statements(paragraph):
            total += 1
            alarms += judged_conflict(fact, index, fact_evidence(fact, index), paragraph)
    return alarms, total


def rewrite_check(paragraphs: list[str], rewrites: list[str]) -> dict[str, int]:
    """Each paragraph's statements judged against a faithful rewrite of it (other words, the
    same facts): false alarms where the text is no copy, and how many statements the judge
    counts covered (paraphrase is what the cheap evidence reads worst)."""
    calibration = load_calibration()
    out = {"answers": 0, "answers_alarmed": 0, "statements": 0, "alarms": 0, "covered": 0}
    for paragraph, rewrite in zip(paragraphs, rewrites, strict=True):
        statements = split_statements(paragraph)
        index, evs, probs = judged_facts(
            statements, split_sentences(rewrite, min_content_words=1), calibration)
        alarmed = False
        for fact, evidence, p in zip(statements, evs, probs, strict=True):
            found = conflict_as_judged(fact, index, evidence, rewrite, calibration)
            out["statements"] += 1
            out["alarms"] += found is not None
            out["covered"] += found is None and p >= calibration.cutoff
            alarmed |= found is not None
            if found is not None:
                log.info("rewrite alarm: %r against %r: %s", fact, rewrite[:80],
                         found[1].describe())
        out["answers"] += 1
        out["answers_alarmed"] += alarmed
    return out


def run(probe: dict[str, Any]) -> list[dict[str, Any]]:
    """Each change of ``probe`` judged (:func:`judge_change`), logged with its reason."""
    rows = [judge_change(next(p for p in probe["paragraphs"] if c["from"] in p), c)
            for c in probe["changes"]]
    for row, change in zip(rows, probe["changes"], strict=True):
        log.info("%s %s: %r -> %r %s", "caught" if row["caught"] else "missed", change["kind"],
                 change["from"], change["to"], row["reason"])
    return rows


def table(name: str, rows: list[dict[str, Any]], alarms: tuple[int, int]) -> str:
    kinds = sorted(Counter(r["kind"] for r in rows))
    lines = [f"\n{name}: {len(rows)} changes, {alarms[1]} statements",
             "| kind | changes | shown contradicted | counted covered without the check |",
             "|---|---|---|---|"]
    for kind in [*kinds, "issue's kinds", "all"]:
        sel = [r for r in rows if kind == "all" or r["kind"] == kind
               or (kind == "issue's kinds" and r["kind"] != "other")]
        caught = sum(r["caught"] for r in sel)
        covered = sum(r["covered_without_check"] for r in sel)
        lines.append(f"| {kind} | {len(sel)} | {caught} ({caught / len(sel):.0%}) | "
                     f"{covered} ({covered / len(sel):.0%}) |")
    lines.append(f"originals against themselves: {alarms[0]} of {alarms[1]} statements "
                 f"called contradicted")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    data = json.loads(PROBE.read_text(encoding="utf-8"))["sets"]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=(*data, "all"), default="all")
    parser.add_argument("--file", type=Path, default=None,
                        help="another probe: a JSON {paragraphs, changes: [{from, to, kind}]}")
    parser.add_argument("--verbose", action="store_true", help="each change and its reason")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(message)s")
    if args.file is not None:
        sets = {args.file.name: json.loads(args.file.read_text(encoding="utf-8"))}
    else:
        sets = {n: data[n] for n in (data if args.set == "all" else (args.set,))}
    for name, probe in sets.items():
        print(table(name, run(probe), self_alarms(probe["paragraphs"])))
        if probe.get("paraphrases"):
            r = rewrite_check(probe["paragraphs"], probe["paraphrases"])
            print(f"faithful rewrites: {r['answers_alarmed']} of {r['answers']} with any "
                  f"statement called contradicted ({r['alarms']} of {r['statements']} "
                  f"statements); {r['covered']} of {r['statements']} statements counted covered")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
