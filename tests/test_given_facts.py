"""Given facts as input (``facts`` of an input row, ``--fact`` / ``--facts``, ``facts=``): each
one context statement as given, judged by the e2e judges and prf instead of the facts they
would extract, refused by the methods that cannot read them, and carried like any context
statement into analyze, report and the fact database's rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import factgraph
from factgraph.config import ConfigError
from factgraph.errors import InputError, UserInputError
from factgraph.graph.results import write_json
from factgraph.inputs import Document, EvaluationInput
from factgraph.io import read_given_facts
from factgraph.methods.comprehensiveness import ComprehensivenessOptions
from factgraph.methods.e2e.auto import input_kind
from factgraph.methods.e2e.method import run_e2e
from factgraph.methods.given_facts import FACT_ID, given_fact_statements
from factgraph.methods.judges import DEFAULT_JUDGES
from factgraph.methods.run import Backends, Evaluator
from factgraph.models import Origin, StatementKind
from factgraph.stages.session import ModelSession
from factgraph.store.records import evaluation_rows
from tests.pipeline_support import invoke
from tests.test_long_form_judge import AxisEmbeddings
from tests.test_per_fact_judge import Judge

FACTS = ["Hoover Dam stores water for Nevada farms, and its turbines generate power.",
         "Fish ladders were never built."]
RESPONSE = "Hoover Dam stores water for farms in Nevada. It makes power with turbines."


def _input(**kw: object) -> EvaluationInput:
    return EvaluationInput.model_validate({"id": "hoover", "query": "", "response": RESPONSE,
                                           "facts": FACTS, **kw})


def test_strings_get_ids_by_position_and_ids_are_unique() -> None:
    inp = EvaluationInput(id="x", query="", response="r",
                          facts=["a fact", {"id": "scu7", "text": "another"}, "third"])
    assert [(f.id, f.text) for f in inp.facts] == [("f1", "a fact"), ("scu7", "another"),
                                                   ("f3", "third")]
    with pytest.raises(ValueError, match=r"duplicate fact ids \['f1'\]"):
        EvaluationInput(id="x", query="", response="r", facts=["a", {"id": "f1", "text": "b"}])
    with pytest.raises(ValueError):
        EvaluationInput(id="x", query="", response="r", facts=[{"id": "k", "text": ""}])


def test_statements_are_the_facts_as_given() -> None:
    inp = EvaluationInput(id="x", query="", response="r",
                          facts=[{"id": "r", "text": "One, and two; three."}, "b"])
    got = given_fact_statements(inp)
    assert [(s.id, s.text, s.metadata[FACT_ID]) for s in got] == [
        ("g1", "One, and two; three.", "r"), ("g2", "b", "f2")]
    assert all(s.origin is Origin.context and s.kind is StatementKind.fact for s in got)


def test_facts_file_reads_text_and_jsonl_and_names_the_bad_line(tmp_path: Path) -> None:
    text = tmp_path / "facts.txt"
    text.write_text("first fact\n\n  second fact  \n", encoding="utf-8")
    assert [(f.id, f.text) for f in read_given_facts(text)] == [("f1", "first fact"),
                                                                 ("f2", "second fact")]
    rows = tmp_path / "facts.jsonl"
    rows.write_text('{"id": "n1", "text": "a"}\n"b"\n{"id": "n1", "text": "c"}\n',
                    encoding="utf-8")
    with pytest.raises(InputError, match=r"facts.jsonl:3: id: duplicate fact id 'n1'"):
        read_given_facts(rows)
    rows.write_text('{"id": "n1", "text": "a"}\n{"id": "n2"}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"facts.jsonl:2: text: Field required"):
        read_given_facts(rows)


def test_sentences_judge_judges_the_given_facts_not_the_documents() -> None:
    inp = _input(documents=[Document(id="doc", text="Tourism brings many visitors yearly.")])
    assert input_kind(inp, 80) == "long-form"  # auto: given facts go to the long-form judge
    options = ComprehensivenessOptions(coverage_judge="sentences")
    ev = run_e2e(inp, ModelSession(embeddings=AxisEmbeddings()), options)
    context = [s for s in ev.graph.statements if s.origin is Origin.context]
    assert [s.text for s in context] == FACTS  # never split, the document is no fact
    assert [s.metadata[FACT_ID] for s in context] == ["f1", "f2"]
    covered = {r.dst for r in ev.graph.relations if r.label.value == "entails"}
    assert covered == {"g1"}
    assert ev.scores["comprehensiveness"] == 0.5


def test_auto_routes_given_facts_to_the_long_form_judge() -> None:
    ev = Evaluator("e2e", backends=Backends(embeddings=AxisEmbeddings()))(_input())
    assert ev.parameters["judge"] == DEFAULT_JUDGES["long-form"] == "e2e-evidence"
    assert {s.text for s in ev.graph.statements if s.origin is Origin.context} == set(FACTS)


def test_per_fact_judge_skips_extraction() -> None:
    judge = Judge()
    inp = EvaluationInput(id="v", query="How long is the Varn tunnel?",
                          response="It is 4.2 km long and opened in 1987.",
                          facts=["The Varn tunnel is 4.2 kilometres long.",
                                 "The Varn tunnel is 5 kilometres long."])
    from factgraph.backends.scripted import ScriptedTextBackend

    ev = Evaluator("e2e", backends=Backends(text=ScriptedTextBackend(judge)),
                   options={"coverage_judge": "per-fact", "coverage_cutoff": 0.5})(inp)
    assert judge.fact_calls == 0
    assert [s.metadata[FACT_ID] for s in ev.graph.statements
            if s.origin is Origin.context] == ["f1", "f2"]
    assert ev.scores["comprehensiveness"] == 0.5


@pytest.mark.parametrize(("method", "options"), [("nli", {}), ("qa", {}),
                                                  ("e2e", {"coverage_judge": "list"})])
def test_methods_that_cannot_read_given_facts_refuse_them(method: str,
                                                          options: dict[str, str]) -> None:
    with pytest.raises(UserInputError, match="does not read given facts"):
        Evaluator(method, options=options)(_input())


def test_python_api_takes_facts() -> None:
    ev = factgraph.evaluate("", RESPONSE, facts=FACTS, method="e2e",
                            backends=Backends(embeddings=AxisEmbeddings()))
    assert [s.text for s in ev.graph.statements if s.origin is Origin.context] == FACTS
    with pytest.raises(ConfigError, match="duplicate fact ids"):
        factgraph.evaluate("", RESPONSE, facts=["a", {"id": "f1", "text": "b"}], method="e2e",
                           backends=Backends(embeddings=AxisEmbeddings()))


def test_python_api_given_facts_without_a_method_run_the_clis_default(
        caplog: pytest.LogCaptureFixture) -> None:
    """``facts=`` alone runs what ``factgraph evaluate --fact`` runs (e2e, its judge chosen for
    the input: the evidence judge, no model), and says so; the API's base method, nli, would
    refuse them. A method named is kept, and its refusal says how to name e2e in Python."""
    response = "Mara Voss was born in Bergen. She painted the fjords."
    facts = ["Mara Voss was born in Bergen.", "Mara Voss studied in Paris."]
    with caplog.at_level("INFO", logger="factgraph"):
        ev = factgraph.evaluate("", response, facts=facts, cache=False)
    assert (ev.method, ev.parameters["judge"]) == ("e2e", "e2e-evidence")
    assert ev.scores["comprehensiveness"] == 0.5
    assert {v.statement_id: v.label for v in ev.verdicts} == {"g1": "covered", "g2": "basis"}
    assert "2 given facts and no method: method e2e" in caplog.text
    with pytest.raises(UserInputError, match="method='e2e' in Python"):
        factgraph.evaluate("", response, facts=facts, method="nli", cache=False)


def test_cli_fact_and_facts_flags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import factgraph.cli.evaluate as cli_evaluate

    monkeypatch.setattr(cli_evaluate, "evaluator_of",
                        lambda config: config.evaluator(Backends(embeddings=AxisEmbeddings())))
    response = tmp_path / "response.txt"
    response.write_text(RESPONSE, encoding="utf-8")
    out = tmp_path / "ev.json"
    res = invoke("evaluate", "--response", str(response), "--fact", FACTS[0], "--fact",
                 FACTS[1], "--method", "e2e", "-o", str(out), "--format", "json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["scores"]["comprehensiveness"] == 0.5
    facts = tmp_path / "facts.txt"
    facts.write_text("\n".join(FACTS), encoding="utf-8")
    res = invoke("evaluate", "--response", str(response), "--facts", str(facts), "--method",
                 "e2e", "--format", "json")
    assert json.loads(res.output)["scores"]["comprehensiveness"] == 0.5
    res = invoke("evaluate", "--response", str(response), "--facts", str(facts), "--fact", "x")
    assert res.exit_code != 0 and "not both" in res.output


def test_given_facts_flow_into_analyze_report_and_db_rows(tmp_path: Path) -> None:
    ev = run_e2e(_input(), ModelSession(embeddings=AxisEmbeddings()),
                 ComprehensivenessOptions(coverage_judge="sentences"))
    path = tmp_path / "ev.json"
    write_json(path, ev)
    res = invoke("analyze", str(path), "--format", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["comprehensiveness"] == 0.5
    assert [(c["statement_id"], c["text"]) for c in data["covered"]] == [("g1", FACTS[0])]
    assert [(c["statement_id"], c["text"]) for c in data["basis"]] == [("g2", FACTS[1])]
    runs = tmp_path / "runs.jsonl"
    runs.write_text(ev.model_dump_json() + "\n", encoding="utf-8")
    html = tmp_path / "report.html"
    res = invoke("report", str(runs), "-o", str(html))
    assert res.exit_code == 0, res.output
    page = html.read_text(encoding="utf-8")
    assert "Fish ladders were never built." in page
    rows = evaluation_rows(ev)
    assert sorted(r["props"]["text"] for r in rows["context_statements"]) == sorted(FACTS)
    assert len(rows["covers"]) == 1 and len(rows["misses"]) == 1
    back = json.loads(rows["evaluations"][0]["props"]["json"])
    assert [s["metadata"].get(FACT_ID) for s in back["graph"]["statements"]
            if s["origin"] == "context"] == ["f1", "f2"]


def test_prf_takes_given_facts_as_its_reference_facts() -> None:
    from factgraph.methods.precision_recall import PRFOptions, run_prf
    from tests import test_precision_recall as prf

    router = prf.Router()
    inp = prf._input().model_copy(update={"facts": EvaluationInput(
        id="x", query="", response="", facts=[prf.BORN, prf.TROMSO, prf.SYMPH]).facts})
    ev = run_prf(inp, prf._session(router), PRFOptions())
    assert "facts" not in router.asked  # nothing extracted
    facts = [s for s in ev.graph.statements if s.kind is StatementKind.fact]
    assert [(f.text, f.metadata[FACT_ID]) for f in facts] == [
        (prf.BORN, "f1"), (prf.SYMPH, "f3"), (prf.TROMSO, "f2")]  # ranked by importance
    assert ev.scores["n_facts"] == 3 and ev.scores["recall"] == pytest.approx(2 / 3)
    assert ev.scores["n_claims"] == 4 and ev.scores["precision"] == 0.5  # documents: evidence
    assert ev.metadata["n_given"] == 3
