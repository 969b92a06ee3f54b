"""ARGUE (Mayfield et al. 2024): the paper's worked example (Figures 3 and 4) from manual
judgements, the Figure 2 decision flow, the score rules, the input files, and the model judge's
orchestration with scripted replies."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from factgraph.backends.base import ChatMessage, GenerationParams
from factgraph.backends.scripted import ScriptedNLIBackend, ScriptedTextBackend, ScriptOutput
from factgraph.datasets.argue_io import load_nuggets, load_report, report_from_text
from factgraph.errors import InputError
from factgraph.graph import analyze
from factgraph.inputs import Document, EvaluationInput
from factgraph.methods import get_method
from factgraph.methods.argue import ArgueOptions, run_argue
from factgraph.metrics.argue import (
    SentenceJudgement,
    citation_scores,
    nugget_recall,
    sentence_outcome,
    sentence_precision,
    weighted_nugget_recall,
)
from factgraph.models import Origin, StatementKind
from factgraph.prompts import load_prompt
from factgraph.stages.session import ModelSession

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "argue_worked_example"
EMPTY = EvaluationInput(id="figure-4", query="", response="")


def _example_options(**kw: str) -> ArgueOptions:
    files = {"request": str(EXAMPLE / "request.txt"), "report": str(EXAMPLE / "report.json"),
             "nuggets": str(EXAMPLE / "nuggets.jsonl"),
             "judgements": str(EXAMPLE / "judgements.jsonl")}
    return ArgueOptions(**{**files, **kw})


# -- the worked example -------------------------------------------------------------------------

def test_worked_example_reproduces_the_paper() -> None:
    ev = run_argue(EMPTY, ModelSession(), _example_options())
    # Figure 4: outcome per line, as printed in the paper.
    expected = {1: 4, 2: 2, 3: 3, 4: 4, 5: 6, 6: 2, 7: 3, 8: 6, 9: 4, 10: 3, 11: 3, 12: 3,
                13: 4, 14: 6, 15: 6, 16: 4}
    assert ev.metadata["outcomes"] == {f"s{k}": v for k, v in expected.items()}
    # §5: "precision is 5/(16 − 11) = 1.0 … recall is 3/5 = 0.6".
    assert ev.scores["precision"] == 1.0
    assert ev.scores["recall"] == 0.6
    assert ev.scores["n_outcome_3"] == 5 and ev.scores["n_sentences"] == 16
    assert ev.scores["n_outcome_2"] + ev.scores["n_outcome_4"] + ev.scores["n_outcome_6"] == 11
    assert ev.metadata["reported_nuggets"] == ["2", "3", "5"]
    assert ev.metadata["missing_nuggets"] == ["1", "4"]
    assert ev.scores["citation_micro"] == 1.0 and ev.scores["citation_macro"] == 1.0
    assert ev.scores["weighted_recall"] is None and "weighted_recall" in ev.metadata["undefined"]
    assert ev.traces == [] and ev.metadata["judged_by"] == {"manual": 36}


def test_worked_example_graph_gives_covered_and_missing_nuggets() -> None:
    ev = run_argue(EMPTY, ModelSession(), _example_options())
    g = ev.graph
    answers = [s for s in g.statements if s.kind is StatementKind.nugget]
    assert len(answers) == 1 + 4 + 4 + 4 + 4
    assert all(s.origin is Origin.context and s.question_id for s in answers)
    sentences = [s for s in g.statements if s.origin is Origin.response]
    assert len(sentences) == 16 and sentences[2].metadata["citations"] == ["D13"]
    # Lines 10, 11, 12 all give nugget 5 ("Re-release in China"); it counts once.
    edges = sorted((r.src, r.dst) for r in g.relations)
    assert edges == [("s10", "n5.a2"), ("s11", "n5.a2"), ("s12", "n5.a2"), ("s3", "n2.a2"),
                     ("s7", "n3.a4")]
    cov = analyze(g)
    covered_questions = {g.statement(m).question_id for c in cov.covered() for m in c.members
                         if g.statement(m).origin is Origin.context}
    assert covered_questions == {"2", "3", "5"}
    verdicts = {v.statement_id: v.label for v in ev.verdicts}
    assert verdicts["n5.a2"] == "covered" and verdicts["n5.a1"] == "other_answer_given"
    assert verdicts["n1.a1"] == "missing" and verdicts["s3"] == "outcome_3"


def test_a_match_needs_a_supporting_cited_document(tmp_path: Path) -> None:
    rows = [json.loads(x) for x in (EXAMPLE / "judgements.jsonl").read_text().splitlines()]
    # Line 2 cites D12; claiming it answers nugget 1 ("2010", attested only by D1) is rejected.
    rows[1]["nuggets"] = [{"nugget": "1", "answer": 1}]
    # Line 3's support for D13 withdrawn: outcome #1, penalised.
    rows[2]["support"] = {"D13": False}
    path = tmp_path / "j.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    ev = run_argue(EMPTY, ModelSession(), _example_options(judgements=str(path)))
    assert ev.metadata["outcomes"]["s2"] == 2 and ev.metadata["outcomes"]["s3"] == 1
    assert ev.metadata["rejected_matches"][0]["sentence"] == "s2"
    assert ev.scores["precision"] == pytest.approx(4 / 5)  # s3 now penalised
    assert ev.scores["recall"] == pytest.approx(2 / 5)
    assert ev.scores["citation_micro"] == pytest.approx(6 / 7)


def test_missing_judgement_without_a_model_is_an_error(tmp_path: Path) -> None:
    rows = [json.loads(x) for x in (EXAMPLE / "judgements.jsonl").read_text().splitlines()]
    del rows[4]["first_occurrence"]
    path = tmp_path / "j.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    with pytest.raises(ValueError, match=r"s5.*first_occurrence"):
        run_argue(EMPTY, ModelSession(), _example_options(judgements=str(path)))


# -- decision flow and scores -------------------------------------------------------------------

@pytest.mark.parametrize(("judgement", "outcome"), [
    (SentenceJudgement(has_citation=True, all_supported=False), 1),
    (SentenceJudgement(has_citation=True, all_supported=True), 2),
    (SentenceJudgement(has_citation=True, all_supported=True, nuggets=frozenset({"n"})), 3),
    (SentenceJudgement(has_citation=False, negative=False, needs_citation=False), 4),
    (SentenceJudgement(has_citation=False, negative=False, needs_citation=True,
                       first_occurrence=True), 5),
    (SentenceJudgement(has_citation=False, negative=False, needs_citation=True,
                       first_occurrence=False), 6),
    (SentenceJudgement(has_citation=False, negative=True), 7),
    (SentenceJudgement(has_citation=False, negative=True, nuggets=frozenset({"n"})), 8),
    # An unsupported citation is penalised even when the sentence would match a nugget.
    (SentenceJudgement(has_citation=True, all_supported=False, nuggets=frozenset({"n"})), 1),
])
def test_decision_flow(judgement: SentenceJudgement, outcome: int) -> None:
    assert sentence_outcome(judgement) == outcome


def test_decision_flow_refuses_to_guess() -> None:
    with pytest.raises(ValueError, match="support"):
        sentence_outcome(SentenceJudgement(has_citation=True))
    with pytest.raises(ValueError, match="needs_citation"):
        sentence_outcome(SentenceJudgement(has_citation=False, negative=False))


def test_score_rules() -> None:
    # + : 3, 8; − : 1, 5, 7; 0 : 2, 4, 6.
    assert sentence_precision([3, 1, 2, 4, 6, 8, 5]) == pytest.approx(2 / 4)
    assert sentence_precision([2, 4, 6]) is None
    assert nugget_recall(["a", "a", "b"], ["a", "b", "c", "d"]) == 0.5
    assert nugget_recall([], []) is None
    assert weighted_nugget_recall(["a"], {"a": 3.0, "b": 1.0}) == 0.75
    assert weighted_nugget_recall(["a"], {}) is None
    # micro: 3 of 4 citations; macro: mean of 1.0 and 0.5 (uncited sentence left out).
    assert citation_scores([[True], [True, False], [True], []]) == (0.75, pytest.approx(5 / 6))
    assert citation_scores([[], []]) == (None, None)


# -- input files --------------------------------------------------------------------------------

def test_input_files_and_line_numbered_errors(tmp_path: Path) -> None:
    assert len(load_report(EXAMPLE / "report.json").sentences) == 16
    assert [len(n.answers) for n in load_nuggets(EXAMPLE / "nuggets.jsonl")] == [1, 4, 4, 4, 4]
    bad = tmp_path / "nuggets.jsonl"
    bad.write_text('{"id": "1", "question": "q?", "answers": [{"text": "x"}]}\n'
                   '{"id": "2", "question": "q?", "answers": []}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"nuggets.jsonl:2: answers"):
        load_nuggets(bad)
    dup = tmp_path / "n.json"
    dup.write_text(json.dumps([{"id": "1", "question": "q", "answers": [{"text": "x"}]}] * 2))
    with pytest.raises(InputError, match="duplicate nugget"):
        load_nuggets(dup)
    report = report_from_text("Intro. It made $2.7 billion. [D12] In July 2019 [D13, D3]. Done!")
    assert [(s.text, s.citations) for s in report.sentences] == [
        ("Intro.", []), ("It made $2.7 billion.", ["D12"]),
        ("In July 2019.", ["D13", "D3"]), ("Done!", [])]


# -- model judge orchestration ------------------------------------------------------------------

DOCS = {"D1": "Harbor Tower opened to the public in 1931.",
        "D2": "Harbor Tower is a listed building.",
        "D3": "The tower was inaugurated in 1931 by the mayor."}
REPORT = {"id": "tower", "sentences": [
    {"text": "Harbor Tower opened in 1931.", "citations": ["D1", "D3"]},
    {"text": "Harbor Tower is 200 m tall.", "citations": ["D2"]},
    {"text": "This report covers Harbor Tower."},
    {"text": "The tower has 50 floors."},
    {"text": "Fifty floors make up the tower."},
    {"text": "No record of the architect's name exists."}]}
NUGGETS = [
    {"id": "open", "question": "When did Harbor Tower open?",
     "answers": [{"text": "1931", "docs": ["D1", "D3"]}], "importance": 2.0},
    {"id": "architect", "question": "Who designed Harbor Tower?",
     "answers": [{"text": "Unknown: no record names the architect", "docs": []}],
     "importance": 1.0},
    {"id": "height", "question": "How tall is Harbor Tower?",
     "answers": [{"text": "180 m", "docs": ["D2"]}], "importance": 1.0}]
PROMPTS = ("argue_nugget", "argue_negative", "argue_needs_citation", "argue_first")


class ArgueRouter:
    def __init__(self) -> None:
        self.by_system = {load_prompt(n).system.strip(): n for n in PROMPTS}
        self.asked: list[tuple[str, str]] = []

    def __call__(self, messages: Sequence[ChatMessage], params: GenerationParams) -> ScriptOutput:
        name = self.by_system[messages[0].content]
        user = messages[-1].content
        sentence = re.search(r"^SENTENCE: (.*)$", user, re.M)
        assert sentence is not None
        s = sentence.group(1)
        self.asked.append((name, s))
        if name == "argue_nugget":
            return json.dumps({"answer": 1 if ("1931" in s or "architect" in s) else 0})
        if name == "argue_negative":
            return json.dumps({"negative": s.startswith("No record")})
        if name == "argue_needs_citation":
            return json.dumps({"needs_citation": "floors" in s})
        return json.dumps({"repeats": 4 if s.startswith("Fifty") else 0})


def _nli(premise: str, hypothesis: str) -> str:
    return "entails" if "1931" in premise and "1931" in hypothesis else "neutral"


def _files(tmp_path: Path) -> ArgueOptions:
    (tmp_path / "report.json").write_text(json.dumps(REPORT), encoding="utf-8")
    (tmp_path / "nuggets.json").write_text(json.dumps(NUGGETS), encoding="utf-8")
    (tmp_path / "docs.jsonl").write_text("\n".join(json.dumps({"id": k, "text": v})
                                                   for k, v in DOCS.items()), encoding="utf-8")
    (tmp_path / "request.json").write_text(json.dumps({"text": "Write about Harbor Tower."}))
    return ArgueOptions(request=str(tmp_path / "request.json"),
                        report=str(tmp_path / "report.json"),
                        nuggets=str(tmp_path / "nuggets.json"), docs=str(tmp_path / "docs.jsonl"))


def test_model_judge_walks_the_flow(tmp_path: Path) -> None:
    router = ArgueRouter()
    nli = ScriptedNLIBackend(_nli)
    session = ModelSession(text=ScriptedTextBackend(router), nli=nli)
    ev = run_argue(EMPTY, session, _files(tmp_path))
    assert ev.metadata["outcomes"] == {"s1": 3, "s2": 1, "s3": 4, "s4": 5, "s5": 6, "s6": 8}
    assert ev.scores["precision"] == 0.5  # + s1, s6; − s2, s4
    assert ev.scores["recall"] == pytest.approx(2 / 3)
    assert ev.scores["weighted_recall"] == pytest.approx(3 / 4)
    assert ev.scores["citation_micro"] == pytest.approx(2 / 3)  # D1 ✓ D3 ✓ D2 ✗
    assert ev.scores["citation_macro"] == pytest.approx(0.5)
    assert nli.calls == 3  # one pair per citation
    asked = {(n, s[:12]) for n, s in router.asked}
    # Only the questions each path reaches: no nugget question for the unsupported s2, no
    # needs-citation question for the negative s6, no first-occurrence question for s3.
    assert ("argue_nugget", "Harbor Tower") in asked and len(
        [a for a in router.asked if a[0] == "argue_nugget"]) == 2
    assert ("argue_needs_citation", "No record of") not in asked
    assert [s for n, s in router.asked if n == "argue_first"] == [
        "The tower has 50 floors.", "Fifty floors make up the tower."]
    assert [s for n, s in router.asked if n == "argue_negative"] == [
        s["text"] for s in REPORT["sentences"][2:]]
    edges = {(r.src, r.dst, r.method) for r in ev.graph.relations}
    assert edges == {("s1", "nopen.a1", "llm"), ("s6", "narchitect.a1", "llm")}
    assert ev.metadata["judged_by"]["model"] > 0 and ev.traces


def test_manual_judgements_override_the_model_per_question(tmp_path: Path) -> None:
    options = _files(tmp_path)
    (tmp_path / "j.json").write_text(json.dumps(
        [{"sentence": "s4", "needs_citation": False}, {"sentence": "s2", "support": {"D2": True}}]))
    router = ArgueRouter()
    session = ModelSession(text=ScriptedTextBackend(router), nli=ScriptedNLIBackend(_nli))
    ev = run_argue(EMPTY, session, options.model_copy(update={"judgements": str(tmp_path /
                                                                                 "j.json")}))
    assert ev.metadata["outcomes"]["s4"] == 4 and ev.metadata["outcomes"]["s2"] == 2
    assert ("argue_needs_citation", "The tower has 50 floors.") not in router.asked
    assert ev.graph.statement("s4").metadata["judged_by"]["needs_citation"] == "manual"


def test_unreadable_model_reply_leaves_the_sentence_unjudged(tmp_path: Path) -> None:
    router = ArgueRouter()

    def script(messages: Sequence[ChatMessage], params: GenerationParams) -> ScriptOutput:
        if messages[-1].content.endswith("SENTENCE: Fifty floors make up the tower."):
            return "no idea"  # the first-occurrence question about s5 never parses
        return router(messages, params)

    session = ModelSession(text=ScriptedTextBackend(script), nli=ScriptedNLIBackend(_nli),
                           max_repairs=0)
    ev = run_argue(EMPTY, session, _files(tmp_path))
    assert "s5" not in ev.metadata["outcomes"] and ev.scores["n_unjudged"] == 1
    assert "s5" in ev.metadata["undefined"]["unjudged_sentences"]
    assert [v.label for v in ev.verdicts if v.statement_id == "s5"] == ["unjudged"]
    assert any(f.stage.startswith("argue.") for f in ev.parse_failures)


def test_report_from_the_input_response_and_registry(tmp_path: Path) -> None:
    options_cls, run = get_method("argue")
    assert options_cls is ArgueOptions and run is run_argue
    inp = EvaluationInput(id="x", query="Write about Harbor Tower.",
                          response="Harbor Tower opened in 1931. [D1]",
                          documents=[Document(id="D1", text=DOCS["D1"])])
    nuggets = tmp_path / "nuggets.json"
    nuggets.write_text(json.dumps(NUGGETS[:1]), encoding="utf-8")
    session = ModelSession(text=ScriptedTextBackend(ArgueRouter()), nli=ScriptedNLIBackend(_nli))
    ev = run(inp, session, ArgueOptions(nuggets=str(nuggets)))
    assert ev.scores["precision"] == 1.0 and ev.scores["recall"] == 1.0
    with pytest.raises(ValueError, match="nuggets"):
        run_argue(inp, ModelSession(), ArgueOptions())


@pytest.mark.model
def test_argue_end_to_end_with_a_real_small_model(tmp_path: Path) -> None:
    import os

    folder = Path(os.environ.get("FACTGRAPH_MODELS", "~/.cache/factgraph/models")).expanduser()
    name = next((n for n in ("qwen2.5-0.5b-instruct.gguf", "qwen2.5-1.5b-instruct-q4_k_m.gguf")
                 if (folder / n).exists()), None)
    if name is None:
        pytest.skip(f"no small Qwen GGUF in {folder}")
    pytest.importorskip("transformers")
    from factgraph.methods.run import Backends, Evaluator

    options = _files(tmp_path)
    small = {"id": "tower", "sentences": REPORT["sentences"][:1] + REPORT["sentences"][2:3]}
    Path(options.report or "").write_text(json.dumps(small), encoding="utf-8")
    backends = Backends.from_specs(f"transformers:{folder}#{name}", cache=False)
    ev = Evaluator("argue", backends=backends, options=options.model_dump())(EMPTY)
    assert set(ev.metadata["outcomes"]) <= {"s1", "s2"}
    assert ev.scores["n_sentences"] == 2
    for key in ("precision", "recall"):
        value = ev.scores[key]
        assert value is None or 0.0 <= value <= 1.0
    assert ev.traces
