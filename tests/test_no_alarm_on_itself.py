"""A text against itself states every fact it holds and contradicts none: through the
evidence judge as users run it, on every RAGChecker dev answer and reference and on
FActScore's biographies (another kind of text). A floor under every rule the contradiction
check gains: one that fires here fires on faithful answers too."""

from __future__ import annotations

import gzip
import json
import logging
from pathlib import Path

import factgraph
from factgraph.datasets.pairwise import load_pairwise


def _contradicted(text: str) -> list[str]:
    ev = factgraph.evaluate("", text, [text], judge="e2e-evidence")
    return [s.text for s in ev.graph.statements if s.metadata.get("contradicted")]


def test_no_text_contradicts_itself(shared_data: Path) -> None:
    logging.getLogger("factgraph").setLevel(logging.WARNING)
    texts = []
    for inst in load_pairwise(shared_data / "ragchecker" / "meta_eval_dev.jsonl.gz"):
        texts += [inst.gt_answer or "", inst.model1.response, inst.model2.response]
    for path in sorted((shared_data / "factscore").glob("*.jsonl.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            texts += [json.loads(line)["output"] for line in f][:100]
    texts = [t for t in texts if t.strip()]
    assert len(texts) > 250
    flagged = {t[:80]: got for t in texts if (got := _contradicted(t))}
    assert flagged == {}
