"""An evidence-judge graph for the show-why tests (issue 33 §6): one fact stated, one stated
otherwise (antonym), one missing, one with another name; and the one-line reason of each."""

from __future__ import annotations

from factgraph.models import Evaluation, FactGraph, Relation, Statement

QUERY = "What happened at Chernobyl?"
HOSTILE = "<script>window.__pwned = 1</script>"
EVIDENCE = {"p_stated": 0.775835, "word_share": 0.875, "sentence_share": 0.875,
            "weighted_share": 0.92, "bigram_share": 0.692308, "numbers_missing": 0.0,
            "names_missing": 0.0}


def chernobyl(hostile: bool = False) -> Evaluation:
    """The evidence judge's graph of an answer with one fact stated, one stated otherwise
    (antonym), one missing and one with another name — as ``coverage_judge="evidence"``
    records it; ``hostile`` puts markup into a response sentence."""
    r3 = (HOSTILE + " " if hostile else "") + \
        "Radiation was first detected abroad at a nuclear plant in Finland."
    said = [Statement(id="r1", text="The Chernobyl accident happened on 26 April 1986 in "
                                    "reactor No. 4.", origin="response"),
            Statement(id="r2", text="The RBMK reactor had a negative void coefficient.",
                      origin="response"),
            Statement(id="r3", text=r3, origin="response")]
    facts = [
        Statement(id="g1", text="The Chernobyl accident occurred on 26 April 1986 in reactor "
                                "No. 4.", origin="context", kind="fact",
                  metadata={"p_covered": 0.775835}),
        Statement(id="g2", text="The RBMK reactor had a positive void coefficient.",
                  origin="context", kind="fact",
                  metadata={"p_covered": 0.734576,
                            "contradicted": "antonym: fact 'positive', response 'negative'"}),
        Statement(id="g3", text="28 firefighters and staff died of acute radiation syndrome.",
                  origin="context", kind="fact",
                  metadata={"p_covered": 0.068556, "evidence": {
                      "p_stated": 0.068556, "word_share": 0.142857, "numbers_missing": 1.0,
                      "nearest_sentence": "r3"}}),
        Statement(id="g4", text="Radiation was first detected abroad at a nuclear plant in "
                                "Sweden.", origin="context", kind="fact",
                  metadata={"p_covered": 0.638849,
                            "contradicted": "name: fact 'sweden', response 'finland'"}),
    ]
    rels = [Relation(src="r1", dst="g1", label="entails", probability=0.775835,
                     method="evidence", metadata={"evidence": EVIDENCE}),
            Relation(src="r2", dst="g2", label="contradicts", method="evidence:antonym",
                     metadata={"conflict": {"slot": "antonym", "fact": "positive",
                                            "response": "negative"}}),
            Relation(src="r3", dst="g4", label="contradicts", method="evidence:name",
                     metadata={"conflict": {"slot": "name", "fact": "sweden",
                                            "response": "finland"}})]
    return Evaluation(id="chernobyl", method="e2e", model="m1", query=QUERY,
                      scores={"comprehensiveness": 0.25},
                      graph=FactGraph(query=QUERY, statements=said + facts, relations=rels))


LINES = {
    "g1": 'covered by [r1] "The Chernobyl accident happened on 26 April 1986 in reactor No. 4." '
          "(evidence: P 0.78, words 0.88)",
    "g2": 'contradicted by [r2] "The RBMK reactor had a negative void coefficient." '
          "(antonym: positive → negative)",
    "g3": 'missing (P 0.07, words 0.14, numbers missing 1.00); nearest [r3] "Radiation was '
          'first detected abroad at a nuclear plant in Finland."',
    "g4": 'contradicted by [r3] "Radiation was first detected abroad at a nuclear plant in '
          'Finland." (name: sweden → finland)',
}
