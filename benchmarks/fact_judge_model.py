"""Benchmark: the ``evidence`` judge with a text model for the facts its cheap evidence leaves
undecided (``e2e-evidence-cascade``), fitted and measured with articles left out.

    python -m benchmarks.fact_judge_model --model openai:qwen-coder-1.5b@http://127.0.0.1:8716/v1
    python -m benchmarks.fact_judge_model --model ... --fit   # write the combination shipped
                                                              # with the calibration

On a fixed dev sample (REALSumm's first ``--articles`` articles in sorted order), the model is
asked one yes / no / unknown token about **every** fact the cheap check does not already call
contradicted (the nearest response sentences as evidence, as the judge asks; calls go through
the call cache, so a second run asks nothing). Then, with each article left out in turn:

* the combination ``P = σ(b + w·[logit P_cheap, logit P(yes), logit P(no)])`` is fitted on
  the other articles' facts in the band (a logistic model, as the calibration is);
* each band ``[low, high)`` of the cheap ``P`` asks the model about the facts in it and keeps
  the cheap decision outside it;

and the table gives κ and the share of facts asked per band, beside the model-free judge,
the model alone (``P(yes)`` at 0.5, every fact asked), the word share at its best cut-off on
these rows (optimistic) and the people. Each band also gives the share it would ask of another
kind of input, the reference statements of RAGChecker's dev answers (no model needed: the
cheap P alone says which are asked). ``--fit`` fits the combination on the whole sample in the
band with the best left-out κ among those that ask at most half of the facts on both, and
writes it into the shipped calibration (``model``), with this table as its card.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.fact_judge import RAGCHECKER, REALSUMM, realsumm_rows
from factgraph.evaluation.fact_agreement import best_cutoff, per_fact_statistics
from factgraph.evaluation.pairwise import content_word_recall
from factgraph.methods.e2e.evidence import model_evidence
from factgraph.stages.fact_calibration import (
    CASCADE_CALIBRATION,
    Calibration,
    ModelCombination,
    fit_logistic,
    load_calibration,
    logit,
)
from factgraph.stages.fact_coverage import evidence_verdict_probabilities
from factgraph.stages.fact_evidence import (
    ResponseIndex,
    distinctiveness,
    fact_evidence,
    feature_vector,
)
from factgraph.stages.judged_conflict import judged_conflict
from factgraph.stages.text_units import split_sentences

BANDS = [(lo, hi) for lo in (0.1, 0.15, 0.2, 0.25, 0.3) for hi in (0.6, 0.65, 0.7, 0.75, 0.8)]
# the cheap calibration the combination is fitted on, where it is written (the cascade reads it)
OUT = Path(__file__).resolve().parents[1] / "factgraph" / "_data" / "judges" / \
    f"{CASCADE_CALIBRATION}.json"
MAX_ASKED = 0.5  # the bar: at most half of the facts go to the model
EVIDENCE_SENTENCES = 3  # the judge's default


def sample_facts(calibration: Calibration, articles: int, session: Any,
                 evidence_sentences: int = EVIDENCE_SENTENCES,
                 summaries: int | None = None) -> dict[str, np.ndarray]:
    """Per fact of the sample: the cheap ``P``, whether the cheap check calls it contradicted,
    the model's ``(P(yes), P(no))`` (NaN where not asked), the people's label and the article."""
    rows = realsumm_rows(REALSUMM)
    keep = set(sorted({r["doc"] for r in rows})[:articles])
    rows = [r for r in rows if r["doc"] in keep][:summaries]
    cheap: list[float] = []
    conflict: list[bool] = []
    label: list[int] = []
    doc: list[str] = []
    pairs: list[tuple[str, str]] = []
    where: list[int] = []
    word: list[float] = []
    for row in rows:
        sentences = split_sentences(row["summary"], min_content_words=1)
        index = ResponseIndex.of(sentences)
        facts = [scu["text"] for scu in row["scus"]]
        distinct = distinctiveness(facts)
        for scu in row["scus"]:
            ev = fact_evidence(scu["text"], index, distinct=distinct)
            p = float(calibration.probability(
                np.array([feature_vector(ev, calibration.features)]))[0])
            bad = judged_conflict(scu["text"], index, ev, row["summary"],
                                  calibration) is not None
            if ev.sentence >= 0 and not bad:
                where.append(len(cheap))
                pairs.append((model_evidence(scu["text"], index, evidence_sentences),
                              scu["text"]))
            cheap.append(p)
            conflict.append(bad or ev.sentence < 0)
            label.append(int(scu["present"]))
            doc.append(row["doc"])
            word.append(content_word_recall(scu["text"], row["summary"]) or 0.0)
    answers = evidence_verdict_probabilities(session, pairs)
    yes = np.full(len(cheap), np.nan)
    no = np.full(len(cheap), np.nan)
    for k, a in zip(where, answers, strict=True):
        if a is not None:
            yes[k], no[k] = a
    return {"cheap": np.array(cheap), "conflict": np.array(conflict, dtype=bool),
            "y": np.array(label), "doc": np.array(doc), "yes": yes, "no": no,
            "word": np.array(word)}


def long_answer_cheap_p(calibration: str = CASCADE_CALIBRATION) -> np.ndarray:
    """The cheap P of each reference statement of RAGChecker's dev answers that the judge may
    ask the model about (aligned to a sentence, no cheap conflict): what share of a long
    answer's facts a band sends to the model. Empty without the data."""
    if not RAGCHECKER.exists():
        return np.array([])
    import factgraph
    from factgraph.datasets.pairwise import load_pairwise

    cutoff = load_calibration(calibration).cutoff  # the cut-off the cascade reads it at

    out: list[float] = []
    for inst in load_pairwise(RAGCHECKER):
        for answer in (inst.model1, inst.model2):
            graph = factgraph.evaluate("", answer.response, [inst.gt_answer or ""],
                                       judge="e2e-evidence", calibration=calibration,
                                       coverage_cutoff=cutoff).graph
            covered = {r.dst for r in graph.relations if r.label.value == "entails"}
            out.extend(s.metadata["p_covered"] for s in graph.statements
                       if s.origin.value != "response" and "contradicted" not in s.metadata
                       and (s.id in covered or "evidence" in s.metadata))
    return np.array(out)


