"""The engines' usage reporting is turned off before they are imported, unless the user set it
(factgraph.telemetry); the ONNX engine's real effect is in tests/test_onnx_embeddings.py."""

from __future__ import annotations

import logging
import sys
import types

import pytest

from factgraph.telemetry import OPT_OUTS, opt_out, reporting_off

VARIABLES = [k for values in OPT_OUTS.values() for k in values]


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for k in VARIABLES:
        monkeypatch.delenv(k, raising=False)


@pytest.mark.parametrize("library", sorted(OPT_OUTS))
def test_each_library_is_turned_off_where_the_user_said_nothing(library: str) -> None:
    assert not reporting_off(library)
    assert opt_out(library) == dict(OPT_OUTS[library])
    assert reporting_off(library)
    assert opt_out(library) == {}  # a second call sets nothing more


def test_the_users_own_setting_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ORT_DISABLE_TELEMETRY", "0")
    assert opt_out("onnxruntime") == {}
    assert not reporting_off("onnxruntime")
    import os

    assert os.environ["ORT_DISABLE_TELEMETRY"] == "0"


def test_a_library_imported_before_is_said_in_a_log_line(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setitem(sys.modules, "vllm", types.ModuleType("vllm"))
    with caplog.at_level(logging.INFO, logger="factgraph.telemetry"):
        opt_out("vllm")
    assert "vllm was imported before factgraph set VLLM_NO_USAGE_STATS=1" in caplog.text


def test_ray_is_imported_with_its_usage_stats_off(monkeypatch: pytest.MonkeyPatch) -> None:
    from factgraph.runners.distributed import RayUnavailableError, import_ray

    monkeypatch.setitem(sys.modules, "ray", None)  # not installed, as far as import goes
    with pytest.raises(RayUnavailableError):
        import_ray()
    assert reporting_off("ray")  # set before the import was tried


def test_the_vllm_server_wrapper_hands_the_opt_out_to_the_server(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from factgraph.backends import vllm_server

    seen: dict[str, str] = {}

    def execv(path: str, argv: list[str]) -> None:
        import os

        seen.update(os.environ)

    monkeypatch.setattr(vllm_server.os, "execv", execv)
    vllm_server.main(["--model", "/nowhere", "--port", "1"])
    assert seen.get("VLLM_NO_USAGE_STATS") == "1"
