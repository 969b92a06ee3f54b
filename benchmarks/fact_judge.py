"""Benchmark: the fact-level ``evidence`` judge, fitted and measured without looking at test.

    python -m benchmarks.fact_judge --fit            # fit the calibration, write the shipped JSON
    python -m benchmarks.fact_judge                  # the left-out tables (facts, summaries,
                                                     # long answers) and the contradiction check

**Facts** — two kinds of text, weighed alike in the fit (the long answers' rows weigh
``n_REALSumm / n_long`` each): REALSumm dev (news summaries, 12,471 SCUs of 50 articles labelled
by people) and the five sets of long answers of other kinds labelled by hand
(``benchmarks/data/fact_labels_other_kinds*.jsonl``, 3,512 facts). Every number is left out: a
REALSumm fact's ``P(stated)`` comes from the fold (5, by article, seeded) that did not see its
article, fitted on the other articles and every long set; a long set's from the fit on REALSumm
and the other long sets (leave one set out). The cut-off is the one with the best mean of the
two kinds' left-out κ (REALSumm's, and the mean of the long sets'). Each table stands beside
the word share of the fact (at 0.3, and at its best cut-off on the same rows: optimistic) and,
on REALSumm, the people's own agreement (first crowd vote against the second).

**Summaries** (the same rows): the share of facts judged covered per summary against the
people's share, Kendall τ-b per article across systems (mean over articles) and Pearson over
summaries; the graded companion (expected coverage, the mean ``P``) beside it.

**Long answers** (RAGChecker dev, 84 instances, completeness labels): the model fitted on
REALSumm alone — RAGChecker's data was never used to fit it — and the one choice made on
this data, ``partial_credit_words`` (a statement stated in part counts the mean P of its
clauses in expected coverage) with ``expected_coverage_weights`` (statements weighed by their
content words or alike), made with each of its three domains left out in turn: the headline
scores each domain with the values picked on the other two. Beside it the shipped values on
all 84 (chosen on them: a dev number), each undone alone, content-word recall, RAGChecker's
recorded scores and the annotators' agreement (``meta-eval pairwise``'s protocol).

**Wrong facts**: changed answers built from RAGChecker dev answers — in a sentence that states
a reference fact (P ≥ 0.8), one number, year, negation, antonym or name is changed — and the
share whose changed fact is judged contradicted; on the faithful originals, the share of
answers with any fact called contradicted. A name is changed to "Vandermeer" (a name no answer
has) and, as a separate row outside the share, to a name the answer uses elsewhere. One
stated fact is drawn per answer (each answer one trial); beside it, every stated fact of every
answer (``every_stated_fact``: a larger sample, answers with many facts weigh more).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from factgraph.evaluation.fact_agreement import (
    best_cutoff,
    correlations,
    group_means,
    kendall_per_group,
    per_fact_statistics,
)
from factgraph.evaluation.facts_report import CANDIDATE_CUTOFFS
from factgraph.methods.e2e.evidence import reference_facts
from factgraph.stages.contradiction import NEGATORS, find_conflict
from factgraph.stages.fact_calibration import (
    DEFAULT_CALIBRATION,
    Calibration,
    fit_logistic,
    load_calibration,
)
from factgraph.stages.fact_evidence import (
    FEATURES,
    FactEvidence,
    ResponseIndex,
    distinctiveness,
    fact_evidence,
    feature_vector,
    stems,
)
from factgraph.stages.judged_conflict import CONFLICT_MIN_P, values_aside_probability
from factgraph.stages.judged_conflict import judged_conflict as conflict_as_judged
from factgraph.stages.text_units import VERB_CUE, split_sentences

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"  # ../shared beside the repo
REALSUMM = SHARED / "realsumm" / "scu_presence_dev.jsonl.gz"
RAGCHECKER = SHARED / "ragchecker" / "meta_eval_dev.jsonl.gz"
OUT = (Path(__file__).resolve().parents[1] / "factgraph" / "_data" / "judges"
       / f"{DEFAULT_CALIBRATION}.json")
# the long-answer sets the calibration is fitted on (1 … 5); sets 6 and 7 stay out of the fit,
# held out
LONG_ANSWERS = [Path(__file__).resolve().parent / "data" / f"fact_labels_other_kinds{s}.jsonl"
                for s in ("", "_2", "_3", "_4", "_5")]
FOLDS = 5
SEED = 0
L2 = 1.0
STATED_SHARE = 0.75  # wrong facts: a changed sentence carries at least this share of the fact
UNIT = "statements"  # the evidence judge's default reference_facts


def realsumm_rows(path: Path) -> list[dict[str, Any]]:
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def long_answer_rows(path: Path) -> list[dict[str, Any]]:
    """A hand-labelled long-answer set in the fact-labels format, each ``doc`` named with its set
    (``set 2: med-asthma``)."""
    name = f"set {path.stem.removeprefix('fact_labels_other_kinds').lstrip('_') or '1'}"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return [{**row, "doc": f"{name}: {row['doc']}"} for row in rows]


def realsumm_features(rows: Sequence[dict[str, Any]], embed_spec: str | None = None
                      ) -> dict[str, np.ndarray]:
    """Per SCU: features, label, article, summary index, the first two votes, and whether the
    judge's contradiction check fires on its aligned sentence (as the judge runs it). With
    ``embed_spec`` (``minilm``) the features add the best cosine similarity to a sentence —
    what ``--similarity`` measures: the judge ships without it."""
    from factgraph.evaluation.pairwise import content_word_recall  # meta-eval facts' baseline

    vectors: dict[str, np.ndarray] = {}
    if embed_spec is not None:
        from factgraph.backends.factory import load_embedding_backend

        texts = sorted({t for row in rows for t in [
            *(split_sentences(row["summary"], min_content_words=1) or [row["summary"]]),
            *(scu["text"] for scu in row["scus"])]})
        matrix = np.asarray(load_embedding_backend(embed_spec).embed(texts), dtype=np.float32)
        vectors = dict(zip(texts, matrix, strict=True))
    shipped = load_calibration()
    x, y, doc, summary, votes, conflict, word = [], [], [], [], [], [], []
    conflict_stated: list[bool] = []
    for k, row in enumerate(rows):
        sentences = split_sentences(row["summary"], min_content_words=1) or [row["summary"]]
        index = ResponseIndex.of(sentences)
        distinct = distinctiveness([scu["text"] for scu in row["scus"]])  # as the judge does
        for scu in row["scus"]:
            sims = (np.array([vectors[s] for s in sentences]) @ vectors[scu["text"]]
                    if vectors else None)
            ev = fact_evidence(scu["text"], index, sims, distinct)
            x.append(feature_vector(ev, FEATURES if sims is not None else FEATURES[:-1]))
            # with and without the judge's reading that the sentence states the fact: which
            # one applies hangs on the P of the fit that leaves this article out; shown only
            # where the rest of the fact is carried (the shipped calibration's P with the
            # value evidence set aside: ``factgraph.stages.judged_conflict``)
            carried = float(values_aside_probability(shipped, np.array(
                [feature_vector(ev, shipped.features)]))[0]) >= CONFLICT_MIN_P
            conflict.append(carried and find_conflict(
                scu["text"], index, ev.sentence, row["summary"]) is not None)
            conflict_stated.append(carried and find_conflict(
                scu["text"], index, ev.sentence, row["summary"], judged_stated=True)
                is not None)
            y.append(int(scu["present"]))
            doc.append(row["doc"])
            summary.append(k)
            votes.append(scu.get("votes", [scu["present"]] * 2)[:2])  # one label: no votes
            word.append(content_word_recall(scu["text"], row["summary"]) or 0.0)
    return {"x": np.array(x), "y": np.array(y), "doc": np.array(doc),
            "summary": np.array(summary), "votes": np.array(votes), "word": np.array(word),
            "conflict": np.array(conflict, dtype=bool),
            "conflict_stated": np.array(conflict_stated, dtype=bool)}


def long_answer_features() -> dict[str, dict[str, np.ndarray]]:
    """The features of each long-answer set (:data:`LONG_ANSWERS`), by set name."""
    return {(rows := long_answer_rows(path))[0]["doc"].split(":")[0]: realsumm_features(rows)
            for path in LONG_ANSWERS}


def _kind_weight(d: dict[str, np.ndarray], long: dict[str, dict[str, np.ndarray]]) -> float:
    """The weight of a long answer's row: the two kinds weigh alike in the fit."""
    n_long = sum(len(x["y"]) for x in long.values())
    return len(d["y"]) / n_long if n_long else 0.0