def _features(d: dict[str, np.ndarray], mask: np.ndarray) -> np.ndarray:
    return np.column_stack([logit(d["cheap"][mask]), logit(d["yes"][mask]),
                            logit(d["no"][mask])])


def asked_in_band(d: dict[str, np.ndarray], band: tuple[float, float]) -> np.ndarray:
    """The facts the model is asked about: its answer read, no cheap conflict, the cheap P in
    ``[low, high)``."""
    return (~d["conflict"] & ~np.isnan(d["yes"]) & (d["cheap"] >= band[0])
            & (d["cheap"] < band[1]))


def decisions(d: dict[str, np.ndarray], band: tuple[float, float], cutoff: float
              ) -> tuple[np.ndarray, np.ndarray]:
    """(judged present, asked) per fact: the cheap decision outside ``band``, inside it the
    combination fitted without the fact's article."""
    asked = asked_in_band(d, band)
    judged = (d["cheap"] >= cutoff) & ~d["conflict"]
    for article in np.unique(d["doc"]):
        test = asked & (d["doc"] == article)
        train = asked & (d["doc"] != article)
        if not test.any() or len(np.unique(d["y"][train])) < 2:
            continue
        w, b = fit_logistic(_features(d, train), d["y"][train], 1.0)
        p = 1.0 / (1.0 + np.exp(-(_features(d, test) @ w + b)))
        judged[test] = p >= 0.5
    return judged, asked


