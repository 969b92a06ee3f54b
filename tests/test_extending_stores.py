"""A store is added in one place (issue 29): a toy store registered by this test, and nothing
else changed, is opened by ``open_store``, offered by ``--store``, pushed to and queried by
``factgraph db``, named in its messages and labelled by the explorer."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from factgraph.cli.main import cli
from factgraph.store.connect import StoreConfigError, open_store, server_address
from factgraph.store.registry import (
    StoreSpec,
    get_store,
    register_store,
    store_names,
    unregister_store,
)

REPO = Path(__file__).resolve().parent.parent


class ToyClientDown(Exception):
    """What the toy store's "client" raises when its "server" is down."""


ToyClientDown.__module__ = "toyclient.errors"


class MemoryStore:
    """Rows kept in a list: every write is recorded, a read answers the canned rows."""

    backend = "memory"

    def __init__(self, address: str, rows: list[dict[str, Any]], down: bool = False) -> None:
        self.address = address
        self.rows = rows
        self.down = down
        self.writes: list[tuple[str, dict[str, Any]]] = []
        self.closed = False

    def run(self, cypher: str, params: Mapping[str, Any] | None = None,
            write: bool = False) -> list[dict[str, Any]]:
        if self.down:
            raise ToyClientDown("connection refused")
        if write:
            self.writes.append((cypher, dict(params or {})))
            return []
        return [{"cypher": cypher, **dict(params or {}), **r} for r in self.rows]

    def prepare_write(self, cypher: str, params: Mapping[str, Any] | None = None
                      ) -> Callable[[], object]:
        return lambda: self.run(cypher, params, write=True)

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def memory_store(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[MemoryStore]]:
    """Register the toy store for one test; the stores it opened, for the test to look at."""
    opened: list[MemoryStore] = []

    def open_memory(uri: str | None, graph: str, database: str | None) -> MemoryStore:
        store = MemoryStore(uri or "memory", [{"graph": graph}], down=uri == "down")
        opened.append(store)
        return store

    monkeypatch.delenv("FACTGRAPH_STORE", raising=False)
    register_store(StoreSpec(
        name="memory", title="MemoryDB", description="rows in a list (a test's toy store)",
        open=open_memory, address_env="MEMORY_URL", default_port=1234,
        connection_errors={("toyclient", "ToyClientDown"): "is unreachable"},
        unreachable_help="start the toy server", graph_option=True,
        schema=lambda: "CREATE INDEX toy_a; // a comment\nCREATE INDEX toy_b"))
    try:
        yield opened
    finally:
        unregister_store("memory")


