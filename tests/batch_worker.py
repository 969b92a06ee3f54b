"""A batch run for the fault tests: 100 inputs, a scripted model with latency, real engine.

Usage: python tests/batch_worker.py INPUTS.jsonl RESULTS.jsonl [--latency S]
Each input's response and documents are split into sentences by a scripted "atomizer" model
call, exact-match entailment links them, and factgraph.graph.analyze scores the graph.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from factgraph.backends.base import ChatMessage, GenerationParams
from factgraph.backends.scripted import ScriptedTextBackend
from factgraph.graph import analyze
from factgraph.inputs import EvaluationInput
from factgraph.io import read_jsonl
from factgraph.models import Evaluation, FactGraph, Relation, Statement
from factgraph.runners.batch import BatchRunner


def split_sentences(messages: Sequence[ChatMessage], params: GenerationParams) -> str:
    text = messages[-1].content
    return "\n".join(s.strip() for s in text.split(".") if s.strip())


def make_evaluate(backend: ScriptedTextBackend):  # type: ignore[no-untyped-def]
    def evaluate(row: EvaluationInput) -> Evaluation:
        texts = [("response", row.response_id or "response", row.response)] + [
            ("context", d.id, d.text) for d in row.documents
        ]
        gens = backend.generate(
            [[ChatMessage(role="user", content=t)] for _, _, t in texts], GenerationParams()
        )
        stmts: list[Statement] = []
        for (origin, source, _), gen in zip(texts, gens, strict=True):
            for k, line in enumerate(gen.text.splitlines()):
                stmts.append(Statement(id=f"{source}-{k}", text=line, origin=origin,
                                       source_id=source, trace_id=gen.trace.id))
        rels = [
            Relation(src=a.id, dst=b.id, label="entails", method="exact")
            for a in stmts for b in stmts
            if a.id != b.id and a.text.lower() == b.text.lower()
        ]
        graph = FactGraph(query=row.query, statements=stmts, relations=rels)
        cov = analyze(graph)
        return Evaluation(id=row.id, method="test-exact", query=row.query, model=row.model,
                          scores={"comprehensiveness": cov.score}, graph=graph,
                          traces=[g.trace for g in gens])
    return evaluate


def main(argv: list[str]) -> None:
    inputs, results = argv[0], argv[1]
    latency = float(argv[argv.index("--latency") + 1]) if "--latency" in argv else 0.0
    backend = ScriptedTextBackend(split_sentences, latency_s=latency)
    rows = [(row.id, row) for _, row in read_jsonl(inputs, EvaluationInput)]
    BatchRunner(make_evaluate(backend), results, resume=True).run(rows)


if __name__ == "__main__":
    main(sys.argv[1:])
