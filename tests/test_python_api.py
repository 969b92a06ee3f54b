"""The Python API against the CLI: ``factgraph.evaluate`` / ``evaluate_many`` / the typed
configuration / ``load_results`` / ``to_frame``.

The model is scripted per packaged prompt (orchestration and parsing only): in-process through
a scripted backend, and over HTTP through the local OpenAI-compatible fake server that the CLI
tests use, so the Python call and ``factgraph evaluate`` talk to the same replies.
"""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import factgraph
from factgraph.backends.base import ChatMessage, GenerationParams
from factgraph.backends.scripted import ScriptedTextBackend, ScriptOutput
from factgraph.cli.main import cli
from factgraph.config import ConfigError, EvaluationConfig, UnknownOptionError
from factgraph.errors import InputError
from factgraph.graph import analyze
from factgraph.io import read_jsonl
from factgraph.models import Evaluation
from tests.fake_openai import serve
from tests.pipeline_support import DOC1, DOC2, QUERY, RESPONSE, PromptRouter, field, invoke
from tests.test_cli_pipelines import e2e_by_marker
from tests.test_comprehensiveness import ATOMS, nli_router, nli_rule

NLI_WORDS = {"entails": "yes", "contradicts": "no", "neutral": "unknown"}
DOCS = [{"id": "d1", "text": DOC1}, {"id": "d2", "text": DOC2}]


def judge(user: str) -> str:
    return NLI_WORDS[nli_rule(field(user, "PREMISE"), field(user, "HYPOTHESIS"))]


def atomize(user: str) -> str:
    text = field(user, "TEXT")
    return json.dumps({"statements": ATOMS.get(text) or [text]})


def router() -> PromptRouter:
    """Atomize / revise / relevance / NLI replies of the hand-made Mara Voss case (a text the
    case does not know is one atom)."""
    return nli_router(nli=judge, atomize=atomize)


class ScriptedAsServer(ScriptedTextBackend):
    """The scripted backend under the engine and model name the CLI's ``openai:m@URL`` spec
    gives, so call keys, trace ids and the cache see the same calls."""

    engine = "openai"

    def __init__(self, script: Any) -> None:
        super().__init__(script, model="m")


def normalised(ev: Evaluation) -> dict[str, Any]:
    """The Evaluation without what differs between two runs of the same calls: each trace's
    latency and the token usage (the fake server reports it, the scripted backend does not)."""
    data = ev.model_dump(mode="json")
    for trace in data["traces"]:
        trace["latency_s"] = None
        trace["usage"] = {}
    return data


def cli_evaluation(url: str, files: dict[str, Path], out: Path, *flags: str) -> Evaluation:
    res = invoke("evaluate", "--method", "nli", "--model", f"openai:m@{url}", "--no-cache",
                 "--query", QUERY, "--response", str(files["response"]), "--context",
                 str(files["d1"]), "--context", str(files["d2"]), "-o", str(out), *flags)
    assert res.exit_code == 0, res.output
    return Evaluation.model_validate_json(out.read_text(encoding="utf-8"))


# -- evaluate() == factgraph evaluate ----------------------------------------------------------
def test_evaluate_with_a_scripted_backend_equals_the_cli(tmp_path: Path,
                                                         voss_files: dict[str, Path]) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    flags = ("--skip-implied", "--t-rel", "3.0", "--max-pairs", "200", "--seed", "7")
    with serve(router()) as (url, served):
        from_cli = cli_evaluation(url, voss_files, tmp_path / "cli.json", *flags)
    backend = ScriptedAsServer(router())
    from_python = factgraph.evaluate(QUERY, RESPONSE, DOCS, method="nli", model=backend,
                                     cache=False, skip_implied=True, t_rel=3.0, max_pairs=200,
                                     seed=7)
    assert backend.calls == served.requests > 0
    assert normalised(from_python) == normalised(from_cli)
    # Not a vacuous equality: the known graph of the case was built and scored.
    assert from_python.scores["comprehensiveness"] == pytest.approx(3 / 4)
    assert from_python.parameters["skip_implied"] is True
    assert from_python.traces[0].parameters["seed"] == 7