def test_a_registered_store_is_opened_by_connect(memory_store: list[MemoryStore],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    store = open_store("memory", uri="here:1", graph="g")
    assert isinstance(store, MemoryStore) and store.address == "here:1"
    assert store.run("RETURN 1") == [{"cypher": "RETURN 1", "graph": "g"}]
    monkeypatch.setenv("MEMORY_URL", "toy://10.0.0.1")
    assert server_address("memory") == "10.0.0.1:1234"  # the spec's default port
    assert "memory" in store_names() and get_store("memory").label("g") == "memory graph g"
    unregister_store("memory")
    with pytest.raises(StoreConfigError, match="unknown store 'memory'"):
        open_store("memory")


def test_a_registered_store_is_a_choice_of_the_cli(memory_store: list[MemoryStore]) -> None:
    for command in (["db", "push", "--help"], ["db", "cypher", "--help"], ["explore", "--help"]):
        help_text = " ".join(CliRunner().invoke(cli, command).output.split())
        assert "[falkordb|neo4j|memory]" in help_text, command
        assert "[default: falkordb, or $FACTGRAPH_STORE]" in help_text
    res = CliRunner().invoke(cli, ["db", "cypher", "RETURN 1", "--store", "memory",
                                   "--graph", "g", "--format", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout) == [{"cypher": "RETURN 1", "graph": "g"}]
    assert memory_store[-1].closed


def test_db_stores_lists_a_registered_store(memory_store: list[MemoryStore]) -> None:
    register_store(StoreSpec(name="absent", title="Absent", description="needs a client",
                             open=get_store("memory").open, extra="absent",
                             client_modules=("factgraph_no_such_client",)))
    try:
        res = CliRunner().invoke(cli, ["db", "stores", "--format", "json"])
    finally:
        unregister_store("absent")
    assert res.exit_code == 0, res.output
    rows = {r["name"]: r for r in json.loads(res.stdout)}
    assert list(rows)[:2] == ["falkordb", "neo4j"]
    assert rows["memory"] == {"name": "memory", "description": "rows in a list (a test's toy "
                              "store)", "address": "MEMORY_URL", "extra": None,
                              "installed": True}
    assert rows["absent"]["installed"] is False and rows["absent"]["extra"] == "absent"


def test_the_default_store_comes_from_the_environment(memory_store: list[MemoryStore],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FACTGRAPH_STORE", "memory")
    res = CliRunner().invoke(cli, ["db", "cypher", "RETURN 2", "--format", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)[0]["cypher"] == "RETURN 2"


def test_push_writes_the_stores_own_schema_and_rows(memory_store: list[MemoryStore]) -> None:
    res = CliRunner().invoke(cli, ["db", "push", str(REPO / "examples" / "heber_results.jsonl"),
                                   "--store", "memory", "--format", "json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    writes = memory_store[-1].writes
    assert [c for c, _ in writes[:2]] == ["CREATE INDEX toy_a", "CREATE INDEX toy_b"]
    assert summary["evaluations"] > 0 and summary["batches"] == len(writes) - 2


def test_an_unreachable_registered_store_reads_like_the_built_in_ones(
        memory_store: list[MemoryStore], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FACTGRAPH_DEBUG", raising=False)
    res = CliRunner().invoke(cli, ["db", "cypher", "RETURN 1", "--store", "memory",
                                   "--uri", "down"])
    assert res.exit_code == 1, res.output
    assert res.stderr.strip() == ("Error: MemoryDB at down is unreachable (connection refused); "
                                  "start the toy server")


def test_a_missing_client_names_the_stores_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    register_store(StoreSpec(name="absent", title="Absent", description="needs a client",
                             open=lambda uri, graph, database: None,  # type: ignore[arg-type,return-value]
                             extra="absent", client_modules=("factgraph_no_such_client",)))
    try:
        res = CliRunner().invoke(cli, ["db", "cypher", "RETURN 1", "--store", "absent"])
    finally:
        unregister_store("absent")
    assert res.exit_code == 2
    assert res.stderr.strip() == ("Error: the absent store needs its extra: "
                                  "pip install 'factgraph[absent]'")


def test_a_second_store_of_the_same_name_is_refused(memory_store: list[MemoryStore]) -> None:
    spec = get_store("memory")
    with pytest.raises(ValueError, match="already registered"):
        register_store(StoreSpec(name="memory", title="X", description="x", open=spec.open))



ENTRY_POINT_SPEC = StoreSpec(name="plugged", title="Plugged", description="from an entry point",
                             open=lambda uri, graph, database: MemoryStore("plugged", []))


def test_a_store_from_an_entry_point_is_loaded_on_first_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata

    from factgraph.store import registry

    calls: list[str] = []

    def entry_points(group: str) -> list[importlib.metadata.EntryPoint]:
        calls.append(group)
        return [importlib.metadata.EntryPoint(
                    "plugged", "tests.test_extending_stores:ENTRY_POINT_SPEC", group),
                importlib.metadata.EntryPoint("broken", "factgraph_no_such_module:SPEC", group)]

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    monkeypatch.setattr(registry._STORES, "_entry_points_read", False)
    try:
        assert calls == []  # nothing is read before the registry is
        assert open_store("plugged").address == "plugged"  # a broken plug-in is only a warning
        assert "plugged" in store_names() and calls == ["factgraph.stores"]
    finally:
        unregister_store("plugged")


def test_push_prints_one_line_of_text_by_default(memory_store: list[MemoryStore]) -> None:
    results = REPO / "examples" / "heber_results.jsonl"
    res = CliRunner().invoke(cli, ["db", "push", str(results), "--store", "memory"])
    assert res.exit_code == 0, res.output
    n = len(results.read_text(encoding="utf-8").splitlines())
    assert res.stdout.startswith(f"{n} evaluation(s) of {results} written to memory (")
    assert len(res.stdout.splitlines()) == 1 and "{" not in res.stdout