def _fit(parts: Sequence[tuple[dict[str, np.ndarray], np.ndarray | None, float]]
         ) -> tuple[np.ndarray, float]:
    """The logistic fit on the rows ``mask`` of each data set, each row weighed ``weight``."""
    x = np.vstack([d["x"] if m is None else d["x"][m] for d, m, _ in parts])
    y = np.concatenate([d["y"] if m is None else d["y"][m] for d, m, _ in parts])
    sw = np.concatenate([np.full(len(d["y"]) if m is None else int(m.sum()), w)
                         for d, m, w in parts])
    return fit_logistic(x, y, L2, sw)


def _p(w: np.ndarray, b: float, x: np.ndarray) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-(x @ w + b))))


def left_out_probabilities(d: dict[str, np.ndarray],
                           long: dict[str, dict[str, np.ndarray]] | None = None) -> np.ndarray:
    """Each REALSumm fact's P from the fold that left its article out (fitted on the other
    articles and, weighed as :func:`_kind_weight`, every long-answer set of ``long``)."""
    long = long or {}
    weight = _kind_weight(d, long)
    docs = np.unique(d["doc"])
    np.random.default_rng(SEED).shuffle(docs)
    p = np.zeros(len(d["y"]))
    for fold in np.array_split(docs, FOLDS):
        test = np.isin(d["doc"], fold)
        w, b = _fit([(d, ~test, 1.0), *((x, None, weight) for x in long.values())])
        p[test] = _p(w, b, d["x"][test])
    return p