def test_evaluate_over_http_equals_the_cli(tmp_path: Path,
                                           voss_files: dict[str, Path]) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    with serve(router()) as (url, served):
        from_cli = cli_evaluation(url, voss_files, tmp_path / "cli.json")
        asked_by_cli = served.requests
        from_python = factgraph.evaluate(QUERY, RESPONSE, DOCS, method="nli",
                                         model=f"openai:m@{url}", cache=False)
        assert served.requests == 2 * asked_by_cli
    assert normalised(from_python) == normalised(from_cli)
    assert from_python.model_dump(exclude={"traces"}) == from_cli.model_dump(exclude={"traces"})


def test_documents_may_be_strings_and_the_cache_answers_a_rerun(tmp_path: Path) -> None:
    backend = ScriptedAsServer(router())
    cache = str(tmp_path / "calls.sqlite")
    first = factgraph.evaluate(QUERY, RESPONSE, [DOC1, DOC2], model=backend, cache=cache)
    calls = backend.calls
    again = factgraph.evaluate(QUERY, RESPONSE, [DOC1, DOC2], model=backend, cache=cache)
    assert backend.calls == calls  # every call came from the cache
    assert {s.source_id for s in first.graph.statements if s.origin.value == "context"} == \
        {"doc1", "doc2"}
    assert again.scores == first.scores and all(t.cached for t in again.traces)


# -- one configuration, validated the same way -------------------------------------------------
def test_unknown_and_bad_options_are_errors_like_the_cli(voss_files: dict[str, Path]) -> None:
    backend = ScriptedAsServer(router())
    with pytest.raises(UnknownOptionError, match="'prune_topk' does not apply to method nli"):
        factgraph.evaluate(QUERY, RESPONSE, DOCS, model=backend, prune_topk=3)
    with pytest.raises(UnknownOptionError, match="does not apply to method icat-m"):
        factgraph.evaluate(QUERY, RESPONSE, DOCS, method="icat-m", model=backend,
                           prune_top_k=3)
    with pytest.raises(ConfigError, match="t_rel"):
        factgraph.evaluate(QUERY, RESPONSE, DOCS, model=backend, t_rel="high")
    with pytest.raises(ConfigError, match="max_pairs"):
        factgraph.evaluate(QUERY, RESPONSE, DOCS, model=backend, max_pairs=0)
    with pytest.raises(ConfigError, match="method"):
        factgraph.evaluate(QUERY, RESPONSE, DOCS, method="nil", model=backend)
    with pytest.raises(ConfigError, match="duplicate document ids"):
        factgraph.evaluate(QUERY, RESPONSE, [DOCS[0], DOCS[0]], model=backend)
    assert backend.calls == 0  # nothing ran
    res = CliRunner().invoke(cli, ["evaluate", "--method", "nli", "--query", QUERY,
                                   "--response", str(voss_files["response"]),
                                   "--set", "prune_topk=3"])
    assert res.exit_code == 2
    assert "unknown option prune_topk of --method nli: did you mean prune_top_k?" in res.output


