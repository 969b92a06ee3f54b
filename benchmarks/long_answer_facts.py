"""Benchmark: facts of long answers of other kinds, labelled by hand, wrong facts included.

REALSumm (news summaries) is the dev set the evidence judge was first fitted on. These thirteen
sets are long answers to questions, each item with 10-13 key facts and four answers as four
assistants might write them (thorough, partial, terse, and one that states one or two facts
wrongly), every fact labelled present / not present by hand and the wrongly stated ones listed
with the answer's sentence. Each set was written by an agent that never saw the code
(``data/fact_labels_other_kinds.jsonl``, ``…_2.jsonl`` … ``…_13.jsonl``, with
``….contradicted.json``). Sets 1-3 cover sixteen kinds of question (medicine, law, software,
history, science, personal finance, a biography, travel, sports rules, cooking, the
environment, a product comparison, a government process, biology, astronomy, economics); sets 4
and 5 fourteen other kinds each (chemistry, aviation, agriculture, music, psychology,
architecture, tax, workplace policy, veterinary care, energy, networking, mythology,
nutrition, customer support; geology, linguistics, art history, a court procedure, public
health, a programming library, pensions, shipping, a sport's history, space missions, home
repair, philosophy, ecology, a city's transport), in more forms (lists, headings, chatty
openings, numbers in words, alternate names); set 6, written last, fourteen more
(oceanography, cryptography, dentistry, a visa, a board game, a typhoon, a tree, first aid, a
court case, brewing, a rover, a city's history, a lens, exercise guidelines); set 7, written
after set 6's rules, fourteen more (a drug, an excavation, a glacier, car maintenance, home
insurance, a film's history, a novel, a bird's migration, electrical safety, a statistical
paradox, depreciation, a fossil, a telegraph cable, pruning), with tables, ranges and units
of other systems; set 8, written after set 7's rules, fourteen more (a bridge, a chess
opening, a volcano, indigo dyeing, railway signalling, a photography rule, a shipwreck, a
museum heist, flamenco, a first ascent, EUV lithography, a wine region, a theorem's history,
a writing system), its wrong facts as models make them (a role swapped, a time scale, a
direction in other words, a wrong cause); set 9, written after set 8's rules, fourteen more
(a canal, a meteor, an opera's premiere, a famine, an election system, a cheese, a marathon
record, a radio telescope, a spreadsheet function, a treaty, a hardness scale, a currency
change, a sea battle, a lighthouse); set 10, written after set 9's rules, fourteen more (a
tunnel, a comet, a ballet's premiere, a plant disease, a voting system, a numbering scheme, a
child benefit, a skin condition, a siege, a pest-control method, a tea, a software licence, an
experiment, a dog breed); set 11, written after set 10's rules, fourteen more (a space
telescope, a dam, a legal doctrine, a printing press, a coin change, a language revival, a
symphony, a volcanic island, a condor recovery, a network protocol, a railway, scurvy, a
football league, saffron); set 12, written after set 11's rules, fourteen more (an eye
operation, a city fire, a sport's scoring, battery care, a travel rule, the aurora, a fossil
hunter, chocolate tempering, a savings product, a rail bridge, an experiment, a jazz album, a
lake, an amphibian); set 13, written after set 12's work, fourteen more (a vaccine, a court
ruling, a spacecraft, an instrument, an opera house, a battle, a long-jump record, a network
protocol, a pension rule, an element, a river, an animal, a craft, a novel). Each set was
measured once as written before any rule was written for it (README); the rules for its false
alarms came after. The calibration is fitted on sets 1-5 (``benchmarks.fact_judge``); sets
6-13 stay out of the fit, so their κ here is held out for the calibration.

Per set it prints the judge's agreement with the labels (Cohen's κ, precision and recall of
"missing"; a fact shown contradicted counts as not present), beside the word share of the
fact (≥ 0.3, and at its best cut-off on these rows: optimistic), and the wrong facts: how many
of those the people listed are shown contradicted, how many still counted covered, how many
other facts are shown contradicted (false alarms), and how many of the answers with no wrong
fact have any fact shown contradicted (the issue's bar: at most 1 in 20). Then changed
answers built from these sets as ``benchmarks.fact_judge`` builds them from RAGChecker's and
REALSumm's: each fact labelled present in an answer with no wrong fact, changed once in the
sentence that states it (a number, a year, a name, an antonym or "not"), and how many of the
changes are shown contradicted (the bar: 8 in 10).

    python -m benchmarks.long_answer_facts [--set 1|2|3|4|5|6|7|8|9|10|11|12|13|all]
    python -m benchmarks.long_answer_facts --set 7 --judge e2e-evidence-cascade \
        --model openai:qwen-coder-1.5b@http://127.0.0.1:8716/v1
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent / "data"
SETS = {"1": "fact_labels_other_kinds", **{str(k): f"fact_labels_other_kinds_{k}"
                                            for k in range(2, 14)}}


def judge_set(stem: str, judge: str = "e2e-evidence", backends: Any = None) -> dict[str, Any]:
    """The judge's verdicts on one set against its labels (module docstring); ``judge`` with a
    text model (``e2e-evidence-cascade``) needs ``backends`` that carry one."""
    import factgraph
    from factgraph.evaluation.fact_agreement import best_cutoff, per_fact_statistics
    from factgraph.evaluation.facts_report import CANDIDATE_CUTOFFS, WORDS_CUTOFF
    from factgraph.evaluation.pairwise import content_word_recall

    rows = [json.loads(line) for line in (DATA / f"{stem}.jsonl").read_text(
        encoding="utf-8").splitlines() if line.strip()]
    wrong = {(c["doc"], c["system"], c["id"]) for c in json.loads(
        (DATA / f"{stem}.contradicted.json").read_text(encoding="utf-8"))}
    truth: list[bool] = []  # present
    judged: list[bool] = []  # judged present: covered, not shown contradicted
    shares: list[float] = []
    caught = still_covered = alarms = answers_alarmed = clean_answers = 0
    trials: dict[str, list[int]] = {}
    for row in rows:
        facts = [scu["text"] for scu in row["scus"]]
        ev = factgraph.evaluate(row.get("query") or "", row["summary"], facts=facts,
                                judge=judge, backends=backends)
        given = [s for s in ev.graph.statements if s.metadata.get("given")]
        label = {v.statement_id: v.label for v in ev.verdicts}
        contradicted = {x for r in ev.graph.relations if r.label.value == "contradicts"
                        for x in (r.src, r.dst)}
        alarmed = False
        has_wrong = any((row["doc"], row["system"], scu["id"]) in wrong for scu in row["scus"])
        for node, scu in zip(given, row["scus"], strict=True):
            shown_wrong = node.id in contradicted
            covered = label[node.id] == "covered" and not shown_wrong
            truth.append(bool(scu["present"]))
            judged.append(covered)
            shares.append(content_word_recall(scu["text"], row["summary"]) or 0.0)
            if (row["doc"], row["system"], scu["id"]) in wrong:
                caught += shown_wrong
                still_covered += covered
            elif shown_wrong:
                alarms += 1
                alarmed = True
        if not has_wrong:
            clean_answers += 1
            answers_alarmed += alarmed
            for kind, hit in changed_answer_trials(row):
                trials.setdefault(kind, []).append(hit)

    def agreement(pred: list[bool]) -> tuple[float, float, float]:
        """κ, precision and recall of "missing", as `factgraph meta-eval facts` computes them."""
        stats = per_fact_statistics(truth, pred)
        return (stats["kappa"] or 0.0, stats["precision_missing"] or 0.0,
                stats["recall_missing"] or 0.0)

    # the word share as `factgraph meta-eval facts` reads it, at its cut-off and at its best
    best, _ = best_cutoff(truth, shares, CANDIDATE_CUTOFFS)
    return {"facts": len(truth), "answers": len(rows), "judge": agreement(judged),
            f"word share ≥ {WORDS_CUTOFF}": agreement([s >= WORDS_CUTOFF for s in shares]),
            f"word share ≥ {best} (optimistic)": agreement([s >= best for s in shares]),
            "wrong": len(wrong),
            "caught": caught, "still_covered": still_covered, "alarms": alarms,
            "answers_alarmed": answers_alarmed, "clean_answers": clean_answers,
            "changed": {k: {"n": len(v), "detected": sum(v)} for k, v in sorted(trials.items())}}


def changed_answer_trials(row: dict[str, Any]) -> list[tuple[str, int]]:
    """(kind, detected) for each fact labelled present in an answer with no wrong fact, each
    changed once in the sentence that states it (one number, year, name, antonym or "not";
    the changes and the check of ``benchmarks.fact_judge``'s changed answers: the cheap
    judge's P, no model); the robustness rows left out."""
    from benchmarks.fact_judge import ROBUSTNESS, changed_trials
    from factgraph.stages.text_units import split_sentences

    sentences = split_sentences(row["summary"], min_content_words=1)
    return [(kind, int(hit)) for scu in row["scus"] if scu["present"]
            for kind, _, hit in changed_trials(scu["text"], sentences, row["summary"])
            if kind not in ROBUSTNESS]


def table(name: str, r: dict[str, Any], judge: str = "e2e-evidence") -> str:
    lines = [f"\n{name}: {r['facts']} facts of {r['answers']} answers",
             "| judge | κ | precision of missing | recall of missing |", "|---|---|---|---|"]
    for key in ("judge", *(k for k in r if k.startswith("word share"))):
        k, p, rec = r[key]
        label = (judge + (" (no model)" if judge == "e2e-evidence" else "")) \
            if key == "judge" else key
        lines.append(f"| {label} | {k:.3f} | {p:.3f} | {rec:.3f} |")
    lines.append(f"wrong facts: {r['caught']} of {r['wrong']} shown contradicted, "
                 f"{r['still_covered']} still counted covered; other facts shown contradicted: "
                 f"{r['alarms']}; answers with no wrong fact alarmed: {r['answers_alarmed']} of "
                 f"{r['clean_answers']}")
    changed = r["changed"]
    n, hit = sum(v["n"] for v in changed.values()), sum(v["detected"] for v in changed.values())
    per_kind = ", ".join(f"{k} {v['detected']}/{v['n']}" for k, v in changed.items())
    lines.append(f"changed answers (one fact's number, year, name, antonym or negation changed "
                 f"in its sentence; no model): {hit} of {n} shown contradicted"
                 f"{f' ({hit / n:.0%})' if n else ''}: {per_kind}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=(*SETS, "all"), default="all")
    parser.add_argument("--judge", default="e2e-evidence",
                        help="the judge (e2e-evidence-cascade needs --model)")
    parser.add_argument("--model", default=None,
                        help="text model spec for the cascade (openai:NAME@URL, …); calls are "
                             "cached")
    args = parser.parse_args(argv)
    if args.judge == "e2e-evidence-cascade" and args.model is None:
        parser.error("--judge e2e-evidence-cascade needs --model")
    logging.basicConfig(level=logging.WARNING)
    backends = None
    if args.model is not None:
        from factgraph.methods.run import Backends

        backends = Backends.from_specs(model=args.model, cache=True)
    for name, stem in SETS.items():
        if args.set in ("all", name):
            print(table(f"set {name}", judge_set(stem, args.judge, backends), args.judge))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