def long_left_out_probabilities(d: dict[str, np.ndarray],
                                long: dict[str, dict[str, np.ndarray]]
                                ) -> dict[str, np.ndarray]:
    """Each long-answer set's P from the fit on REALSumm and the other long sets (leave one
    set out)."""
    weight = _kind_weight(d, long)
    out = {}
    for name, x in long.items():
        w, b = _fit([(d, None, 1.0), *((o, None, weight) for k, o in long.items()
                                       if k != name)])
        out[name] = _p(w, b, x["x"])
    return out


def _kappa(d: dict[str, np.ndarray], p: np.ndarray, cutoff: float) -> float:
    y = d["y"].astype(bool)
    return per_fact_statistics(y.tolist(), (p >= cutoff).tolist())["kappa"] or 0.0


def kinds_alike_cutoff(d: dict[str, np.ndarray], p: np.ndarray,
                       long: dict[str, dict[str, np.ndarray]],
                       long_p: dict[str, np.ndarray]) -> float:
    """The cut-off (0.3 … 0.7) with the best mean of the two kinds' left-out κ: REALSumm's, and
    the mean over the long-answer sets (REALSumm's alone where there are none)."""
    cutoffs = [round(0.3 + 0.05 * k, 2) for k in range(9)]

    def score(c: float) -> float:
        if not long:
            return _kappa(d, p, c)
        return (_kappa(d, p, c) + float(np.mean([_kappa(long[k], long_p[k], c)
                                                 for k in long]))) / 2

    return max(cutoffs, key=score)


def conflicts(d: dict[str, np.ndarray], p: np.ndarray, cutoff: float) -> np.ndarray:
    """Per fact, whether the judge calls it contradicted at these P: the check as the judge
    asks it, reading the sentence as stating the fact where P reaches the cut-off."""
    return np.where(p >= cutoff, d["conflict_stated"], d["conflict"])


def judged_conflict(fact: str, index: ResponseIndex, ev: FactEvidence, response: str,
                    calibration: Calibration | None = None) -> bool:
    """``find_conflict`` as the evidence judge asks it (``factgraph.stages.judged_conflict``):
    the sentence read as stating the fact where the calibration's P of this evidence reaches
    its cut-off (the shipped one by default), shown only where the fact's P with its value
    evidence set aside reaches ``CONFLICT_MIN_P``."""
    cal = calibration or load_calibration()  # cached: read once
    return conflict_as_judged(fact, index, ev, response, cal) is not None


def long_answer_table(long: dict[str, dict[str, np.ndarray]], long_p: dict[str, np.ndarray],
                      cutoff: float) -> list[dict[str, Any]]:
    """Per long-answer set, left out: the judge's κ, precision and recall of "missing" (a fact
    shown contradicted is not present), beside the word share at 0.3 and at its best cut-off on
    the set (optimistic)."""
    rows = []
    for name, x in long.items():
        present = x["y"].astype(bool).tolist()
        best, _ = best_cutoff(present, x["word"].tolist(), CANDIDATE_CUTOFFS)
        row: dict[str, Any] = {"set": name, "facts": len(present)}
        for label, covered in (("judge", (long_p[name] >= cutoff) & ~conflicts(
                x, long_p[name], cutoff)),
                               ("word share ≥ 0.3", x["word"] >= 0.3),
                               ("word share, best cut-off (optimistic)", x["word"] >= best)):
            stats = per_fact_statistics(present, covered.tolist())
            row[f"{label} κ"] = stats["kappa"]
            if label == "judge":
                row["missing_precision"] = stats["precision_missing"]
                row["missing_recall"] = stats["recall_missing"]
        row["optimistic cut-off"] = best
        rows.append(row)
    return rows


def fact_table(d: dict[str, np.ndarray], p: np.ndarray, cutoff: float) -> list[dict[str, Any]]:
    """Per fact, as ``meta-eval facts`` computes it (``factgraph.evaluation.fact_agreement``)."""
    present = d["y"].astype(bool).tolist()
    word = d["word"]
    best, _ = best_cutoff(present, word.tolist(), CANDIDATE_CUTOFFS)
    rows = []
    # as the judge decides: a contradicted fact is not
    judged = (p >= cutoff) & ~conflicts(d, p, cutoff)
    for name, covered in ((f"evidence judge (P ≥ {cutoff:g}, left out)", judged),
                          ("word share ≥ 0.3 (as in meta-eval facts)", word >= 0.3),
                          (f"word share ≥ {best:.2f} (best on these rows: optimistic)",
                           word >= best)):
        stats = per_fact_statistics(present, covered.tolist())
        rows.append({"judge": name, "kappa": stats["kappa"], "accuracy": stats["accuracy"],
                     "missing_precision": stats["precision_missing"],
                     "missing_recall": stats["recall_missing"]})
    v = d["votes"].astype(bool)
    people = per_fact_statistics(v[:, 0].tolist(), v[:, 1].tolist())
    rows.append({"judge": "people: first vote vs second", "kappa": people["kappa"],
                 "accuracy": people["accuracy"], "missing_precision": None,
                 "missing_recall": None})
    return rows


