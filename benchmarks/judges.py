"""Benchmark: how far each comprehensiveness judge agrees with WikiContradict's human labels,
on the fixed test split, with one model — one table, chance-corrected (issue 16).

    python -m benchmarks.judges --model openai:qwen1.5b@http://127.0.0.1:8765/v1 \\
        --judges e2e-per-fact,e2e,nli --n 60,30,30 --dev-n 20 --runs out/judges

For every judge it runs (resumably: ``RUNS/<judge>-test.jsonl``, continued on the next call)
the first ``n`` answers of a fixed ordering of the test split: the test questions in a seeded
order, ``--per-question`` answers of each (seeded), so that per-question work (context facts,
context atoms) is shared the way a real batch shares it. Any cut-off is tuned on dev only: the
per-fact judge's ``P(yes)`` cut-off is the one that maximises κ on ``--dev-n`` dev answers
(``RUNS/<judge>-dev.jsonl``), read back from the recorded probabilities (no model call), and then
applied unchanged to test. Columns: n, LMR (strict), κ [BCa 95% CI], balanced accuracy
[BCa 95% CI], the majority-class baseline of the same items (the LMR of a constant judge),
undefined scores, and per answer the distinct model calls, generated tokens and model seconds
(sums over distinct call traces; per-question work shared across answers is counted once; a
call answered from the cache counts with the latency it had when first made).
A judge card per judge goes to ``RUNS/<judge>.card.json``. ``--stop-at HH:MM`` (UTC) ends a run
cleanly at that time; the table reports the n actually reached.

Judges: ``e2e`` (one call lists covered / uncovered facts), ``e2e-per-fact`` (context facts
once per question, one yes/no token per fact, P(yes) from log-probabilities),
``e2e-per-fact-k3`` (the same with 3 samples per fact at temperature 1: self-consistency, 3×
the coverage calls), ``e2e-answers`` (the answers each text gives to the query, once per
question, then one yes/no token per answer: "does the response give this answer?"), ``nli``
and ``qa`` (Dejl et al. 2025, §3.1, §3.2), and ``nli-tuned`` (NLI with the entailment cut-off
``nli_cutoff`` — a pair entails when P(entails) ≥ it — chosen on dev: the dev answers are run
once and re-read at each candidate from the call cache). ``e2e-answers-polarity`` is the answer
judge as it is now by default (``yes_no_polarity``: bare yes / no answers judged by one
"yes, no, both or unclear?" question per response); ``e2e-answers`` is it as first run, one
question per answer. Dev-only variants of the answer judge:
``e2e-answers-resp`` (``response_answers``: the response's own answers, checked against each
text) and ``e2e-answers-joint`` (``answer_joint``: all texts in one extraction call);
``--extraction-recall`` prints how many of the dev questions' own answers (``gt_answer_1/2``)
the extraction finds, one call per text and joint.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from factgraph.datasets.wikicontradict import (
    LabelledInput,
    load_items,
    predicted_label,
    score_results,
    split_items,
)
from factgraph.evaluation.meta_eval import JudgeCard, write_judge_card
from factgraph.models import Evaluation

log = logging.getLogger("benchmarks.judges")

DATA = Path("../shared/data/wikicontradict/wiki_contradict_simple_humaneval.jsonl")

# The judges are the named judges of factgraph.methods.judges; a run differs from one only
# as this table says: dev-only variants of a named judge (the options they change), the name
# the first runs' results carry ("e2e": the list judge), and the several-answers judge asked
# at a low cut-off on dev (a second answer is checked whenever two answers reach 0.05, so that
# the re-read is exact at every candidate cut-off; test runs at the tuned cut-off).
VARIANTS: dict[str, tuple[str, dict[str, Any]]] = {
    "e2e": ("e2e-list", {}),
    "e2e-per-fact-k3": ("e2e-per-fact", {"coverage_samples": 3}),  # self-consistency
    "e2e-answers-quote": ("e2e-answers", {"answer_quote": True}),
    "e2e-answers-resp": ("e2e-answers", {"response_answers": True}),
    "e2e-answers-joint": ("e2e-answers", {"answer_joint": True}),
    "e2e-answers-several": ("e2e-answers-several", {"coverage_cutoff": 0.05}),
}


def known_judges() -> list[str]:
    """Every judge this benchmark runs: the named judges and the variants above."""
    from factgraph.methods.judges import JUDGES

    return sorted({*JUDGES, *VARIANTS})


def judge_config(name: str) -> tuple[str, dict[str, Any]]:
    """The method and options a run of judge ``name`` uses."""
    from factgraph.methods.judges import get_judge

    base, changed = VARIANTS.get(name, (name, {}))
    judge = get_judge(base)
    return judge.method, {**judge.options, **changed}


CUTOFFS = [round(0.05 * k, 2) for k in range(1, 20)]


def ordered_items(items: list[LabelledInput], per_question: int, seed: int
                  ) -> list[LabelledInput]:
    """Questions in a seeded order, ``per_question`` of each question's answers (seeded),
    question after question."""
    by_q: dict[str, list[LabelledInput]] = {}
    for it in items:
        by_q.setdefault(it.input.query, []).append(it)
    rng = random.Random(seed)
    questions = sorted(by_q)
    rng.shuffle(questions)
    out: list[LabelledInput] = []
    for q in questions:
        answers = list(by_q[q])
        rng.shuffle(answers)
        out.extend(answers[:per_question])
    return out


def run_items(judge: str, model: str, items: list[LabelledInput], path: Path,
              stop_at: float | None, extra: dict[str, Any]) -> list[Evaluation]:
    """Evaluate the items not yet in ``path`` (appending), stop at ``stop_at``; return every
    evaluation of ``items`` that the file holds."""
    from factgraph.methods.run import Backends, Evaluator
    from factgraph.runners.batch import BatchRunner, repair_and_read_ids

    done, _ = repair_and_read_ids(path) if path.exists() else (set(), False)
    todo = [it for it in items if it.input.id not in done]
    if todo and (stop_at is None or time.time() < stop_at):
        method, options = judge_config(judge)
        evaluator = Evaluator(method, backends=Backends.from_specs(model),
                              options={**options, **extra})
        for it in todo:  # one at a time, so that a stop time ends the run between items
            if stop_at is not None and time.time() >= stop_at:
                log.warning("%s: stop time reached", judge)
                break
            summary = BatchRunner(evaluator, path, resume=True, progress=False).run(
                [(it.input.id, it.input)])
            if summary.stopped_by_signal:
                log.warning("%s: stopped by %s", judge, summary.stopped_by_signal)
                raise SystemExit(130)
    return _read(path)


def tune_cutoff(items: list[LabelledInput], evaluations: list[Evaluation]) -> float | None:
    """The per-fact cut-off with the highest κ on these (dev) items; ties: the lower one."""
    from factgraph.methods.e2e.fact_questions import per_fact_score
    from factgraph.metrics.agreement import cohen_kappa

    by_id = {ev.id: ev for ev in evaluations}
    pairs = [(by_id[it.input.id], it.label) for it in items if it.input.id in by_id]
    if not pairs:
        return None
    best: tuple[float, float] | None = None
    for c in CUTOFFS:
        k = cohen_kappa([lab for _, lab in pairs],
                        [predicted_label(per_fact_score(ev, c)) for ev, _ in pairs])
        if k is not None and (best is None or k > best[0] + 1e-12):
            best = (k, c)
    return None if best is None else best[1]


NLI_CUTOFFS = [0.1, 0.2, 0.3, 0.4, 0.5]


def tune_nli_cutoff(judge: str, model: str, items: list[LabelledInput], runs: Path,
                    stop_at: float | None, score_only: bool) -> tuple[float | None, int]:
    """The NLI entailment cut-off with the highest κ on these (dev) items (ties: the lower
    one; ``None`` = the most probable label, tried first). The dev answers are run once per
    candidate into ``RUNS/<judge>-dev-<cutoff>.jsonl``; after the first, every pair comes
    from the call cache, so a candidate costs no model call. Returns (cut-off, dev answers)."""
    from factgraph.metrics.agreement import cohen_kappa

    best: tuple[float, float | None] | None = None
    n_dev = 0
    for cut in [None, *NLI_CUTOFFS]:
        path = runs / f"{judge}-dev-{'label' if cut is None else cut}.jsonl"
        evs = _read(path) if score_only else run_items(
            judge, model, items, path, stop_at, {"nli_cutoff": cut})
        by_id = {ev.id: ev for ev in evs}
        pairs = [(by_id[it.input.id], it.label) for it in items if it.input.id in by_id]
        if cut is None:
            n_dev = len(pairs)
        if not pairs or len(pairs) < n_dev:  # a candidate must see the same answers
            continue
        k = cohen_kappa([lab for _, lab in pairs],
                        [predicted_label(ev.scores.get("comprehensiveness")) for ev, _ in pairs])
        log.warning("%s: nli_cutoff %s: kappa %s on %d dev answers", judge, cut, k, len(pairs))
        if k is not None and (best is None or k > best[0] + 1e-12):
            best = (k, cut)
    return (None if best is None else best[1]), n_dev


def reference_answers(data: Path) -> list[list[str]]:
    """Per WikiContradict row, the dataset's own answers of its two contexts (``gt_answer_1``,
    ``gt_answer_2``; one answer when they are the same)."""
    from factgraph.stages.compare import normalise

    out: list[list[str]] = []
    for line in data.read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            a1, a2 = str(row.get("gt_answer_1", "")), str(row.get("gt_answer_2", ""))
            out.append([a1] if normalise(a1) == normalise(a2) else [a1, a2])
    return out


def gold_answer_scores(data: Path, items: list[LabelledInput]
                       ) -> list[tuple[float | None, str]]:
    """(S, human label) per item for a reference that is **not a judge**: the dataset's own
    answers of the two contexts (``gt_answer_1``, ``gt_answer_2``; one answer when they are
    the same) checked against the response with the word check alone (``answer_stated``).
    It shows how far the answer-coverage design goes when extraction is perfect."""
    from factgraph.stages.answer_match import answer_stated

    gold = reference_answers(data)
    out: list[tuple[float | None, str]] = []
    for it in items:
        answers = gold[it.row]
        stated = [answer_stated(a, it.input.response) for a in answers]
        out.append((sum(stated) / len(stated), it.label))
    return out


def extraction_recall(model: str, data: Path, items: list[LabelledInput], joint: bool,
                      max_answers: int = 3) -> tuple[int, int, int]:
    """How many of the dataset's own answers (``gt_answer_1``, ``gt_answer_2``; one when they
    are the same) the answer judge's extraction finds, over the questions of ``items``
    (dev only: it reads the reference answers): an answer is found when it and an extracted
    answer match word for word either way round. ``joint``: all texts in one call
    (``answer_joint``) instead of one call per text. Returns (found, reference answers,
    questions)."""
    from factgraph.methods.run import Backends
    from factgraph.stages.context_facts import extract_context_facts
    from factgraph.stages.response_answers import is_known
    from factgraph.stages.session import ModelSession

    gold = reference_answers(data)
    text = Backends.from_specs(model).text
    found = total = 0
    seen: set[str] = set()
    for it in items:
        if it.input.query in seen:
            continue
        seen.add(it.input.query)
        reference = gold[it.row]
        read = extract_context_facts(
            ModelSession(text=text), it.input.query,
            {d.id: d.text for d in it.input.documents}, max_answers, 0.5,
            stage="query_answers", kind="answers", joint=joint) or []
        got = [f.text for f in read]
        found += sum(is_known(a, got) for a in reference)
        total += len(reference)
    return found, total, len(seen)


def cost_per_answer(evaluations: list[Evaluation]) -> tuple[float, float, float]:
    """(distinct model calls, generated tokens, model seconds) per answer
    (``factgraph.evaluation.cost.cost_per_item``)."""
    from factgraph.evaluation.cost import cost_per_item

    cost = cost_per_item(evaluations, len(evaluations))
    return cost.calls, cost.generated_tokens, cost.model_seconds


def fmt(v: float | None, ci: tuple[float, float] | None = None) -> str:
    if v is None:
        return "undefined"
    return f"{v:.3f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default=None, help="Text model spec (e.g. openai:NAME@URL).")
    ap.add_argument("--judges", default="e2e-per-fact,e2e,nli")
    ap.add_argument("--n", default="60,30,30", help="Test answers per judge (one number, or one "
                                                    "per judge).")
    ap.add_argument("--dev-n", type=int, default=20, help="Dev answers for tuning cut-offs.")
    ap.add_argument("--per-question", type=int, default=3)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--runs", default="out/judges", help="Folder of the resumable results.")
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--resamples", type=int, default=10_000)
    ap.add_argument("--stop-at", default=None, help="HH:MM UTC: start no answer after this.")
    ap.add_argument("--score-only", action="store_true", help="Ask no model: score what the "
                                                                "results files hold.")
    ap.add_argument("--markdown", action="store_true", help="Print the table as markdown.")
    ap.add_argument("--gold-reference", action="store_true",
                    help="Add a row that is not a judge: the dataset's own answers of the two "
                         "contexts with the word check, on the largest n's test answers.")
    ap.add_argument("--extraction-recall", action="store_true",
                    help="Only print how many of the dev questions' own answers the answer "
                         "judge's extraction finds, one call per text and joint.")
    ap.add_argument("--cards", nargs="+", default=None, metavar="CARD",
                    help="Only print a markdown table of these judge cards.")
    args = ap.parse_args(argv)
    if args.cards:
        print(cards_table([Path(c) for c in args.cards]))
        return 0
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    if not args.model:
        print("--model is required (or --cards)", file=sys.stderr)
        return 2
    if not Path(args.data).exists():
        print(f"no WikiContradict data at {args.data}", file=sys.stderr)
        return 2
    if args.extraction_recall:
        dev_questions = split_items(load_items(args.data), "dev")
        for joint in (False, True):
            found, total, nq = extraction_recall(args.model, Path(args.data), dev_questions,
                                                 joint)
            print(f"dev extraction ({'joint' if joint else 'one call per text'}): {found} of "
                  f"{total} reference answers found, {nq} questions")
        return 0
    judges = [j.strip() for j in args.judges.split(",") if j.strip()]
    unknown = [j for j in judges if j not in known_judges()]
    if unknown:
        print(f"unknown judges {unknown}; known: {known_judges()}", file=sys.stderr)
        return 2
    ns = [int(x) for x in args.n.split(",")]
    ns = ns * len(judges) if len(ns) == 1 else ns[: len(judges)]
    if len(ns) < len(judges):
        print(f"--n gives {len(ns)} numbers for {len(judges)} judges", file=sys.stderr)
        return 2
    stop_at = None
    if args.stop_at:
        h, m = (int(x) for x in args.stop_at.split(":"))
        now = dt.datetime.now(dt.UTC)
        stop = now.replace(hour=h, minute=m, second=0, microsecond=0)
        stop_at = stop.timestamp() if stop > now else now.timestamp()
    items = load_items(args.data)
    dev = ordered_items(split_items(items, "dev"), args.per_question, args.seed)
    test = ordered_items(split_items(items, "test"), args.per_question, args.seed)
    runs = Path(args.runs)
    runs.mkdir(parents=True, exist_ok=True)
    rows: list[list[str]] = []
    for judge, n in zip(judges, ns, strict=True):
        method, options = judge_config(judge)
        extra: dict[str, Any] = {}
        score_of: Callable[[Evaluation], float | None] | None = None
        note = None
        if options.get("coverage_judge") in ("per-fact", "answers"):
            dev_items = dev[: args.dev_n]
            dev_evs = run_items(judge, args.model, dev_items, runs / f"{judge}-dev.jsonl",
                                None if args.score_only else stop_at, extra) \
                if not args.score_only else _read(runs / f"{judge}-dev.jsonl")
            cutoff = tune_cutoff(dev_items, dev_evs)
            if cutoff is not None:
                from factgraph.methods.e2e.fact_questions import per_fact_score

                extra["coverage_cutoff"] = cutoff
                score_of = lambda ev, c=cutoff: per_fact_score(ev, c)  # noqa: E731
                n_dev = len({e.id for e in dev_evs} & {i.input.id for i in dev_items})
                note = f"coverage_cutoff {cutoff} tuned on {n_dev} dev answers (max kappa)"
        if judge == "nli-tuned":
            cut, n_dev = tune_nli_cutoff(judge, args.model, dev[: args.dev_n], runs, stop_at,
                                         args.score_only)
            extra["nli_cutoff"] = cut
            note = (f"nli_cutoff {cut} tuned on {n_dev} dev answers (max kappa; None = the most "
                    "probable label)")
        # score-only: every test answer the results file holds (e.g. an earlier run's sample)
        test_items = split_items(items, "test") if args.score_only else test[:n]
        path = runs / f"{judge}-test.jsonl"
        evs = _read(path) if args.score_only else run_items(
            judge, args.model, test_items, path, stop_at, extra)
        have = {ev.id for ev in evs}
        reached = [it for it in test_items if it.input.id in have]
        if not reached:
            rows.append([judge, "0", *["-"] * 8])
            continue
        result = score_results(method, reached, evs, n_resamples=args.resamples,
                               score_of=score_of)
        a = result.agreement
        assert a is not None
        reached_ids = {it.input.id for it in reached}
        calls, tokens, seconds = cost_per_answer([ev for ev in evs if ev.id in reached_ids])
        rows.append([judge, str(result.n), fmt(result.lmr_strict), fmt(a.kappa, a.kappa_ci),
                     fmt(a.balanced_accuracy, a.balanced_accuracy_ci), fmt(a.majority_baseline),
                     str(result.undefined), f"{calls:.1f}", f"{tokens:.0f}", f"{seconds:.1f}"])
        write_judge_card(JudgeCard.from_agreement(
            method=judge, model=args.model.split("@")[0], options={**options, **extra},
            split="test", a=a, undefined=result.undefined, lmr_strict_ci=result.lmr_strict_ci,
            lmr_moderate=result.lmr_moderate, note=note), runs / f"{judge}.card.json")
        if note:
            log.warning("%s: %s", judge, note)
    if args.gold_reference:
        from factgraph.datasets.wikicontradict import label_match_summary

        ref = label_match_summary("gold answers", gold_answer_scores(
            Path(args.data), test[: max(ns)]), n_resamples=args.resamples)
        dev_ref = label_match_summary("gold answers", gold_answer_scores(
            Path(args.data), dev[: args.dev_n]), n_resamples=args.resamples)
        ga, dga = ref.agreement, dev_ref.agreement
        assert ga is not None and dga is not None
        rows.append(["gold answers + word check (not a judge)", str(ref.n),
                     fmt(ref.lmr_strict), fmt(ga.kappa, ga.kappa_ci),
                     fmt(ga.balanced_accuracy, ga.balanced_accuracy_ci),
                     fmt(ga.majority_baseline), "0", "0", "0", "0"])
        log.warning("gold answers + word check on %d dev answers: kappa %s", dev_ref.n,
                    fmt(dga.kappa, dga.kappa_ci))
    header = ["judge", "n", "LMR", "kappa [95% CI]", "balanced acc. [95% CI]",
              "majority baseline", "undefined", "calls/answer", "gen. tokens/answer",
              "model s/answer"]
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * len(header))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
        print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
        for r in rows:
            print("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)))
    print(json.dumps({"model": args.model, "split": "test", "seed": args.seed,
                      "per_question": args.per_question}))
    return 0


def cards_table(paths: list[Path]) -> str:
    """A markdown table of judge cards (what the README's table is built from)."""
    from factgraph.evaluation.meta_eval import JudgeCard, read_judge_card

    lines = ["| judge | model | split | n | LMR | κ [95% CI] | balanced accuracy [95% CI] "
             "| majority baseline | undefined | options |", "|" + "---|" * 10]
    for path in paths:
        c = read_judge_card(path)
        if not isinstance(c, JudgeCard):  # a pairwise card has its own table (long_form)
            continue
        opts = ", ".join(f"{k}={v}" for k, v in sorted(c.options.items())) or "-"
        lines.append(f"| {c.method} | {c.model} | {c.split} | {c.n} | {fmt(c.lmr_strict)} | "
                     f"{fmt(c.kappa, c.kappa_ci)} | "
                     f"{fmt(c.balanced_accuracy, c.balanced_accuracy_ci)} | "
                     f"{fmt(c.majority_baseline)} | {c.undefined} | {opts} |")
    return "\n".join(lines)


def _read(path: Path) -> list[Evaluation]:
    from factgraph.io import read_jsonl

    if not path.exists() or not path.stat().st_size:
        return []
    return [ev for _, ev in read_jsonl(path, Evaluation)]


if __name__ == "__main__":
    raise SystemExit(main())
