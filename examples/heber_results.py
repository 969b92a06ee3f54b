"""Four evaluations built by hand around the WikiContradict example graph.

Three responses (two models) answer the example's query and share its context statements; a
fourth answers another query. Comprehensiveness comes from the engine. Used by the README's
report command and by the database tests.

    python examples/heber_results.py     # rewrites examples/heber_results.jsonl
"""

from __future__ import annotations

from pathlib import Path

from factgraph.graph import analyze
from factgraph.graph.results import load_graph
from factgraph.models import Evaluation, FactGraph, Relation, Statement

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE / "wikicontradict_heber.json"


def heber_evaluations() -> list[Evaluation]:
    """Three responses to the example's query (two models) sharing its context statements,
    plus one response to another query."""
    base = load_graph(EXAMPLE)
    ctx = [s for s in base.statements if s.origin.value == "context"]
    ctx_rel = [r for r in base.relations if r.src.startswith("c") and r.dst.startswith("c")]

    def ev(eid: str, model: str, resp: list[tuple[str, str, list[str]]],
           contradicts: list[tuple[str, str]] = ()) -> Evaluation:  # type: ignore[assignment]
        stmts = [Statement(id=i, text=t, origin="response", source_id=eid) for i, t, _ in resp]
        rels = list(ctx_rel)
        for i, _, targets in resp:
            for c in targets:
                rels.append(Relation(src=i, dst=c, label="entails", probability=0.9,
                                     method="llm"))
        rels += [Relation(src=a, dst=b, label="contradicts", method="llm")
                 for a, b in contradicts]
        graph = FactGraph(query=base.query, statements=stmts + ctx, relations=rels)
        return Evaluation(id=eid, method="nli", query=base.query, model=model,
                          response_id=eid, scores={"comprehensiveness": analyze(graph).score},
                          graph=graph)

    e1 = ev("ans-a", "model-a", [("r1", "D'Oyly left India in 1838.", ["c2c"]),
                                 ("r2", "Heber was in Patna in the 1840s.", ["c1a"])],
            contradicts=[("r1", "c1c")])
    e2 = ev("ans-b", "model-b", [("r1", "Heber met D'Oyly.", ["c1c"])])
    e3 = ev("ans-c", "model-a", [("r1", "D'Oyly retired and left India in 1838.", ["c2d"])],
            contradicts=[("r1", "c1c")])
    other = FactGraph(query="Who painted it?", statements=[
        Statement(id="r", text="Alice painted it.", origin="response"),
        Statement(id="c", text="Bob painted it.", origin="context", source_id="doc"),
    ], relations=[Relation(src="r", dst="c", label="contradicts")])
    e4 = Evaluation(id="other", method="nli", query=other.query,
                    model="model-b", scores={"comprehensiveness": 0.0}, graph=other)
    return [e1, e2, e3, e4]


if __name__ == "__main__":
    out = HERE / "heber_results.jsonl"
    out.write_text("".join(ev.model_dump_json() + "\n" for ev in heber_evaluations()))
    print(out)