def summary_table(d: dict[str, np.ndarray], p: np.ndarray, cutoff: float
                  ) -> list[dict[str, Any]]:
    """Per summary: each score's share against the people's share (Kendall per article,
    Pearson over summaries), as ``meta-eval facts`` computes them."""
    summaries = d["summary"].astype(str).tolist()
    human = group_means(d["y"].tolist(), summaries)
    doc_of = dict(zip(summaries, d["doc"].tolist(), strict=True))
    judged = ((p >= cutoff) & ~conflicts(d, p, cutoff)).astype(float)
    out = []
    for name, v in (("evidence judge: S (share covered)", judged),
                    ("evidence judge: expected coverage (mean P)",
                     np.where(conflicts(d, p, cutoff), 0, p)),
                    ("word share of the facts (mean)", d["word"])):
        share = group_means(v.tolist(), summaries)
        keys = list(share)
        tau, _ = kendall_per_group([share[k] for k in keys], [human[k] for k in keys],
                                   [doc_of[k] for k in keys])
        r, _ = correlations([share[k] for k in keys], [human[k] for k in keys])
        out.append({"judge": name, "kendall_per_article": tau, "pearson": r})
    return out


PARTIAL_CREDIT_WORDS = (0, 2, 3, 4)  # the candidates: off, or clauses of at least N words
COVERAGE_WEIGHTS = ("words", "facts")  # expected coverage weighs statements by words or alike


def _agreement(pairs: Sequence[tuple[Any, Any]], labels: Sequence[Any]) -> tuple[float, float]:
    from factgraph.evaluation.pairwise import preference_agreement

    a = preference_agreement("", list(pairs), list(labels), n_resamples=0)
    nan = float("nan")  # undefined (no decided pair): never picked, printed as nan
    return (nan if a.pearson is None else a.pearson), (nan if a.spearman is None else a.spearman)


def pairwise_table(calibration: Calibration) -> list[dict[str, Any]]:
    """Long answers: the judge as users run it (its calibration, contradictions, statements),
    its two choices made on this data chosen with each domain left out:
    ``partial_credit_words`` (:data:`PARTIAL_CREDIT_WORDS`) and ``expected_coverage_weights``
    (:data:`COVERAGE_WEIGHTS`) are picked together on two of RAGChecker's three dev domains by
    the smaller of Pearson and Spearman, and the third domain's instances are scored with the
    pick; the pooled left-out scores are the headline, beside the shipped values on all 84
    (a dev number: chosen on these instances), each choice undone alone, and the reference
    points."""
    import factgraph
    from factgraph.datasets.pairwise import load_pairwise
    from factgraph.evaluation.pairwise import annotator_agreement, content_word_recall

    instances = load_pairwise(RAGCHECKER)
    labels = [[h.completeness_label for h in i.human] for i in instances]
    domains = [i.dataset or "" for i in instances]
    from factgraph.methods.e2e.kind_specs import EvidenceJudge

    shipped = (EvidenceJudge().partial_credit_words, EvidenceJudge().expected_coverage_weights)
    choices = [(w, m) for w in PARTIAL_CREDIT_WORDS for m in COVERAGE_WEIGHTS]

    def scores(reference: str, response: str, choice: tuple[int, str]
               ) -> dict[str, float | None]:
        return factgraph.evaluate("", response, [reference], judge="e2e-evidence",
                                  partial_credit_words=choice[0],
                                  expected_coverage_weights=choice[1]).scores

    by_choice = {c: [(scores(i.gt_answer or "", i.model1.response, c),
                      scores(i.gt_answer or "", i.model2.response, c)) for i in instances]
                 for c in choices}

    def graded(c: tuple[int, str], k: int) -> tuple[Any, Any]:
        x, y = by_choice[c][k]
        return x["expected_coverage"], y["expected_coverage"]

    left_out: list[tuple[Any, Any]] = [(None, None)] * len(instances)
    picks = {}
    for domain in sorted(set(domains)):
        train = [k for k, d in enumerate(domains) if d != domain]
        pick = max(choices, key=lambda c: min(_agreement(
            [graded(c, k) for k in train], [labels[k] for k in train])))
        picks[domain] = pick
        for k, d in enumerate(domains):
            if d == domain:
                left_out[k] = graded(pick, k)
    rows = []
    chosen = ", ".join(f"{d} out: {w}, {m}" for d, (w, m) in picks.items())
    every = range(len(instances))
    for name, pairs in (
            (f"evidence judge: expected coverage, left out by domain ({chosen})", left_out),
            (f"evidence judge: expected coverage, partial_credit_words={shipped[0]}, "
             f"weighed by {shipped[1]} (shipped; chosen on these)",
             [graded(shipped, k) for k in every]),
            (f"evidence judge: expected coverage, statements weighed alike "
             f"(partial_credit_words={shipped[0]})",
             [graded((shipped[0], "facts"), k) for k in every]),
            (f"evidence judge: expected coverage, no partial credit (weighed by {shipped[1]})",
             [graded((0, shipped[1]), k) for k in every]),
            ("evidence judge: S", [(x["comprehensiveness"], y["comprehensiveness"])
                                   for x, y in by_choice[shipped]])):
        r, rho = _agreement(pairs, labels)
        rows.append({"judge": name, "pearson": r, "spearman": rho})

    def recorded(i: Any) -> tuple[float | None, float | None]:
        key = "completeness_label"
        return (i.model1.ragchecker or {}).get(key), (i.model2.ragchecker or {}).get(key)

    for name, s in (("content-word recall", [(content_word_recall(i.gt_answer or "",
                                                                  i.model1.response),
                                              content_word_recall(i.gt_answer or "",
                                                                  i.model2.response))
                                             for i in instances]),
                    ("RAGChecker (recorded)", [recorded(i) for i in instances])):
        r, rho = _agreement(s, labels)
        rows.append({"judge": name, "pearson": r, "spearman": rho})
    a = annotator_agreement(labels, n_resamples=0)
    rows.append({"judge": "annotator vs annotator", "pearson": a.pearson,
                 "spearman": a.spearman})
    return rows


