"""Issue 35 §3, files that say what they are: ``validate`` tells an inputs file by its keys even
with a key misspelt; a judge card of another judge is refused naming both; documents may be
plain strings; ``factgraph schema inputs`` prints the inputs row's schema."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from factgraph.cli.main import cli
from factgraph.inputs import EvaluationInput
from factgraph.methods.judges import DEFAULT_JUDGES

REPO = Path(__file__).resolve().parents[1]
CASCADE_CARD = REPO / "docs" / "judge_cards" / "long-form" / "e2e-sentences-cascade.json"
FREE_CARD = REPO / "docs" / "judge_cards" / "long-form" / "e2e-sentences-model-free.json"


def run(*args: object) -> Result:
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_validate_reads_an_inputs_file_with_a_misspelt_key_as_inputs(tmp_path: Path) -> None:
    inputs = tmp_path / "inputs.jsonl"
    inputs.write_text(json.dumps({"id": "a", "query": "q", "respones": "r",
                                  "documents": [{"id": "d1", "text": "t"}]}) + "\n",
                      encoding="utf-8")
    res = run("validate", inputs, "--format", "json")
    assert res.exit_code == 2
    report = json.loads(res.stdout)
    assert report["kind"] == "inputs"
    assert report["errors"] == [f"{inputs}:1: response: Field required",
                                f"{inputs}:1: respones: unknown key (did you mean 'response'?)"]
    # the same object as a .json file
    single = tmp_path / "input.json"
    single.write_text(json.dumps({"id": "a", "query": "q", "respones": "r"}), encoding="utf-8")
    report = json.loads(run("validate", single, "--format", "json").stdout)
    assert report["kind"] == "inputs" and len(report["errors"]) == 2


def test_validate_still_tells_graphs_and_results_apart() -> None:
    from factgraph.cli.validate import guess_kind

    assert guess_kind({"query": "q", "statements": [], "relations": []}) == "graph"
    assert guess_kind({"query": "q", "statments": [], "relations": []}) == "graph"
    assert guess_kind({"id": "x", "method": "e2e", "graph": {}}) == "results"
    assert guess_kind({"id": "x", "query": "q", "response": "r"}) == "inputs"
    assert guess_kind([1, 2]) == "graph"


def _long_form_inputs(tmp_path: Path) -> tuple[Path, Path]:
    response = tmp_path / "response.txt"
    response.write_text("A long-form answer judged against one reference.", encoding="utf-8")
    reference = tmp_path / "reference.txt"
    reference.write_text("The reference answer.", encoding="utf-8")
    return response, reference


def test_a_judge_card_of_another_judge_is_refused_naming_both(tmp_path: Path) -> None:
    response, reference = _long_form_inputs(tmp_path)
    base = ("evaluate", "--query", "q", "--response", response, "--context", reference,
            "--no-cache")
    # auto picks the long-form default for a long-form input: the cascade's card is not its own
    res = run(*base, "--judge-card", CASCADE_CARD, "-o", tmp_path / "ev.json")
    assert res.exit_code == 2, res.output
    assert ("is the card of judge e2e-sentences-cascade, not of this run's judge "
            f"{DEFAULT_JUDGES['long-form']}") in res.output
    assert not (tmp_path / "ev.json").exists()
    res = run(*base, "--judge", "e2e-sentences-model-free", "--judge-card", CASCADE_CARD)
    assert res.exit_code == 2 and "e2e-sentences-cascade" in res.output
    assert "e2e-sentences-model-free" in res.output
    # another method: named too
    res = run(*base, "--method", "nli", "--judge-card", FREE_CARD)
    assert res.exit_code == 2
    assert "card of judge e2e-sentences-model-free (method e2e), not of this run's method nli" \
        in res.output
    # batch checks before it runs anything
    inputs = tmp_path / "in.jsonl"
    inputs.write_text(json.dumps({"id": "a", "query": "q", "response": "r",
                                  "documents": ["the reference"]}) + "\n", encoding="utf-8")
    res = run("batch", inputs, "-o", tmp_path / "out.jsonl", "--no-cache",
              "--judge-card", CASCADE_CARD)
    assert res.exit_code == 2
    assert f"not of this run's judge {DEFAULT_JUDGES['long-form']}" in res.output
    assert not (tmp_path / "out.jsonl").exists()


def test_the_card_of_the_runs_own_judge_is_accepted() -> None:
    from factgraph.cli.judge_choice import check_card, run_judges
    from factgraph.config import EvaluationConfig
    from factgraph.evaluation.meta_eval import read_judge_card

    config = EvaluationConfig.from_flat({"method": "e2e"})
    inp = EvaluationInput(id="a", query="q", response="r", documents=["one text"])
    judges = run_judges(config, None, [inp])
    assert judges == {DEFAULT_JUDGES["long-form"]}
    check_card(read_judge_card(FREE_CARD), str(FREE_CARD), config,
               {"e2e-sentences-model-free"})  # a run of that judge takes its card: no error
    own = Path(__file__).resolve().parents[1] / "docs" / "judge_cards" / "long-form" / \
        f"{DEFAULT_JUDGES['long-form']}.json"
    check_card(read_judge_card(own), str(own), config, judges)  # the default's own: no error


def test_documents_may_be_plain_strings() -> None:
    inp = EvaluationInput.model_validate(
        {"id": "a", "query": "q", "response": "r",
         "documents": ["first text", {"id": "own", "text": "second"}, "third text"]})
    assert [(d.id, d.text) for d in inp.documents] == [
        ("d1", "first text"), ("own", "second"), ("d3", "third text")]


def test_validate_accepts_string_documents(tmp_path: Path) -> None:
    inputs = tmp_path / "ragas.jsonl"
    inputs.write_text(json.dumps({"id": "a", "query": "q", "response": "r",
                                  "documents": ["one", "two"]}) + "\n", encoding="utf-8")
    res = run("validate", inputs)
    assert res.exit_code == 0, res.output
    assert "OK (1 inputs object)" in res.output


def test_schema_inputs_is_the_inputs_row() -> None:
    res = run("schema", "inputs")
    assert res.exit_code == 0, res.output
    schema = json.loads(res.stdout)
    assert schema["title"] == "EvaluationInput"
    assert set(schema["required"]) == {"id", "query", "response"}
    items = schema["properties"]["documents"]["items"]["anyOf"]
    assert {"type": "string"} in items
    assert json.loads(run("schema", "results").stdout)["title"] == "Evaluation"


def test_cli_docs_show_schema_inputs() -> None:
    assert "factgraph schema inputs" in (REPO / "docs" / "cli.md").read_text(encoding="utf-8")


def test_view_refuses_the_card_of_another_judge(tmp_path: Path) -> None:
    from factgraph.graph.results import load_evaluations, write_json

    ev = load_evaluations(str(REPO / "examples" / "heber_results.jsonl"))[0]
    ev.parameters["judge"] = "e2e-sentences-model-free"  # as auto records it
    run_file = tmp_path / "ev.json"
    write_json(str(run_file), ev)
    res = run("view", run_file, "-o", tmp_path / "v.html", "--judge-card", CASCADE_CARD)
    assert res.exit_code == 2
    assert ("is the card of judge e2e-sentences-cascade, not of judge "
            "e2e-sentences-model-free, which made this evaluation") in res.output
    assert not (tmp_path / "v.html").exists()
    res = run("view", run_file, "-o", tmp_path / "v.html", "--judge-card", FREE_CARD)
    assert res.exit_code == 0, res.output