def test_config_file_flags_and_python_build_the_same_config(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    from factgraph.cli.evaluate import build_config

    path = tmp_path / "run.toml"
    path.write_text('method = "nli"\nmodel = "openai:m"\nbase_url = "http://127.0.0.1:9/v1"\n'
                    "t_rel = 2.0\nseed = 3\n[limits]\nmax_pairs = 7\n[options]\n"
                    "skip_implied = true\n", encoding="utf-8")
    kw: dict[str, Any] = {"config": str(path), "method": None, "t_rel": 3.0, "no_cache": True,
                          "max_tokens": 99, "set_values": ("skip_inert=true",)}
    from_cli = build_config(kw)
    from_file = EvaluationConfig.from_file(path, t_rel=3.0, cache=False, max_tokens=99,
                                           skip_inert=True)
    from_python = EvaluationConfig(
        method="nli", model="openai:m", base_url="http://127.0.0.1:9/v1", cache=False,
        generation={"seed": 3, "max_tokens": 99}, limits={"max_pairs": 7},
        options={"t_rel": 3.0, "skip_implied": True, "skip_inert": True})
    assert from_cli == from_file == from_python
    assert from_cli.text_model_spec() == "openai:m@http://127.0.0.1:9/v1"
    ev = from_cli.evaluator()
    assert (ev.method, ev.params.seed, ev.params.max_tokens, ev.limits.max_pairs) == \
        ("nli", 3, 99, 7)
    assert ev.parsed_options.t_rel == 3.0 and ev.parsed_options.skip_inert is True
    assert from_python.merged(t_rel=4.0, max_pairs=9).limits.max_pairs == 9
    bad = tmp_path / "bad.json"
    bad.write_text('{"method": "nli",\n "t_rel": }', encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.json:2: invalid config"):
        EvaluationConfig.from_file(bad)


def test_an_evaluator_is_reused_and_refuses_extra_settings() -> None:
    backend = ScriptedAsServer(router())
    ev = factgraph.evaluator("nli", model=backend, cache=False)
    first = factgraph.evaluate(QUERY, RESPONSE, DOCS, evaluator=ev)
    calls = backend.calls
    second = factgraph.evaluate(QUERY, "Mara Voss was born in Bergen.", DOCS, evaluator=ev,
                                input_id="other")
    assert ev.context_store.hits >= 1  # the documents' atoms were not asked for again
    assert backend.calls - calls < calls
    assert first.id == "input" and second.id == "other"
    with pytest.raises(ConfigError, match="either evaluator="):
        factgraph.evaluate(QUERY, RESPONSE, DOCS, evaluator=ev, t_rel=2.0)


# -- evaluate_many() == factgraph batch ------------------------------------------------------
def marker_inputs(markers: Sequence[str]) -> list[dict[str, Any]]:
    docs = [{"id": "d1", "text": "first text"}, {"id": "d2", "text": "second text"}]
    return [{"id": f"q{i}", "query": "q?", "response": f"answer {m}", "documents": docs}
            for i, m in enumerate(markers)]


def test_evaluate_many_resumes_and_equals_the_batch_command(tmp_path: Path) -> None:
    pytest.importorskip("httpx", reason="httpx is not installed (extra: openai)")
    inputs = marker_inputs(["BOTH", "ONE", "NONE"])
    inputs_path = tmp_path / "inputs.jsonl"
    inputs_path.write_text("".join(json.dumps(x) + "\n" for x in inputs), encoding="utf-8")
    results = tmp_path / "results.jsonl"
    with serve(PromptRouter({"e2e": e2e_by_marker})) as (url, served):
        model = f"openai:m@{url}"
        run = factgraph.evaluate_many(inputs, judge="e2e-list", model=model, cache=False,
                                      results=results, progress=True)
        assert isinstance(run, types.GeneratorType)
        first = next(run)
        run.close()  # interrupted after one input
        assert served.requests == 1
        assert len(results.read_text(encoding="utf-8").splitlines()) == 1
        with pytest.raises(FileExistsError, match="resume=True"):
            factgraph.evaluate_many(inputs, judge="e2e-list", model=model, results=results)
        resumed = list(factgraph.evaluate_many(str(inputs_path), judge="e2e-list", model=model,
                                               cache=False, results=results, resume=True))
        assert served.requests == 3  # the finished input was read back, not asked again
        res = invoke("batch", str(inputs_path), "-o", str(tmp_path / "cli.jsonl"), "--judge",
                     "e2e-list", "--model", model, "--no-cache")
        assert res.exit_code == 0, res.output
    assert [e.id for e in resumed] == ["q0", "q1", "q2"]
    assert normalised(resumed[0]) == normalised(first)
    from_cli = [ev for _, ev in read_jsonl(tmp_path / "cli.jsonl", Evaluation)]
    assert [normalised(e) for e in resumed] == [normalised(e) for e in from_cli]
    assert [e.scores["comprehensiveness"] for e in resumed] == [1.0, 0.5, 0.0]
    assert [normalised(e) for e in factgraph.load_results(results)] == \
        [normalised(e) for e in resumed]


def test_evaluate_many_records_a_failing_input_with_results_and_raises_without() -> None:
    def script(messages: Sequence[ChatMessage], params: GenerationParams) -> ScriptOutput:
        if "answer BAD" in messages[-1].content:
            raise RuntimeError("the engine fell over")
        return PromptRouter({"e2e": e2e_by_marker})(messages, params)

    inputs = marker_inputs(["BOTH", "BAD", "NONE"])
    with pytest.raises(RuntimeError, match="fell over"):
        list(factgraph.evaluate_many(inputs, judge="e2e-list",
                                     model=ScriptedAsServer(script), cache=False))


def test_evaluate_many_failures_file_and_duplicate_ids(tmp_path: Path) -> None:
    def script(messages: Sequence[ChatMessage], params: GenerationParams) -> ScriptOutput:
        if "answer BAD" in messages[-1].content:
            raise RuntimeError("the engine fell over")
        return PromptRouter({"e2e": e2e_by_marker})(messages, params)

    results = tmp_path / "r.jsonl"
    got = list(factgraph.evaluate_many(marker_inputs(["BOTH", "BAD", "NONE"]), judge="e2e-list",
                                       model=ScriptedAsServer(script), cache=False,
                                       results=results))
    assert [e.id for e in got] == ["q0", "q2"]
    failure = json.loads((tmp_path / "r.jsonl.failures.jsonl").read_text(encoding="utf-8"))
    assert failure["id"] == "q1" and "fell over" in failure["error"]
    twice = marker_inputs(["BOTH"]) * 2
    with pytest.raises(ConfigError, match="duplicate input id 'q0'"):
        list(factgraph.evaluate_many(twice, judge="e2e-list", model=ScriptedAsServer(script),
                                     cache=False))


def test_load_results_streams_and_names_a_bad_line(tmp_path: Path) -> None:
    from examples.heber_results import heber_evaluations

    evs = heber_evaluations()
    path = tmp_path / "results.jsonl"
    path.write_text("".join(e.model_dump_json() + "\n" for e in evs), encoding="utf-8")
    loaded = factgraph.load_results(path)
    assert isinstance(loaded, types.GeneratorType)
    assert list(loaded) == evs
    single = tmp_path / "one.json"
    single.write_text(evs[0].model_dump_json(), encoding="utf-8")
    assert list(factgraph.load_results(single)) == [evs[0]]
    with path.open("a", encoding="utf-8") as f:
        f.write('{"id": "broken"}\n')
    with pytest.raises(InputError, match=rf"results\.jsonl:{len(evs) + 1}: method"):
        list(factgraph.load_results(path))


# -- to_frame ---------------------------------------------------------------------------------
def test_to_frame_round_trips_counts_and_scores() -> None:
    from examples.heber_results import heber_evaluations

    pytest.importorskip("pandas")
    backend = ScriptedAsServer(router())
    evs = [*heber_evaluations(),
           factgraph.evaluate(QUERY, RESPONSE, DOCS, model=backend, cache=False)]
    per_eval = factgraph.to_frame(evs)
    assert list(per_eval["id"]) == [e.id for e in evs]
    assert list(per_eval["comprehensiveness"]) == [e.scores["comprehensiveness"] for e in evs]
    assert list(per_eval["statements"]) == [len(e.graph.statements) for e in evs]
    assert per_eval["judge_models"].iloc[-1] == "openai:m"
    stmts = factgraph.to_frame(evs, level="statement")
    assert len(stmts) == sum(len(e.graph.statements) for e in evs)
    rels = factgraph.to_frame(evs, level="relation")
    assert len(rels) == sum(len(e.graph.relations) for e in evs)
    for ev in evs:
        rows = stmts[stmts["evaluation_id"] == ev.id]
        assert list(rows["statement_id"]) == [s.id for s in ev.graph.statements]
        # S recomputed from the statement rows: covered / all context components.
        context = rows[rows["origin"] == "context"]
        covered = context[context["status"] == "covered"]["component"].nunique()
        assert covered / context["component"].nunique() == \
            pytest.approx(ev.scores["comprehensiveness"])
        basis = set(context[context["basis"]]["component"])
        assert len(basis) == analyze(ev.graph).n_basis
        assert len(rels[rels["evaluation_id"] == ev.id]) == len(ev.graph.relations)
    empty = factgraph.to_frame([], level="statement")
    assert len(empty) == 0 and "status" in empty.columns
    with pytest.raises(ValueError, match="level must be one of"):
        factgraph.to_frame(evs, level="graph")  # type: ignore[arg-type]


def test_to_frame_without_pandas_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from factgraph.export.frames import MissingExtraError

    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(MissingExtraError, match=r"pip install 'factgraph\[pandas\]'"):
        factgraph.to_frame([])