# --- wrong facts: changed answers -------------------------------------------------------------

_NUM = re.compile(r"\b\d+(?:[.,]\d+)?\b")
_NAME_IN_TEXT = re.compile(r"(?<=[a-z,] )[A-Z][a-z]{3,}\b")


ANSWER_NAME = "name from the answer"  # a robustness row, outside the headline share
# another robustness row: the first name that opens the fact, which the "name" row never
# changes ("Andy Murray will marry" -> "Vandermeer Murray will marry"); outside the headline
# share, which stays the sample it was
OPENING_NAME = "first name opening the fact"
ROBUSTNESS = (ANSWER_NAME, OPENING_NAME)


# The antonyms the changed answers are built with: a fixed list (the judge's first one), so
# that the sample stays the same while the judge's own table (factgraph.stages.conflicts.antonyms)
# grows, and a word it learns is measured on changes it was not written for.
CHANGE_ANTONYM_PAIRS = (
    ("positive", "negative"), ("increase", "decrease"), ("increase", "reduce"),
    ("rise", "fall"), ("higher", "lower"), ("high", "low"), ("more", "fewer"),
    ("larger", "smaller"), ("large", "small"),
    ("won", "lost"), ("win", "lose"), ("maximum", "minimum"), ("majority", "minority"),
    ("strong", "weak"), ("stronger", "weaker"), ("legal", "illegal"), ("true", "false"),
    ("success", "failure"), ("successful", "unsuccessful"), ("accept", "reject"),
    ("accepted", "rejected"), ("allow", "forbid"), ("allowed", "banned"),
    ("approved", "rejected"), ("north", "south"), ("east", "west"),
    ("inside", "outside"), ("internal", "external"), ("early", "late"), ("earlier", "later"),
    ("older", "younger"), ("oldest", "youngest"), ("best", "worst"), ("better", "worse"),
    ("present", "absent"), ("alive", "dead"), ("open", "closed"), ("male", "female"),
    ("increased", "decreased"), ("rose", "fell"), ("gain", "loss"), ("profit", "loss"),
    ("guilty", "innocent"), ("import", "export"), ("maximum", "minimum"),
    ("include", "exclude"), ("included", "excluded"), ("above", "below"),
    ("heavier", "lighter"), ("faster", "slower"), ("longer", "shorter"), ("warmer", "colder"),
    ("hot", "cold"),
)
CHANGE_ANTONYMS: dict[str, list[str]] = {}
for _a, _b in CHANGE_ANTONYM_PAIRS:
    CHANGE_ANTONYMS.setdefault(_a, []).append(_b)
    CHANGE_ANTONYMS.setdefault(_b, []).append(_a)


