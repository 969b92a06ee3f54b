"""Benchmark: the NLI cost levers — pairs judged and model calls with each lever against the
exhaustive run, and the recall of the exhaustive run's entailment edges (DESIGN.md; Dejl et al.
2025, §3.1).

    python -m benchmarks.nli_pairs                                     # synthetic only
    python -m benchmarks.nli_pairs --model openai:qwen1.5b@http://127.0.0.1:8765/v1 \\
        --cache runs/lmr-cache.sqlite --items 20                      # + WikiContradict

Two cases, each run once exhaustively (the baseline) and once per lever setting in the same
process:

* **synthetic** — 72 context atoms in three background texts about 12 people, 5 responses of
  8 atoms, judged by an oracle whose entailment is set inclusion of facts (a city implies its
  country), so the true edge set is known and transitive. The text model is scripted (atoms
  are given), the embeddings are real (MiniLM, from its PyPI package).
* **wikicontradict** — ``--items`` answers of the human-labelled file (the fixed sample
  that ``factgraph meta-eval wikicontradict --sample N --sample-seed S`` draws, so such a run
  has already paid the exhaustive calls), through the full NLI pipeline with a real LLM doing
  atomization, revision, relevance and judging. With ``--cache`` every lever run after the
  exhaustive one re-asks the same questions, so it costs no new model calls; counts below are
  the calls the pipeline makes (a cold cache pays each of them).

Edge recall: of the exhaustive run's entailment edges ``p→h``, the share the lever run also
has (``direct``) and the share whose hypothesis is still reachable from the premise through
the lever run's entailment edges (``path`` — what coverage depends on). ``|ΔS|`` is the mean
absolute change of comprehensiveness. The context-reuse rows give the cost of 5 responses to
one query (one Evaluator, its ContextStore shared) against one response.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx

from factgraph.backends.base import ChatMessage, GenerationParams
from factgraph.backends.scripted import ScriptedNLIBackend, ScriptedTextBackend, ScriptOutput
from factgraph.inputs import Document, EvaluationInput
from factgraph.methods.run import Backends, Evaluator
from factgraph.models import Evaluation
from factgraph.prompts import load_prompt

Pair = tuple[str, str]
LEVERS: dict[str, dict[str, Any]] = {
    "exhaustive": {},
    "skip implied": {"skip_implied": True},
    "top-k 10": {"prune_top_k": 10},
    "top-k 5": {"prune_top_k": 5},
    "sim >= 0.5": {"prune_min_similarity": 0.5},
    "top-k 10 + skip": {"prune_top_k": 10, "skip_implied": True},
    "top-k 5 + sim 0.4 + skip": {"prune_top_k": 5, "prune_min_similarity": 0.4,
                                 "skip_implied": True},
    "skip inert": {"skip_inert": True},
    "skip implied + inert": {"skip_implied": True, "skip_inert": True},
    "top-k 5 + sim 0.4 + skip + inert": {"prune_top_k": 5, "prune_min_similarity": 0.4,
                                         "skip_implied": True, "skip_inert": True},
}
BEST = "top-k 5 + sim 0.4 + skip + inert"


# --- measuring ------------------------------------------------------------------------------

def entail_edges(ev: Evaluation) -> set[Pair]:
    return {(r.src, r.dst) for r in ev.graph.relations if r.label == "entails"}


def edge_recall(reference: set[Pair], found: set[Pair]) -> tuple[float, float]:
    """(direct, path) recall of ``reference`` edges in ``found`` (1.0 when none to find)."""
    if not reference:
        return 1.0, 1.0
    graph = nx.DiGraph(list(found))
    reach: dict[str, set[str]] = {}
    path = 0
    for p, h in reference:
        if p not in reach:
            reach[p] = nx.descendants(graph, p) if p in graph else set()
        path += h in reach[p]
    return len(reference & found) / len(reference), path / len(reference)


def context_ids(ev: Evaluation, statement_id: str) -> bool:
    return ev.graph.statement(statement_id).origin == "context"


def pairs_and_calls(ev: Evaluation) -> tuple[int, int]:
    counts = ev.metadata.get("counts", {})
    pairs = sum(v for k, v in counts.items() if k.startswith("nli.") and k.endswith(".judged"))
    calls = sum(v for k, v in counts.items() if k.endswith((".calls", ".pairs")))
    return pairs, calls


@dataclass
class Row:
    case: str
    setting: str
    pairs: int
    calls: int
    exhaustive_pairs: int
    direct: float
    path: float
    coverage_path: float
    delta_s: float

    def cells(self) -> list[str]:
        share = self.pairs / self.exhaustive_pairs if self.exhaustive_pairs else 0.0
        return [self.case, self.setting, f"{self.pairs:,}", f"{share:.1%}", f"{self.calls:,}",
                f"{self.direct:.3f}", f"{self.path:.3f}", f"{self.coverage_path:.3f}",
                f"{self.delta_s:.3f}"]


def compare(case: str, inputs: Sequence[EvaluationInput],
            make: Callable[[dict[str, Any]], Evaluator]) -> list[Row]:
    """Run every lever setting over ``inputs`` with a fresh Evaluator each."""
    runs: dict[str, list[Evaluation]] = {}
    for name, options in LEVERS.items():
        evaluator = make(options)
        runs[name] = [evaluator(inp) for inp in inputs]
        logging.info("%s / %s done", case, name)
    base = runs["exhaustive"]
    base_pairs = sum(pairs_and_calls(ev)[0] for ev in base)
    rows = []
    for name, evs in runs.items():
        pairs = sum(pairs_and_calls(ev)[0] for ev in evs)
        calls = sum(pairs_and_calls(ev)[1] for ev in evs)
        ref = [entail_edges(ev) for ev in base]
        found = [entail_edges(ev) for ev in evs]
        n_ref = sum(len(r) for r in ref) or 1
        direct = sum(edge_recall(r, f)[0] * len(r) for r, f in zip(ref, found, strict=True))
        path = sum(edge_recall(r, f)[1] * len(r) for r, f in zip(ref, found, strict=True))
        # Edges into context statements: the ones coverage is made of.
        cref = [{(p, h) for p, h in r if context_ids(ev, h)} for r, ev in zip(ref, base,
                                                                            strict=True)]
        n_cref = sum(len(r) for r in cref) or 1
        cpath = sum(edge_recall(r, f)[1] * len(r) for r, f in zip(cref, found, strict=True))
        ds = [abs((a.scores.get("comprehensiveness") or 0.0)
                  - (b.scores.get("comprehensiveness") or 0.0)) for a, b in zip(evs, base,
                                                                              strict=True)]
        rows.append(Row(case, name, pairs, calls, base_pairs, direct / n_ref, path / n_ref,
                        cpath / n_cref, sum(ds) / max(len(ds), 1)))
    return rows


def reuse_cost(case: str, inputs: Sequence[EvaluationInput],
               make: Callable[[dict[str, Any]], Evaluator],
               options: dict[str, Any]) -> tuple[str, int, int, float]:
    """Model calls for all ``inputs`` (same query and texts) through one Evaluator vs the
    first alone."""
    one = pairs_and_calls(make(options)(inputs[0]))[1]
    evaluator = make(options)
    total = sum(pairs_and_calls(evaluator(inp))[1] for inp in inputs)
    return case, one, total, total / one


# --- the synthetic case ---------------------------------------------------------------------

NAMES = ["Mara Voss", "Ilse Brandt", "Tomas Keller", "Anouk Verlinden", "Piet Hagen",
         "Lena Sorensen", "Oskar Lind", "Ruth Amsel", "Jonas Ek", "Clara Moritz",
         "Felix Aurel", "Greta Nyholm"]
CITIES = {"Bergen": "Norway", "Oslo": "Norway", "Lyon": "France", "Ghent": "Belgium",
          "Porto": "Portugal", "Graz": "Austria"}
JOBS = ["painter", "engineer", "botanist", "architect", "cartographer", "violinist"]
EMPLOYERS = ["the Royal Academy", "the city observatory", "a shipping firm", "the state railway",
             "the national museum", "a glass works"]
Fact = tuple[str, str, str]


def sentence(name: str, facts: dict[str, str]) -> tuple[str, frozenset[Fact]]:
    """A statement about ``name`` and the facts it asserts."""
    parts = []
    if "city" in facts and "year" in facts:
        parts.append(f"was born in {facts['city']} in {facts['year']}")
    elif "city" in facts:
        parts.append(f"was born in {facts['city']}")
    elif "country" in facts:
        parts.append(f"was born in {facts['country']}")
    elif "year" in facts:
        parts.append(f"was born in {facts['year']}")
    if "job" in facts and "employer" in facts:
        parts.append(f"worked as a {facts['job']} for {facts['employer']}")
    elif "job" in facts:
        parts.append(f"worked as a {facts['job']}")
    elif "employer" in facts:
        parts.append(f"worked for {facts['employer']}")
    return f"{name} {' and '.join(parts)}.", frozenset((name, k, v) for k, v in facts.items())


def closure(facts: frozenset[Fact]) -> frozenset[Fact]:
    extra = {(n, "country", CITIES[v]) for n, k, v in facts if k == "city"}
    return facts | extra


def oracle(facts_of: dict[str, frozenset[Fact]]) -> Callable[[str, str], str]:
    """Entailment = the hypothesis's facts follow from the premise's; contradiction = same
    person and attribute, another value."""
    def judge(premise: str, hypothesis: str) -> str:
        p, h = closure(facts_of[premise]), facts_of[hypothesis]
        if h <= p:
            return "entails"
        values = {(n, k): v for n, k, v in p}
        if any(values.get((n, k), v) != v for n, k, v in h):
            return "contradicts"
        return "neutral"
    return judge


def synthetic_case(seed: int = 0) -> tuple[list[EvaluationInput], dict[str, frozenset[Fact]],
                                            dict[str, list[str]]]:
    rng = random.Random(seed)
    truth = {n: {"city": rng.choice(list(CITIES)), "year": str(rng.randint(1850, 1900)),
                 "job": rng.choice(JOBS), "employer": rng.choice(EMPLOYERS)} for n in NAMES}
    facts_of: dict[str, frozenset[Fact]] = {}
    docs: dict[str, list[str]] = {"A": [], "B": [], "C": []}

    def add(doc: list[str], name: str, facts: dict[str, str]) -> str:
        text, f = sentence(name, facts)
        facts_of[text] = f
        doc.append(text)
        return text

    for i, n in enumerate(NAMES):
        t = truth[n]
        add(docs["A"], n, {"city": t["city"], "year": t["year"]})
        add(docs["A"], n, {"job": t["job"], "employer": t["employer"]})
        add(docs["B"], n, {"country": CITIES[t["city"]]})
        add(docs["B"], n, {"job": t["job"]})
        year = str(int(t["year"]) + 1) if i % 4 == 0 else t["year"]  # a few conflicts
        add(docs["B"], n, {"year": year})
        if i % 2 == 0:
            add(docs["C"], n, {"employer": t["employer"]})
            add(docs["C"], n, {"city": t["city"]})
    inputs = []
    for r in range(5):
        atoms: list[str] = []
        for n in rng.sample(NAMES, 4):
            t = truth[n]
            for keys in rng.sample([("city",), ("year",), ("job",), ("country",),
                                    ("job", "employer")], 2):
                facts = {k: (CITIES[t["city"]] if k == "country" else t[k]) for k in keys}
                if keys == ("year",) and rng.random() < 0.25:
                    facts["year"] = str(int(t["year"]) - 2)  # a wrong claim
                text, f = sentence(n, facts)
                facts_of[text] = f
                atoms.append(text)
        docs[f"response{r}"] = atoms
        inputs.append(EvaluationInput(
            id=f"synthetic-r{r}", query="Who were these people and where were they born?",
            response=" ".join(atoms),
            documents=[Document(id=k, text=" ".join(docs[k])) for k in ("A", "B", "C")]))
    return inputs, facts_of, docs


class AtomRouter:
    """Scripted text model for the synthetic case: atomize returns the prepared atoms of a
    text, revise echoes, relevance says 5."""

    def __init__(self, atoms_by_text: dict[str, list[str]]) -> None:
        self.atoms_by_text = atoms_by_text
        self.system = {load_prompt(n).system.strip(): n for n in ("atomize", "revise",
                                                                  "relevance")}

    def __call__(self, messages: Sequence[ChatMessage], params: GenerationParams
                 ) -> ScriptOutput:
        stage = self.system[messages[0].content]
        user = messages[-1].content
        if stage == "atomize":
            text = next(t for t in self.atoms_by_text if t in user)
            return json.dumps({"statements": self.atoms_by_text[text]})
        if stage == "revise":
            return json.dumps({"statements": re.findall(r"^\d+\. (.*)$", user, re.M)})
        return "5"


def run_synthetic(embed_model: str) -> tuple[list[Row], list[tuple[str, int, int, float]]]:
    inputs, facts_of, docs = synthetic_case()
    atoms_by_text = {" ".join(v): v for v in docs.values()}
    n_context = sum(len(docs[k]) for k in ("A", "B", "C"))
    logging.info("synthetic: %d context atoms, %d responses", n_context, len(inputs))
    emb = Backends.from_specs(embed_model=embed_model, cache=False).embeddings
    backends = Backends(text=ScriptedTextBackend(AtomRouter(atoms_by_text)),
                        nli=ScriptedNLIBackend(oracle(facts_of)), embeddings=emb)

    def make(options: dict[str, Any]) -> Evaluator:
        return Evaluator("nli", backends=backends, options={"revise": False, **options},
                         params=GenerationParams(max_tokens=256))

    rows = compare(f"synthetic ({n_context} ctx atoms)", inputs, make)
    reuse = [reuse_cost(f"synthetic, {name}", inputs, make, LEVERS[name])
             for name in ("exhaustive", "skip inert", BEST)]
    return rows, reuse


# --- WikiContradict with a real model -------------------------------------------------------

def run_wikicontradict(data: Path, n_items: int, seed: int, model: str, cache: str,
                       embed_model: str, reuse_answers: int
                       ) -> tuple[list[Row], list[tuple[str, int, int, float]]]:
    from factgraph.datasets.wikicontradict import load_items, sample_items

    items = load_items(data)
    inputs = [it.input for it in sample_items(items, n_items, seed)]
    backends = Backends.from_specs(model, embed_model=embed_model, cache=cache)

    def make(options: dict[str, Any]) -> Evaluator:
        # The CLI's generation parameters, so a `meta-eval wikicontradict --method nli` run
        # on the same sample has already filled the cache.
        return Evaluator("nli", backends=backends, options=options,
                         params=GenerationParams(max_tokens=768, seed=0))

    result = compare(f"WikiContradict ({len(inputs)} answers)", inputs, make)
    reuse = []
    if reuse_answers > 1:
        row = inputs[0].id.split("-")[0]
        answers = [it.input for it in items if it.input.id.startswith(row + "-")]
        answers = answers[:reuse_answers]
        reuse = [reuse_cost(f"WikiContradict {row}, {len(answers)} answers, {name}", answers,
                            make, LEVERS[name]) for name in ("exhaustive", "skip inert", BEST)]
    return result, reuse


def print_table(rows: list[Row], reuse: list[tuple[str, int, int, float]]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="NLI pairs: levers vs exhaustive")
    for col in ("case", "setting", "pairs judged", "of exhaustive", "model calls",
                "edge recall (direct)", "edge recall (path)", "coverage edges (path)",
                "mean |ΔS|"):
        table.add_column(col, justify="left" if col in ("case", "setting") else "right")
    for row in rows:
        table.add_row(*row.cells())
    Console(width=170).print(table)
    reuse_table = Table(title="Context reuse: 5 responses to one query vs 1")
    for col in ("case", "calls, 1 response", "calls, 5 responses", "ratio"):
        reuse_table.add_column(col, justify="left" if col == "case" else "right")
    for case, one, five, ratio in reuse:
        reuse_table.add_row(case, f"{one:,}", f"{five:,}", f"{ratio:.2f}x")
    Console(width=170).print(reuse_table)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", help="Text model spec for the WikiContradict case "
                                    "(skipped without it).")
    ap.add_argument("--cache", default=str(Path.home() / ".cache/factgraph/nli-pairs.sqlite"))
    ap.add_argument("--data", default="../shared/data/wikicontradict/"
                                      "wiki_contradict_simple_humaneval.jsonl")
    ap.add_argument("--items", type=int, default=20,
                    help="WikiContradict answers: the fixed sample `meta-eval wikicontradict "
                         "--sample N --sample-seed S` draws.")
    ap.add_argument("--sample-seed", type=int, default=0)
    ap.add_argument("--reuse-answers", type=int, default=5,
                    help="Answers of the first sampled row that measure context reuse "
                         "(0: skip).")
    ap.add_argument("--embed-model", default="minilm")
    ap.add_argument("--json", dest="json_out", help="Also write the rows here.")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rows, reuse = run_synthetic(args.embed_model)
    if args.model:
        wc_rows, wc_reuse = run_wikicontradict(Path(args.data), args.items, args.sample_seed,
                                               args.model, args.cache, args.embed_model,
                                               args.reuse_answers)
        rows += wc_rows
        reuse += wc_reuse
    print_table(rows, reuse)
    if args.json_out:
        Path(args.json_out).write_text(json.dumps(
            {"rows": [r.__dict__ for r in rows], "reuse": reuse}, indent=2))


if __name__ == "__main__":
    main()
