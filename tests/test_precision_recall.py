"""Importance-weighted factual precision / recall (Jafari et al. 2026) on a hand-made case: scripted
model replies, a scripted NLI table and a tiny keyword embedding, so every number below is
computed by hand."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from factgraph.backends.base import ChatMessage, GenerationParams, TokenLogprob
from factgraph.backends.scripted import ScriptedNLIBackend, ScriptedTextBackend, ScriptOutput
from factgraph.graph import analyze
from factgraph.inputs import Document, EvaluationInput
from factgraph.methods import get_method
from factgraph.methods.precision_recall import PRFOptions, run_prf
from factgraph.models import Origin, RelationLabel, StatementKind
from factgraph.prompts import load_prompt
from factgraph.stages.importance import select_reference
from factgraph.stages.reference_facts import cluster_vectors, medoid
from factgraph.stages.session import ModelSession

QUERY = "Tell me about the composer Elin Mardal."
D1 = "Elin Mardal was born in 1901 in Tromsø. She wrote four symphonies."
D2 = "Elin Mardal, born in 1901, taught at the Oslo conservatory."
RESPONSE = "Elin Mardal was born in 1901 in Bergen. She wrote four symphonies. She loved cats."

BORN = "Elin Mardal was born in 1901."
BIRTH_YEAR = "Elin Mardal's birth year is 1901."  # near duplicate of BORN
TROMSO = "Elin Mardal was born in Tromsø."
SYMPH = "Elin Mardal wrote four symphonies."
TAUGHT = "Elin Mardal taught at the Oslo conservatory."
BERGEN = "Elin Mardal was born in Bergen."
CATS = "Elin Mardal loved cats."

FACTS = {D1: [BORN, TROMSO, SYMPH], D2: [BORN, BIRTH_YEAR, TAUGHT]}
CLAIMS = {RESPONSE: [BORN, BERGEN, SYMPH, CATS], "I cannot say.": []}
# (relevance, salience); a float list is a first-token distribution (log-probabilities given).
RATINGS: dict[str, tuple[object, object]] = {
    BORN: ("5", "5"), TROMSO: ("4", "3"), SYMPH: ({"4": 0.5, "5": 0.5}, "5"),
    TAUGHT: ("2", "1"), BIRTH_YEAR: ("5", "5")}
# imp = 0.5·(r−1)/4 + 0.5·(s−1)/4
IMP = {BORN: 1.0, SYMPH: 0.5 * 3.5 / 4 + 0.5, TROMSO: 0.5 * 0.75 + 0.5 * 0.5, TAUGHT: 0.125}
NLI = {(D1, BORN): "entails", (D1, SYMPH): "entails", (D1, BERGEN): "contradicts",
       (D2, BORN): "entails",
       (BORN, BORN): "entails", (SYMPH, SYMPH): "entails", (BERGEN, TROMSO): "contradicts"}


def _user_field(user: str, label: str) -> str:
    for line in user.splitlines():
        if line.startswith(f"{label}:"):
            return line.split(":", 1)[1].strip()
    raise AssertionError(f"no {label} in {user!r}")


class Router:
    """Replies chosen by which packaged prompt is asked (its system message)."""

    def __init__(self, facts: dict[str, list[str]] | None = None,
                 claims: dict[str, object] | None = None) -> None:
        self.facts = FACTS if facts is None else facts
        self.claims = CLAIMS if claims is None else claims
        self.by_system = {load_prompt(n).system.strip(): n
                          for n in ("facts", "atomize", "importance")}
        self.asked: list[str] = []

    def __call__(self, messages: Sequence[ChatMessage], params: GenerationParams) -> ScriptOutput:
        name = self.by_system[messages[0].content]
        self.asked.append(name)
        # On a repair turn answer the original request again.
        user = next(m.content for m in reversed(messages) if m.role == "user"
                    and not m.content.startswith("That reply could not be used"))
        if name == "facts":
            return json.dumps({"statements": self.facts[user.split("\n", 1)[1].strip()]})
        if name == "atomize":
            reply = self.claims[user.split("\n", 1)[1].strip()]
            return reply if isinstance(reply, str) else json.dumps({"statements": reply})
        criterion = _user_field(user, "CRITERION")
        rating = RATINGS[_user_field(user, "STATEMENT")][0 if criterion == "RELEVANCE" else 1]
        if isinstance(rating, dict):
            best = max(rating, key=lambda k: rating[k])
            top = {k: math.log(p) for k, p in rating.items()}
            return best, [TokenLogprob(token=best, logprob=top[best], top=top)]
        return str(rating)


class KeywordEmbeddings:
    """A deterministic embedding: one axis per keyword, rows L2-normalised."""

    engine = "test"
    model = "keywords"
    AXES = ("1901", "tromsø", "symphon", "taught", "bergen", "cats")

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for t in texts:
            low = t.lower()
            v = np.array([1.0 if k in low else 0.0 for k in self.AXES]) + 1e-3
            rows.append(v / np.linalg.norm(v))
        return np.array(rows)


def _session(router: Router, embeddings: bool = True) -> ModelSession:
    return ModelSession(text=ScriptedTextBackend(router),
                        nli=ScriptedNLIBackend(lambda p, h: NLI.get((p, h), "neutral")),
                        embeddings=KeywordEmbeddings() if embeddings else None)


def _input(response: str = RESPONSE, docs: list[Document] | None = None) -> EvaluationInput:
    return EvaluationInput(id="mardal", query=QUERY, response=response,
                           documents=[Document(id="d1", text=D1), Document(id="d2", text=D2)]
                           if docs is None else docs)


def test_registry_points_here() -> None:
    options_cls, run = get_method("prf")
    assert options_cls is PRFOptions and run is run_prf


def test_hand_made_case_exact_scores() -> None:
    router = Router()
    ev = run_prf(_input(), _session(router), PRFOptions())
    s = ev.scores
    # 4 claims: BORN supported (d1, d2), BERGEN contradicted (d1), SYMPH supported, CATS neither.
    assert s["n_claims"] == 4 and s["n_supported"] == 2
    assert s["precision"] == 0.5
    assert s["contradiction_rate"] == 0.25 and s["not_supported_rate"] == 0.25
    # F = {BORN (+ exact dup + near dup), TROMSO, SYMPH, TAUGHT}; covered: BORN, SYMPH.
    assert s["n_facts"] == 4 and s["n_covered"] == 2 and s["recall"] == 0.5
    assert s["weighted_recall"] == pytest.approx((IMP[BORN] + IMP[SYMPH]) / sum(IMP.values()))
    assert s["weighted_recall"] == pytest.approx(31 / 43)
    assert s["recall_at_1"] == 1.0  # the most important fact (BORN) is covered
    assert s["recall_at_5"] == 0.5  # fewer than 5 facts: all 4
    assert s["f1"] == 0.5 and s["claim_fact_ratio"] == 1.0
    assert "recall_at_k" not in s
    # The facts are ranked by importance and carry their ratings.
    facts = [st for st in ev.graph.statements if st.kind is StatementKind.fact]
    assert [f.text for f in facts] == [BORN, SYMPH, TROMSO, TAUGHT]
    assert [f.importance for f in facts] == pytest.approx([IMP[BORN], IMP[SYMPH], IMP[TROMSO],
                                                           IMP[TAUGHT]])
    assert facts[1].relevance == pytest.approx(4.5)  # probability-weighted over "4"/"5"
    assert facts[0].metadata["sources"] == ["d1", "d2"]
    assert facts[0].metadata["merged"] == [BIRTH_YEAR]
    assert ev.metadata["n_extracted"] == 6 and ev.metadata["n_after_dedup"] == 4
    verdicts = {v.statement_id: v for v in ev.verdicts}
    assert verdicts["c2"].label == "contradicted" and verdicts["c2"].evidence == ["e1"]
    assert verdicts["c4"].label == "not_supported"
    assert verdicts["f1"].label == "covered" and verdicts["f1"].evidence == ["c1"]
    assert verdicts["f3"].label == "not_covered"


def test_graph_shape_and_evidence_outside_recall() -> None:
    ev = run_prf(_input(), _session(Router()), PRFOptions())
    g = ev.graph
    evidence = [s for s in g.statements if s.metadata.get("role") == "evidence"]
    assert [(s.id, s.origin, s.kind, s.source_id) for s in evidence] == [
        ("e1", Origin.context, StatementKind.atom, "d1"),
        ("e2", Origin.context, StatementKind.atom, "d2")]
    rels = {(r.src, r.dst, r.label) for r in g.relations}
    assert ("c1", "f1", RelationLabel.entails) in rels
    assert ("e1", "c2", RelationLabel.contradicts) in rels
    assert ("e2", "c1", RelationLabel.entails) in rels
    assert ("c2", "f3", RelationLabel.contradicts) in rels
    # Evidence never covers a fact: the full graph covers exactly the same facts as the
    # facts+claims subgraph that recall is read from.
    cov = analyze(g)
    covered = {m for c in cov.covered() for m in c.members}
    assert covered & {"f1", "f2", "f3", "f4"} == {"f1", "f2"}
    assert not covered & {"e1", "e2"}


def test_budget_k_and_threshold() -> None:
    ev = run_prf(_input(), _session(Router()), PRFOptions(k=2))
    s = ev.scores
    assert s["n_facts"] == 2 and s["recall"] == 1.0 and s["weighted_recall"] == 1.0
    assert s["recall_at_k"] == 1.0
    assert s["f1"] == pytest.approx(2 * 0.5 * 1.0 / 1.5)
    assert [p["text"] for p in ev.metadata["pruned_facts"]] == [TROMSO, TAUGHT]
    ev2 = run_prf(_input(), _session(Router()), PRFOptions(importance_threshold=0.6))
    assert ev2.scores["n_facts"] == 3 and ev2.scores["recall"] == pytest.approx(2 / 3)
    # α = 1, β = 0: relevance only; TAUGHT (r = 2) gets 0.25.
    ev3 = run_prf(_input(), _session(Router()), PRFOptions(alpha=1.0, beta=0.0))
    assert {st.text: st.importance for st in ev3.graph.statements
            if st.kind is StatementKind.fact}[TAUGHT] == pytest.approx(0.25)


def test_no_claims_abstention_policy() -> None:
    ev = run_prf(_input("I cannot say."), _session(Router()), PRFOptions())
    s = ev.scores
    assert s["n_claims"] == 0
    assert s["precision"] is None and s["contradiction_rate"] is None and s["f1"] is None
    assert "abstention" in ev.metadata["undefined"]["precision"]
    assert s["recall"] == 0.0 and s["weighted_recall"] == 0.0  # every fact is genuinely missed
    assert s["claim_fact_ratio"] == 0.0
    # An empty response is not even sent to the model.
    router = Router()
    ev2 = run_prf(_input("  "), _session(router), PRFOptions())
    assert "atomize" not in router.asked and ev2.scores["precision"] is None


def test_no_reference_facts_and_no_evidence() -> None:
    facts = {D1: [], D2: []}
    ev = run_prf(_input(), _session(Router(facts=facts)), PRFOptions())
    s = ev.scores
    assert s["n_facts"] == 0 and s["precision"] == 0.5
    for name in ("recall", "weighted_recall", "recall_at_1", "f1", "claim_fact_ratio"):
        assert s[name] is None, name
    assert "no reference facts" in ev.metadata["undefined"]["recall"]
    ev2 = run_prf(_input(docs=[]), _session(Router()), PRFOptions())
    assert ev2.scores["precision"] is None and ev2.scores["recall"] is None
    assert "no evidence" in ev2.metadata["undefined"]["precision"]
    # Pruning everything away is the same undefined recall.
    ev3 = run_prf(_input(), _session(Router()), PRFOptions(importance_threshold=2.0))
    assert ev3.scores["recall"] is None and ev3.scores["precision"] == 0.5


def test_unreadable_response_is_incomplete() -> None:
    claims = {**CLAIMS, RESPONSE: "sorry, no JSON here"}
    ev = run_prf(_input(), _session(Router(claims=claims)), PRFOptions())
    assert ev.scores["precision"] is None and ev.scores["recall"] is None
    assert "claims" in ev.metadata["incomplete"]
    assert any(f.stage == "claims" for f in ev.parse_failures)


def test_evidence_file_and_no_embeddings(tmp_path: Path) -> None:
    path = tmp_path / "evidence.jsonl"
    path.write_text(json.dumps({"id": "only", "text": D2}) + "\n", encoding="utf-8")
    ev = run_prf(_input(), _session(Router(), embeddings=False), PRFOptions(evidence=str(path)))
    # Without embeddings only the exact duplicate merges: BORN, BIRTH_YEAR, TAUGHT stay apart.
    assert ev.scores["n_facts"] == 3
    assert ev.metadata["counts"]["facts.near_duplicates_skipped"] == 1
    assert {s.source_id for s in ev.graph.statements if s.metadata.get("role")} == {"only"}

    pytest.importorskip("bm25s", reason="bm25s is not installed (extra: retrieval)")
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("\n".join(json.dumps(d) for d in (
        {"id": "a", "text": D1}, {"id": "b", "text": "Oslo has a harbour and many ferries."})),
        encoding="utf-8")
    ev2 = run_prf(_input(docs=[]), _session(Router(facts={D1: [BORN, SYMPH]})),
                  PRFOptions(corpus=str(corpus), retrieve_k=1))
    # BM25 picks the passage about Elin Mardal; it is the only evidence.
    evidence = [s for s in ev2.graph.statements if s.metadata.get("role") == "evidence"]
    assert [(s.text, (s.source_id or "").split("#")[0]) for s in evidence] == [(D1, "a")]
    assert ev2.scores["n_facts"] == 2 and ev2.scores["recall"] == 1.0


def test_cluster_and_canonical_choice() -> None:
    v = np.array([[1.0, 0.0], [0.99, 0.14], [0.0, 1.0], [0.96, 0.28]])
    v = v / np.linalg.norm(v, axis=1, keepdims=True)
    assert cluster_vectors(v, 0.15) == [[0, 1, 3], [2]]
    assert cluster_vectors(v, 0.0001) == [[0], [1], [2], [3]]
    # Row 1 sits between rows 0 and 3: the medoid, although row 0 came first.
    assert medoid(v, [0, 1, 3]) == 1
    assert medoid(v, [3, 0]) == 3  # two members: the first
    assert cluster_vectors(v[:1], 0.15) == [[0]] and cluster_vectors(v[:0], 0.15) == []


def test_select_reference_ranks_unknown_last() -> None:
    imps: list[float | None] = [0.2, None, 0.9, 0.2, 0.5]
    assert select_reference(imps) == [2, 4, 0, 3, 1]
    assert select_reference(imps, k=2) == [2, 4]
    assert select_reference(imps, threshold=0.5) == [2, 4, 1]
    with pytest.raises(ValueError):
        select_reference(imps, k=0)


@pytest.mark.model
def test_prf_end_to_end_with_a_real_small_model() -> None:
    import os

    folder = Path(os.environ.get("FACTGRAPH_MODELS", "~/.cache/factgraph/models")).expanduser()
    name = next((n for n in ("qwen2.5-0.5b-instruct.gguf", "qwen2.5-1.5b-instruct-q4_k_m.gguf")
                 if (folder / n).exists()), None)
    if name is None:
        pytest.skip(f"no small Qwen GGUF in {folder}")
    pytest.importorskip("transformers")
    from factgraph.methods.run import Backends, Evaluator

    backends = Backends.from_specs(f"transformers:{folder}#{name}", cache=False)
    backends.embeddings = KeywordEmbeddings()
    ev = Evaluator("prf", backends=backends)(EvaluationInput(
        id="tiny", query="Where was Elin Mardal born?", response="Elin Mardal was born in Tromsø.",
        documents=[Document(id="d1", text="Elin Mardal was born in Tromsø in 1901.")]))
    assert ev.scores["n_claims"] is not None and ev.scores["n_claims"] >= 1
    assert ev.scores["n_facts"] is not None and ev.scores["n_facts"] >= 1
    for name_ in ("precision", "recall"):
        value = ev.scores[name_]
        assert value is None or 0.0 <= value <= 1.0
    assert ev.traces  # every call was recorded
