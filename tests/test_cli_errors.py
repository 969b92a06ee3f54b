"""The CLI's error contract: a user error (the ``UserInputError`` family) is one line and exit
2; any other exception is a bug and keeps its traceback."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from factgraph.cli import main
from factgraph.config import ConfigError
from factgraph.errors import InputError, UnknownNameError, UserInputError

RAISED: dict[str, BaseException] = {}


@click.command("boom")
def boom_cmd() -> None:
    raise RAISED["error"]


def run_boom(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> click.testing.Result:
    monkeypatch.setitem(main.COMMANDS, "boom", (__name__, "boom_cmd"))
    monkeypatch.setitem(RAISED, "error", error)
    monkeypatch.delenv("FACTGRAPH_DEBUG", raising=False)
    return CliRunner().invoke(main.cli, ["boom"])


@pytest.mark.parametrize("error", [
    UserInputError("no such thing\nsecond line"),
    ConfigError("no such thing\nsecond line"),
    UnknownNameError("no such thing\nsecond line"),
])
def test_a_user_error_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch,
                                             error: UserInputError) -> None:
    res = run_boom(monkeypatch, error)
    assert res.exit_code == 2
    assert res.output == "Error: no such thing\n"


def test_an_input_error_keeps_its_whole_message(monkeypatch: pytest.MonkeyPatch) -> None:
    res = run_boom(monkeypatch, InputError("in.jsonl", "bad line", line=3))
    assert res.exit_code == 2
    assert res.output == "Error: in.jsonl:3: bad line\n"


@pytest.mark.parametrize("error", [ValueError("a bug"), KeyError("a bug"), TypeError("a bug")])
def test_any_other_exception_is_a_bug_and_surfaces(monkeypatch: pytest.MonkeyPatch,
                                                   error: Exception) -> None:
    res = run_boom(monkeypatch, error)
    assert res.exit_code == 1
    assert res.exception is error  # not turned into a one-line message
    assert "Error:" not in res.output


def test_factgraph_debug_shows_a_user_errors_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    error = ConfigError("bad option")
    monkeypatch.setitem(main.COMMANDS, "boom", (__name__, "boom_cmd"))
    monkeypatch.setitem(RAISED, "error", error)
    monkeypatch.setenv("FACTGRAPH_DEBUG", "1")
    res = CliRunner().invoke(main.cli, ["boom"])
    assert res.exception is error and res.exit_code == 1


def test_the_family_stays_catchable_as_before() -> None:
    from factgraph.backends.factory import BackendSpecError
    from factgraph.store.base import ReadOnlyViolation
    from factgraph.store.connect import StoreConfigError

    for cls in (InputError, ConfigError, UnknownNameError, BackendSpecError, ReadOnlyViolation,
                StoreConfigError):
        assert issubclass(cls, UserInputError)
    # callers that caught ValueError (or KeyError, for names) keep catching them
    assert issubclass(UserInputError, ValueError)
    assert issubclass(UnknownNameError, KeyError)
    assert str(UnknownNameError("unknown statement id 'x'")) == "unknown statement id 'x'"


def test_an_unknown_statement_id_is_a_user_error(example_graph_path: Path) -> None:
    res = CliRunner().invoke(main.cli, ["explain", str(example_graph_path), "no-such-id"])
    assert res.exit_code == 2
    assert res.output == "Error: unknown statement id 'no-such-id'\n"
