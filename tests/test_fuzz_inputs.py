"""Fuzz the input loaders: whatever the bytes, only the documented InputError escapes."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from factgraph.cli.main import cli
from factgraph.errors import InputError
from factgraph.graph import GraphTable
from factgraph.graph.file import decode_table
from factgraph.graph.results import load_evaluations, load_graph, load_graph_table
from factgraph.inputs import EvaluationInput
from factgraph.io import read_jsonl

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.sampled_from(
        ["id", "text", "origin", "src", "dst", "label", "query", "statements", "relations",
         "response", "documents", "method", "graph", "probability", "kind", "x"]),
        children, max_size=6),
    max_leaves=25,
)

# Near-valid graphs: a valid skeleton with random damage, which reaches deeper validators.
statement = st.fixed_dictionaries({
    "id": st.text(max_size=3), "text": st.text(max_size=10),
    "origin": st.sampled_from(["response", "context", "other", 1]),
})
relation = st.fixed_dictionaries({
    "src": st.text(max_size=3), "dst": st.text(max_size=3),
    "label": st.sampled_from(["entails", "contradicts", "neutral", "covers", "implies"]),
    "probability": st.one_of(st.none(), st.floats(allow_nan=True)),
})
near_graphs = st.fixed_dictionaries({
    "query": st.one_of(st.text(max_size=5), st.integers()),
    "statements": st.lists(statement, max_size=5),
    "relations": st.lists(relation, max_size=5),
})

FUZZ = settings(max_examples=300, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def _write(data: bytes, suffix: str) -> Path:
    with tempfile.NamedTemporaryFile(delete=False, suffix=suffix) as f:
        f.write(data)
    return Path(f.name)


def _same_on_both_paths(path: Path) -> None:
    """The fast reader (load_graph_table) accepts exactly what load_graph accepts, with the
    same arrays, and refuses the rest with the same one-line error."""
    try:
        g = load_graph(path)
    except InputError as e:
        assert "\n" not in str(e)
        assert decode_table(path.read_bytes()) is None  # never vouches for a bad file
        try:
            load_graph_table(path)
        except InputError as fast:
            assert str(fast) == str(e)
        else:
            raise AssertionError(f"fast path accepted what load_graph refuses: {e}")
    else:
        assert all(isinstance(s.id, str) for s in g.statements)
        slow, fast_table = GraphTable.from_graph(g), load_graph_table(path)
        assert [s.id for s in fast_table.statements] == [s.id for s in slow.statements]
        assert fast_table.src.tolist() == slow.src.tolist()
        assert fast_table.dst.tolist() == slow.dst.tolist()
        assert fast_table.is_entails.tolist() == slow.is_entails.tolist()


@FUZZ
@given(st.one_of(json_values, near_graphs))
def test_load_graph_only_raises_input_error(obj: Any) -> None:
    path = _write(json.dumps(obj).encode(), ".json")
    try:
        try:
            load_graph(path)
        except InputError as e:
            assert str(e).startswith(str(path)) and "\n" not in str(e)
        _same_on_both_paths(path)
    finally:
        path.unlink()


@FUZZ
@given(st.one_of(json_values, near_graphs))
def test_fast_path_on_wrapped_graphs(obj: Any) -> None:
    """The same damage inside an Evaluation file (the fast path splits the envelope)."""
    path = _write(json.dumps({"id": "e", "method": "nli", "graph": obj}).encode(), ".json")
    try:
        _same_on_both_paths(path)
    finally:
        path.unlink()


@FUZZ
@given(st.binary(max_size=200))
def test_load_graph_on_random_bytes(data: bytes) -> None:
    path = _write(data, ".json")
    try:
        _same_on_both_paths(path)
    finally:
        path.unlink()


@FUZZ
@given(st.lists(st.one_of(json_values.map(json.dumps), st.text(max_size=30)), max_size=6))
def test_jsonl_loaders_name_the_line(lines: list[str]) -> None:
    text = "\n".join(lines)
    path = _write(text.encode("utf-8", "surrogatepass"), ".jsonl")
    # Generated items may hold line breaks themselves: count the file's physical lines (text
    # mode splits on \n, \r and \r\n; this bound counts every break character).
    n_lines = text.count("\n") + text.count("\r") + 1
    try:
        for loader in (lambda: list(read_jsonl(path, EvaluationInput)),
                       lambda: load_evaluations(path)):
            try:
                loader()
            except InputError as e:
                assert e.line is not None and 1 <= e.line <= n_lines
    finally:
        path.unlink()


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=120))
def test_validate_command_never_tracebacks(data: bytes) -> None:
    path = _write(data, ".jsonl")
    try:
        res = CliRunner().invoke(cli, ["validate", str(path)])
        assert res.exit_code in (0, 2), res.output
        assert res.exception is None or isinstance(res.exception, SystemExit)
    finally:
        path.unlink()
