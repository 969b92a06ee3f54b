"""The evaluate / batch / meta-eval commands end to end over HTTP.

The real ``openai:`` backend talks to a local OpenAI-compatible server whose replies are
scripted per packaged prompt, so these tests cover flag parsing, backend construction, the call
cache, result files, resume and the printed summaries; the model's capability is tested with
real engines in the model-marked tests.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from factgraph.cli.main import cli
from factgraph.io import read_jsonl
from factgraph.models import Evaluation
from tests.fake_openai import serve
from tests.pipeline_support import QUERY, RESPONSE, PromptRouter, field, invoke

# e2e replies keyed by a marker in the response: all covered, half covered, none covered.
E2E_REPLIES = {
    "BOTH": {"covered": [{"statement": "a", "sources": [1]}, {"statement": "b", "sources": [2]}],
             "uncovered": []},
    "ONE": {"covered": [{"statement": "a", "sources": [1]}],
            "uncovered": [{"statement": "b", "sources": [2]}]},
    "NONE": {"covered": [], "uncovered": [{"statement": "a", "sources": [1]},
                                          {"statement": "b", "sources": [2]}]},
}


def e2e_by_marker(user: str) -> str:
    response = field(user, "RESPONSE")
    return json.dumps(E2E_REPLIES[response.removeprefix("answer ")])


def voss_e2e(user: str) -> str:
    assert field(user, "RESPONSE") == RESPONSE
    return json.dumps({"covered": [{"statement": "Mara Voss was born in 1871.", "sources": [1]},
                                   {"statement": "Mara Voss was born in Bergen.", "sources": [1]}],
                       "uncovered": [{"statement": "Mara Voss was born in 1872.",
                                      "sources": [2]}]})


def test_evaluate_over_http_writes_the_evaluation_and_caches_calls(
        tmp_path: Path, voss_files: dict[str, Path]) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    router = PromptRouter({"e2e": voss_e2e})
    cache = tmp_path / "calls.sqlite"
    with serve(router) as (url, served):
        args = ["evaluate", "--judge", "e2e-list", "--model", f"openai:m@{url}", "--query", QUERY,
                "--response", str(voss_files["response"]), "--context", str(voss_files["d1"]),
                "--context", str(voss_files["d2"]), "--cache", str(cache), "--output", "json"]
        first = invoke(*args, "-o", str(tmp_path / "run.json"))
        assert first.exit_code == 0, first.output
        assert served.requests == 1
        again = invoke(*args)
        assert again.exit_code == 0 and served.requests == 1  # answered from the cache
    row = json.loads(first.output)
    assert row["scores"]["comprehensiveness"] == pytest.approx(2 / 3)
    ev = Evaluation.model_validate_json((tmp_path / "run.json").read_text())
    assert {s.source_id for s in ev.graph.statements if s.origin == "context"} == {"d1", "d2"}
    assert json.loads(again.output)["scores"] == row["scores"]


def test_batch_resume_runs_only_what_is_left(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    inputs = tmp_path / "inputs.jsonl"
    docs = [{"id": "d1", "text": "first text"}, {"id": "d2", "text": "second text"}]
    lines = [{"id": f"q{i}", "query": "q?", "response": f"answer {m}", "documents": docs}
             for i, m in enumerate(["BOTH", "ONE", "NONE"])]
    inputs.write_text("\n".join(json.dumps(x) for x in lines[:2]) + "\n", encoding="utf-8")
    out = tmp_path / "results.jsonl"
    with serve(PromptRouter({"e2e": e2e_by_marker})) as (url, served):
        common = ["--judge", "e2e-list", "--model", f"openai:m@{url}", "--no-cache",
                  "--output", "json"]
        res = invoke("batch", str(inputs), "-o", str(out), *common)
        assert res.exit_code == 0, res.output
        assert json.loads(res.output)["ran"] == 2 and served.requests == 2
        refused = invoke("batch", str(inputs), "-o", str(out), *common)
        assert refused.exit_code == 2 and "--resume" in refused.output
        inputs.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
        res = invoke("batch", str(inputs), "-o", str(out), "--resume", *common)
        assert res.exit_code == 0, res.output
        summary = json.loads(res.output)
        assert (summary["ran"], summary["already_done"], served.requests) == (1, 2, 3)
    scores = {ev.id: ev.scores["comprehensiveness"] for _, ev in read_jsonl(out, Evaluation)}
    assert scores == {"q0": 1.0, "q1": 0.5, "q2": 0.0}


def wikicontradict_file(path: Path) -> Path:
    """Two rows in the humaneval layout; markers steer the scripted judge."""
    rows = []
    for n in range(2):
        row: dict[str, Any] = {"question": f"question {n}?", "context1_self_contained": "c1",
                               "context2_self_contained": "c2", "model": "m"}
        answers = ["BOTH", "ONE", "ONE", "NONE", "BOTH"] if n == 0 else \
                  ["ONE", "ONE", "BOTH", "NONE", "NONE"]
        labels = ["Correct", "Correct", "Partially correct", "Incorrect", "Incorrect"]
        for k in range(5):
            row[f"answer{k}"] = f"answer {answers[k]}"
            row[f"label{k}"] = labels[k]
        rows.append(row)
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_meta_eval_wikicontradict_reports_lmr_and_confusion(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    data = wikicontradict_file(tmp_path / "wc.jsonl")
    results = tmp_path / "wc-results.jsonl"
    with serve(PromptRouter({"e2e": e2e_by_marker})) as (url, served):
        args = ["meta-eval", "wikicontradict", "--data", str(data), "--results", str(results),
                "--judge", "e2e-list", "--model", f"openai:m@{url}", "--no-cache",
                "--resamples", "200", "--output", "json"]
        res = invoke(*args)
        assert res.exit_code == 0, res.output
        assert served.requests == 10
        # Resuming a finished run asks the model nothing and reports the same numbers.
        again = invoke(*args, "--resume")
        assert again.exit_code == 0 and served.requests == 10
    result = json.loads(res.output)
    assert json.loads(again.output) == result
    # Predicted (strict): BOTH→C, ONE→PC, NONE→I. Human labels after footnote 6 (answers 1
    # and 2 marked Correct count as PC): row 0 matches a0,a1,a2,a3 and misses a4 (C vs I);
    # row 1 misses a0 (PC vs C), matches a1, misses a2 (C vs PC), matches a3 and a4.
    assert result["n"] == 10 and result["lmr_strict"] == pytest.approx(7 / 10)
    assert result["confusion"]["Incorrect"] == {"Incorrect": 3, "Correct": 1}
    assert result["confusion"]["Correct"] == {"Correct": 1, "Partially correct": 1}
    lo, hi = result["lmr_strict_ci"]
    assert lo <= 0.7 <= hi


def test_meta_eval_sample_is_fixed_by_its_seed(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    data = wikicontradict_file(tmp_path / "wc.jsonl")
    with serve(PromptRouter({"e2e": e2e_by_marker})) as (url, served):
        ids = []
        for run in range(2):
            out = tmp_path / f"r{run}.jsonl"
            res = invoke("meta-eval", "wikicontradict", "--data", str(data), "--results",
                         str(out), "--sample", "4", "--sample-seed", "7", "--judge", "e2e-list",
                         "--model", f"openai:m@{url}", "--no-cache", "--resamples", "100",
                         "--output", "json")
            assert res.exit_code == 0, res.output
            ids.append([ev.id for _, ev in read_jsonl(out, Evaluation)])
        assert served.requests == 8
    assert ids[0] == ids[1] and len(ids[0]) == 4


@pytest.mark.parametrize("args, message", [
    (["--method", "icat-m"], "e2e, qa or nli"),
    (["--sample", "0"], "--sample must be at least 1"),
    (["--method", "e2e", "--data", "/nonexistent/wc.jsonl"], "/nonexistent/wc.jsonl"),
])
def test_meta_eval_bad_arguments_are_one_line_errors(tmp_path: Path, args: list[str],
                                                     message: str) -> None:
    data = wikicontradict_file(tmp_path / "wc.jsonl")
    res = CliRunner().invoke(cli, ["meta-eval", "wikicontradict", "--data", str(data),
                                   "--results", str(tmp_path / "r.jsonl"), *args])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output


@pytest.mark.parametrize("args, message", [
    (["--set", "prune_top_k"], "expected NAME=VALUE"),
    (["--set", "prune_top_k=many"], "prune_top_k"),
    (["--method", "icat-m", "--prune-top-k", "3"], "does not apply to --method icat-m"),
    (["--model", "nosuchengine:x"], "nosuchengine"),
])
def test_evaluate_bad_options_are_one_line_errors(voss_files: dict[str, Path], args: list[str],
                                                  message: str) -> None:
    res = CliRunner().invoke(cli, ["evaluate", "--query", QUERY, "--response",
                                   str(voss_files["response"]), "--context",
                                   str(voss_files["d1"]), *args])
    assert res.exit_code == 2, res.output
    assert message in res.output and "Traceback" not in res.output
    assert len(res.output.strip().splitlines()) == 1


def test_two_runs_with_one_cache_write_byte_identical_results(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    data = wikicontradict_file(tmp_path / "wc.jsonl")
    inputs = tmp_path / "inputs.jsonl"
    from factgraph.datasets.wikicontradict import load_items

    inputs.write_text("".join(it.input.model_dump_json() + "\n" for it in load_items(data)),
                      encoding="utf-8")
    cache = tmp_path / "calls.sqlite"
    with serve(PromptRouter({"e2e": e2e_by_marker})) as (url, served):
        for run in ("cold", "warm1", "warm2"):
            res = invoke("batch", str(inputs), "-o", str(tmp_path / f"{run}.jsonl"), "--judge",
                         "e2e-list", "--model", f"openai:m@{url}", "--cache", str(cache))
            assert res.exit_code == 0, res.output
            if run == "cold":
                asked = served.requests
        assert served.requests == asked  # the later runs were answered from the cache
    warm = [(tmp_path / f"warm{n}.jsonl").read_bytes() for n in (1, 2)]
    assert warm[0] == warm[1]
    # The run that filled the cache differs only in each trace's "cached" flag.
    cold = (tmp_path / "cold.jsonl").read_bytes()
    assert cold.count(b'"cached":false') == asked and warm[0].count(b'"cached":true') == 10
    assert cold.replace(b'"cached":false', b'"cached":true') == warm[0]


def test_a_cap_that_is_hit_is_recorded(tmp_path: Path, voss_files: dict[str, Path]) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    from tests.test_comprehensiveness import nli_router

    with serve(nli_router(nli=lambda u: "unknown")) as (url, _):
        res = invoke("evaluate", "--method", "nli", "--model", f"openai:m@{url}",
                     "--no-cache", "--query", QUERY,
                     "--response", str(voss_files["response"]), "--context",
                     str(voss_files["d1"]), "--max-pairs", "3", "--output", "json")
    assert res.exit_code == 0, res.output
    row = json.loads(res.output)
    assert any("max_pairs=3" in hit for hit in row["limits_hit"])