def table(d: dict[str, np.ndarray], cutoff: float, long_p: np.ndarray | None = None
          ) -> list[dict[str, Any]]:
    """The rows: the judge without the model, the model alone, each band (``asked_long``: the
    share of ``long_p``, the long answers' statements, in it) and the optimistic word share."""
    present = d["y"].astype(bool).tolist()
    long_p = np.array([]) if long_p is None else long_p

    def row(name: str, judged: np.ndarray, asked: float | None) -> dict[str, Any]:
        s = per_fact_statistics(present, judged.tolist())
        return {"judge": name, "asked": asked, "kappa": s["kappa"],
                "missing_precision": s["precision_missing"],
                "missing_recall": s["recall_missing"]}

    rows = [row("no model (cheap P ≥ cut-off)", (d["cheap"] >= cutoff) & ~d["conflict"], 0.0)]
    model_alone = np.where(np.isnan(d["yes"]), d["cheap"] >= cutoff, d["yes"] >= 0.5)
    rows.append(row("the model alone, every fact asked (P(yes) ≥ 0.5)",
                    model_alone & ~d["conflict"], float(np.mean(~np.isnan(d["yes"])))))
    for band in BANDS:
        judged, asked = decisions(d, band, cutoff)
        asked_long = float(np.mean((long_p >= band[0]) & (long_p < band[1]))) \
            if len(long_p) else None
        rows.append({**row(f"band [{band[0]}, {band[1]}): combination, left out", judged,
                           float(asked.mean())), "band": band, "asked_long": asked_long})
    word_cut, _ = best_cutoff(present, d["word"].tolist(),
                              [round(0.05 * k, 2) for k in range(1, 20)])
    rows.append(row(f"word share ≥ {word_cut} (best on these rows: optimistic)",
                    d["word"] >= word_cut, 0.0))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="the text model spec (openai:NAME@URL, …)")
    ap.add_argument("--articles", type=int, default=6, help="the sample: the first K articles")
    ap.add_argument("--summaries", type=int, default=None,
                    help="only the first N summaries of the sample (a quick look; not with --fit)")
    ap.add_argument("--cache", default=None, help="call cache file (default: factgraph's)")
    ap.add_argument("--no-cache", action="store_true", help="ask the model every time")
    ap.add_argument("--fit", action="store_true", help=f"write the combination into {OUT}")
    ap.add_argument("--calibration", default=CASCADE_CALIBRATION,
                    help="the cheap calibration whose P the combination joins (default: the "
                         "one the cascade reads); --fit writes into it")
    ap.add_argument("--model-label", default=None,
                    help="what the model is, as the calibration records it (default: the spec)")
    args = ap.parse_args(argv)
    if args.fit and args.summaries is not None:
        ap.error("--fit uses the whole sample")
    if not REALSUMM.exists():
        print(f"no data at {REALSUMM}: run from the repository root with ../shared beside it",
              file=sys.stderr)
        return 2
    from factgraph.methods.run import Backends
    from factgraph.stages.session import ModelSession

    backends = Backends.from_specs(model=args.model,
                                   cache=False if args.no_cache else args.cache or True)
    session = ModelSession(text=backends.text)
    calibration = load_calibration(args.calibration)
    d = sample_facts(calibration, args.articles, session, summaries=args.summaries)
    rows = table(d, calibration.cutoff, long_answer_cheap_p(args.calibration))
    print(f"\nFacts: REALSumm dev, first {args.articles} articles ({len(d['y'])} facts), "
          f"articles left out; model {args.model}; cheap P of {args.calibration} (cut-off "
          f"{calibration.cutoff})")
    print("| judge | asked | asked of long answers' facts | κ | precision of missing "
          "| recall of missing |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        long = "–" if r.get("asked_long") is None else f"{r['asked_long']:.2f}"
        print(f"| {r['judge']} | {r['asked']:.2f} | {long} | {r['kappa']:.3f} "
              f"| {r['missing_precision']:.3f} | {r['missing_recall']:.3f} |")
    if args.fit:
        # at most half asked on the sample and on the long answers (another kind of input)
        banded = [r for r in rows if "band" in r and r["asked"] <= MAX_ASKED
                  and (r["asked_long"] is None or r["asked_long"] <= MAX_ASKED)]
        band = max(banded, key=lambda r: r["kappa"])["band"]
        asked = asked_in_band(d, band)
        w, b = fit_logistic(_features(d, asked), d["y"][asked], 1.0)
        combination = ModelCombination(
            weights=(round(float(w[0]), 6), round(float(w[1]), 6), round(float(w[2]), 6)),
            intercept=round(float(b), 6), band=band,
            fitted_with=args.model_label or args.model.split("@")[0],
            card={"sample": f"REALSumm dev, first {args.articles} articles, "
                            f"{len(d['y'])} facts", "left_out": "by article", "rows": rows})
        out = OUT.with_name(f"{args.calibration}.json")
        data = json.loads(out.read_text(encoding="utf-8"))
        data["model"] = combination.to_json()
        out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote the combination (band {band}) into {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