def _changes(fact: str, sentence: str, response: str = "") -> list[tuple[str, str]]:
    """(kind, changed sentence) for each change of the fact's own slot that this sentence
    admits: a number or year of the fact, a name of the fact (to "Vandermeer", a name no
    answer has, and, with ``response``, to a name the answer uses elsewhere: "name from the
    answer"), a word of the fact that has an antonym, or "not" after the first auxiliary verb."""
    from factgraph.stages.context_facts import content_words
    from factgraph.stages.fact_evidence import names

    out = []
    # the fact's numbers as written: the change is made to the sentence's own spelling
    for n in [w for w in content_words(fact, values=False) if re.search(r"\d", w)]:
        found = list(re.finditer(rf"(?<![\d.,]){re.escape(n)}(?![\d])", sentence))
        if len(found) != 1 or not n.isdigit():  # said twice: changing one leaves it stated
            continue
        at = found[0]
        year = re.fullmatch(r"(1[5-9]|20)\d\d", n) is not None
        new = str(int(n) + 3) if year else str(int(n) * 2 + 3)
        out.append(("date" if year else "number", sentence[: at.start()] + new
                    + sentence[at.end():]))
        break
    for w in re.findall(r"[a-z]+", fact.lower()):
        if w in CHANGE_ANTONYMS and re.search(rf"\b{w}\b", sentence):
            out.append(("antonym", re.sub(rf"\b{w}\b", sorted(CHANGE_ANTONYMS[w])[0], sentence,
                                          count=1)))
            break
    # "not" goes before what states the fact: an auxiliary whose next word is the fact's
    # ("Miller was caught" -> "Miller was not caught"), not anywhere in the sentence
    fact_stems = set(stems(fact))
    if not any(t in NEGATORS for t in re.findall(r"[a-z']+", sentence.lower())):
        for aux in re.finditer(r"\b(is|are|was|were|has|have|had|can|will)\s+(\w+)", sentence):
            if stems(aux.group(2)) and stems(aux.group(2))[0] in fact_stems:
                out.append(("negation", sentence[: aux.end(1)] + " not"
                            + sentence[aux.end(1):]))
                break
    for name in names(fact):
        m = re.search(rf"\b{re.escape(name)}\b", sentence, re.I)
        if m is not None and len(name) >= 4:
            out.append(("name", re.sub(rf"\b{re.escape(m.group(0))}\b", "Vandermeer",
                                       sentence)))
            other = next((n for n in names(response) if len(n) >= 4 and n not in
                          sentence.lower() and n not in fact.lower()), None)
            if other is not None:
                out.append((ANSWER_NAME, re.sub(rf"\b{re.escape(m.group(0))}\b",
                                                other.title(), sentence)))
            break
    opening = re.match(r"\s*([A-Z][a-z]{3,})\s+[A-Z][a-z]", fact)  # a first name
    if opening is not None and re.search(rf"\b{opening.group(1)}\b", sentence):
        out.append((OPENING_NAME, re.sub(rf"\b{opening.group(1)}\b", "Vandermeer", sentence)))
    return out


def changed_trials(fact: str, sentences: list[str], response: str
                   ) -> list[tuple[str, str, bool]]:
    """(kind, changed sentence, detected) for each change of ``fact``'s slot in its aligned
    sentence."""
    index = ResponseIndex.of(sentences)
    ev = fact_evidence(fact, index)
    if ev.sentence < 0 or ev.sentence_share < STATED_SHARE:  # the sentence must state it
        return []
    s = sentences[ev.sentence]
    out = []
    for kind, changed in _changes(fact, s, response):
        if changed == s:
            continue
        new_sentences = [changed if x == s else x for x in sentences]
        new_index = ResponseIndex.of(new_sentences)
        new_ev = fact_evidence(fact, new_index)
        hit = judged_conflict(fact, new_index, new_ev, response.replace(s, changed))
        out.append((kind, changed, hit))
    return out


def _perturbation_trial(fact: str, sentences: list[str], response: str
                        ) -> list[tuple[str, int]]:
    """(kind, detected) for each change of ``fact``'s slot in its aligned sentence."""
    return [(kind, int(hit)) for kind, _, hit in changed_trials(fact, sentences, response)]


def judged_facts(facts: Sequence[str], sentences: list[str], calibration: Calibration
                 ) -> tuple[ResponseIndex, list[FactEvidence], np.ndarray]:
    """The response's index, each fact's evidence (distinctiveness among ``facts``, as the
    judge reads them) and its cheap ``P(stated)``."""
    index = ResponseIndex.of(sentences)
    distinct = distinctiveness(list(facts))
    evs = [fact_evidence(f, index, distinct=distinct) for f in facts]
    p = calibration.probability(np.array([feature_vector(e, calibration.features)
                                          for e in evs]))
    return index, evs, p


def _any_contradiction(facts: Sequence[str], sentences: list[str], response: str) -> bool:
    index = ResponseIndex.of(sentences)
    return any(judged_conflict(f, index, fact_evidence(f, index), response) for f in facts)


