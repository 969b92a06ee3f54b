"""Inputs, a scripted NLI-method model and a latency-bound fake endpoint for the Ray batch tests
and ``benchmarks/distributed.py``.

The script answers the packaged prompts of the ``nli`` method (atomize, relevance, nli) from
the texts alone, so a run's results depend only on its inputs: the local and the Ray executor
must write the same results. The endpoint is tests/fake_openai.py's handler with a fixed
delay per request *outside* its lock (requests overlap; unlimited parallelism).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from tests.pipeline_support import PromptRouter, digit_with_logprobs, field


def _sentences(text: str) -> list[str]:
    return [s.strip() + "." for s in text.split(".") if s.strip()]


def _nli(user: str) -> str:
    return "yes" if field(user, "PREMISE") == field(user, "HYPOTHESIS") else "unknown"


def nli_router() -> PromptRouter:
    """Atomize = split sentences; every statement relevant; entailment = same sentence."""
    return PromptRouter({
        "atomize": lambda u: json.dumps({"statements": _sentences(field(u, "TEXT"))}),
        "relevance": lambda u: digit_with_logprobs({"5": 0.8, "4": 0.2}),
        "nli": _nli,
    })


NLI_ARGS = ["--method", "nli", "--no-revise", "--no-cache"]


def write_inputs(path: Path, queries: int = 12, per_query: int = 4, seed: int = 17) -> list[str]:
    """``queries × per_query`` inputs; the responses of a query share its documents. Returns
    the ids."""
    rng = random.Random(seed)
    ids: list[str] = []
    with path.open("w", encoding="utf-8") as f:
        for q in range(queries):
            facts = [f"Fact {k} of topic {q} holds" for k in range(3)]
            docs = [{"id": "d1", "text": f"{facts[0]}. {facts[1]}."},
                    {"id": "d2", "text": f"{facts[2]}."}]
            for r in range(per_query):
                said = rng.sample(facts, rng.randint(1, 2))
                item_id = f"q{q:02d}-r{r}"
                ids.append(item_id)
                f.write(json.dumps({"id": item_id, "query": f"What holds for topic {q}?",
                                    "response": ". ".join(said) + ".", "documents": docs,
                                    "model": f"model-{r}"}) + "\n")
    return ids


def normalised_results(path: Path, ignore_reuse: bool = False) -> list[dict[str, Any]]:
    """Result rows sorted by id, wall-clock trace latencies blanked. With ``ignore_reuse`` the
    per-stage counts are dropped too: after a worker restart or a resume the next input of a
    query rebuilds its context part (same statements, relations, traces and scores) and so
    carries the context stages' counts that another input carries in an uninterrupted run
    (locally as on Ray)."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for row in rows:
        for trace in row.get("traces", []):
            trace["latency_s"] = None
        if ignore_reuse:
            row.get("metadata", {}).pop("counts", None)
    return sorted(rows, key=lambda r: r["id"])


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Paths where two JSON values differ (for readable assertion messages)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b), key=str)
                for d in differences(a.get(k), b.get(k), f"{path}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True))
                for d in differences(x, y, f"{path}[{i}]")]
    return [] if a == b else [f"{path}: {a!r:.120} != {b!r:.120}"]