def contradiction_table(calibration: Calibration, seed: int = SEED) -> dict[str, Any]:
    """Changed answers and summaries: detection per kind; the originals: the share with any
    fact called contradicted; WikiContradict's conflicting passages: the share detected."""
    from factgraph.datasets.pairwise import load_pairwise

    # one stream per data set: how many draws one takes never moves the other's sample
    rng = np.random.default_rng([seed, 0])
    detected: dict[str, dict[str, list[int]]] = {"ragchecker": {}, "realsumm": {}}
    alarms = {"ragchecker": 0, "realsumm": 0}
    count = {"ragchecker": 0, "realsumm": 0}
    every_fact: list[int] = []
    for inst in load_pairwise(RAGCHECKER):
        facts = reference_facts(inst.gt_answer or "", UNIT)
        for side in (inst.model1, inst.model2):
            sentences = split_sentences(side.response, min_content_words=1)
            if not sentences or not facts:
                continue
            count["ragchecker"] += 1
            alarms["ragchecker"] += _any_contradiction(facts, sentences, side.response)
            _, evs, p = judged_facts(facts, sentences, calibration)
            stated = [k for k, e in enumerate(evs)  # a present fact that is a statement
                      if p[k] >= 0.8 and e.sentence >= 0 and VERB_CUE.search(facts[k])]
            # every stated fact of every answer (a larger sample), and one drawn per answer
            trials = {k: _perturbation_trial(facts[k], sentences, side.response)
                      for k in stated}
            every_fact.extend(hit for got in trials.values() for kind, hit in got
                              if kind not in ROBUSTNESS)
            if stated:
                for kind, hit in trials[stated[int(rng.integers(len(stated)))]]:
                    detected["ragchecker"].setdefault(kind, []).append(hit)
    rng = np.random.default_rng([seed, 1])
    for row in realsumm_rows(REALSUMM):
        sentences = split_sentences(row["summary"], min_content_words=1)
        if not sentences:
            continue
        count["realsumm"] += 1
        present = [scu["text"] for scu in row["scus"] if scu["present"]]
        alarms["realsumm"] += _any_contradiction(present, sentences, row["summary"])
        if present:  # a fact people say the summary states
            fact = present[int(rng.integers(len(present)))]
            for kind, hit in _perturbation_trial(fact, sentences, row["summary"]):
                detected["realsumm"].setdefault(kind, []).append(hit)
    out: dict[str, Any] = {}
    for name in ("ragchecker", "realsumm"):
        out[name] = {
            "originals": count[name], "originals_with_any_contradiction": alarms[name],
            "changed": {k: {"n": len(v), "detected": int(sum(v))}
                        for k, v in sorted(detected[name].items())}}
        hits = [h for k, v in detected[name].items() if k not in ROBUSTNESS for h in v]
        out[name]["changed_detected_share"] = float(np.mean(hits)) if hits else None
    out["ragchecker"]["every_stated_fact"] = {"n": len(every_fact),
                                               "detected": int(sum(every_fact))}
    out["wikicontradict"] = wikicontradict_detection()
    out["factscore"] = factscore_check(calibration)
    return out


def factscore_check(calibration: Calibration) -> dict[str, Any] | None:
    """Another kind of text, no labels needed: FActScore's biographies, each with the atomic
    facts people extracted *from that biography* — every one is stated, so the judge should
    call them covered and none contradicted (a floor on false alarms on text it never saw)."""
    folder = SHARED / "factscore"
    if not folder.is_dir():
        return None
    facts_n = covered = contradicted = answers = flagged = 0
    for path in sorted(folder.glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for line in f:
                row = json.loads(line)
                facts = [a["text"] for ann in row.get("annotations") or []
                         for a in ann.get("human-atomic-facts") or []]
                if not facts:
                    continue
                answers += 1
                sentences = split_sentences(row["output"], min_content_words=1) or [row["output"]]
                index, evs, p = judged_facts(facts, sentences, calibration)
                wrong = [conflict_as_judged(fact, index, e, row["output"], calibration)
                         is not None for fact, e in zip(facts, evs, strict=True)]
                facts_n += len(facts)
                contradicted += sum(wrong)
                covered += int(sum(pk >= calibration.cutoff and not w
                                   for pk, w in zip(p, wrong, strict=True)))
                flagged += any(wrong)
    return {"answers": answers, "facts": facts_n, "covered_share": covered / max(facts_n, 1),
            "contradicted": contradicted, "answers_with_any_contradiction": flagged}


def wikicontradict_detection() -> dict[str, Any] | None:
    """WikiContradict's conflicting passage pairs: the first passage's statements as facts,
    the second passage as the response; how many pairs get any fact called contradicted (and,
    as a control, the first passage against itself)."""
    path = SHARED / "wikicontradict" / "wiki_contradict_refined.jsonl"
    if not path.exists():
        return None
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    hit = control = 0
    for row in rows:
        facts = reference_facts(row["context1"], UNIT) or [row["context1"]]
        other = split_sentences(row["context2"], min_content_words=1) or [row["context2"]]
        same = split_sentences(row["context1"], min_content_words=1) or [row["context1"]]
        hit += _any_contradiction(facts, other, row["context2"])
        control += _any_contradiction(facts, same, row["context1"])
    return {"pairs": len(rows), "detected": hit, "control_self_flagged": control}


def fit(d: dict[str, np.ndarray], long: dict[str, dict[str, np.ndarray]] | None = None,
        p: np.ndarray | None = None, long_p: dict[str, np.ndarray] | None = None
        ) -> Calibration:
    """The shipped calibration: weights fitted on every dev fact of both kinds (REALSumm and the
    long-answer sets ``long``, weighed alike), the cut-off with the best mean left-out κ of the
    two kinds (:func:`kinds_alike_cutoff`) over the left-out probabilities ``p`` and ``long_p``
    (computed here when not given)."""
    long = long or {}
    p = left_out_probabilities(d, long) if p is None else p
    long_p = long_left_out_probabilities(d, long) if long_p is None else long_p
    cutoff = kinds_alike_cutoff(d, p, long, long_p)
    w, b = _fit([(d, None, 1.0), *((x, None, _kind_weight(d, long)) for x in long.values())])
    n_long = sum(len(x["y"]) for x in long.values())
    card = {"fitted_on": f"REALSumm dev (50 articles, {len(d['y']):,} SCUs) and "
                         f"{len(long)} hand-labelled long-answer sets ({n_long:,} facts), the "
                         "two kinds weighed alike",
            "left_out": {"folds": FOLDS, "by": "article (REALSumm); set (long answers)",
                         "seed": SEED, "facts": fact_table(d, p, cutoff),
                         "summaries": summary_table(d, p, cutoff),
                         "long_answers": long_answer_table(long, long_p, cutoff)}}
    return Calibration(name=DEFAULT_CALIBRATION, features=FEATURES[:-1],
                       weights=tuple(round(float(v), 6) for v in w),
                       intercept=round(b, 6), cutoff=cutoff,
                       fitted_on="REALSumm dev (people's present / not-present SCU labels) and "
                                 "hand-labelled facts of long answers of other kinds, weighed "
                                 "alike",
                       card=card)


def _fmt(v: Any) -> str:
    return "—" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v)


def _print_table(title: str, rows: list[dict[str, Any]]) -> None:
    cols = list(rows[0])
    print(f"\n{title}\n| {' | '.join(cols)} |\n|{'---|' * len(cols)}")
    for r in rows:
        print("| " + " | ".join(_fmt(r[c]) for c in cols) + " |")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fit", action="store_true", help=f"fit and write {OUT}")
    ap.add_argument("--skip-pairwise", action="store_true",
                    help="only the REALSumm tables (no long answers, no wrong facts)")
    ap.add_argument("--similarity", action="store_true",
                    help="also try the best MiniLM cosine to a sentence as a feature (needs the "
                         "embed extra): the facts table in left-out folds, with and without it")
    ap.add_argument("--articles", type=int, default=None,
                    help="only the first K REALSumm articles (sorted ids; a quick look, not "
                         "the reported tables; not with --fit)")
    args = ap.parse_args(argv)
    if not REALSUMM.exists():
        print(f"no data at {REALSUMM}: run from the repository root with ../shared beside it",
              file=sys.stderr)
        return 2
    rows = realsumm_rows(REALSUMM)
    if args.articles is not None:
        if args.fit:
            ap.error("--fit uses every dev article")
        keep = set(sorted({r["doc"] for r in rows})[: max(args.articles, FOLDS)])
        rows = [r for r in rows if r["doc"] in keep]
    if args.similarity:
        if args.fit:
            ap.error("--fit fits the shipped model, which has no similarity feature")
        with_sim = realsumm_features(rows, "minilm")
        _print_table("Facts, with the MiniLM similarity as a feature (left-out folds)",
                     fact_table(with_sim, left_out_probabilities(with_sim), 0.5)[:1])
    d = realsumm_features(rows)
    long = long_answer_features() if args.articles is None else {}
    p = left_out_probabilities(d, long)  # once: the fit's cut-off and the tables read it
    long_p = long_left_out_probabilities(d, long)
    if args.fit:
        cal = fit(d, long, p, long_p)
        OUT.parent.mkdir(parents=True, exist_ok=True)
        shipped = json.loads(OUT.read_text(encoding="utf-8")) if OUT.exists() else {}
        data = cal.to_json()
        if "model" in shipped:  # the model combination is fitted by benchmarks.fact_judge_model
            data["model"] = shipped["model"]
        OUT.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {OUT} (cut-off {cal.cutoff})")
    cal = load_calibration.__wrapped__(DEFAULT_CALIBRATION) if args.fit else load_calibration()
    _print_table("Facts: REALSumm dev, left-out folds by article", fact_table(d, p, cal.cutoff))
    _print_table("Summaries: REALSumm dev, left-out folds", summary_table(d, p, cal.cutoff))
    if long:
        _print_table("Facts of long answers of other kinds: each set left out",
                     long_answer_table(long, long_p, cal.cutoff))
    if not args.skip_pairwise and RAGCHECKER.exists():
        _print_table("Long answers: RAGChecker dev (x100 below: Pearson, Spearman), fitted on "
                     "REALSumm only", pairwise_table(cal))
        print("\nWrong facts (RAGChecker dev answers):",
              json.dumps(contradiction_table(cal), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
