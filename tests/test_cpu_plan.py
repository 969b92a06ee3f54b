"""The explicit decision of how vLLM runs on a CPU (AMX or not), checked without such a CPU."""

from __future__ import annotations

import itertools
import logging
from pathlib import Path

import pytest

from factgraph.backends.cpu_plan import (
    AMX_PRONE_DTYPES,
    VllmCpuPlan,
    apply_in_process,
    detect_cpu_features,
    parse_cpu_flags,
    plan_for_this_machine,
    plan_vllm_cpu,
)
from factgraph.backends.vllm_server import requested_dtype, server_command, with_dtype

SAPPHIRE_RAPIDS = """processor\t: 0
vendor_id\t: GenuineIntel
model name\t: Intel(R) Xeon(R) Platinum 8480+
flags\t\t: fpu sse2 avx avx2 avx512f avx512bw avx512_bf16 amx_bf16 amx_tile amx_int8
"""
EPYC = """processor\t: 0
vendor_id\t: AuthenticAMD
flags\t\t: fpu sse2 avx avx2 fma
"""


def selects_amx_kernel(dtype: str | None, amx: bool) -> bool:
    """vLLM's rule (cpu_attn._get_attn_isa): AMX CPU and bfloat16 ("auto" may resolve to it)."""
    return amx and (dtype.lower() if dtype else None) in AMX_PRONE_DTYPES


@pytest.mark.parametrize(("requested", "amx", "cuda", "in_process", "keep"), list(
    itertools.product([None, "auto", "bfloat16", "BF16", "float32", "half"],
                      [True, False], [True, False], [True, False], [True, False])))
def test_no_plan_lets_an_uninitialised_process_reach_the_amx_kernel(
        requested: str | None, amx: bool, cuda: bool, in_process: bool, keep: bool) -> None:
    plan = plan_vllm_cpu(requested, amx=amx, cuda=cuda, engine_in_process=in_process,
                         keep_dtype=keep)
    effective = plan.dtype or requested
    crash = (not cuda and selects_amx_kernel(effective, amx)
             and not (plan.init_amx and in_process))
    assert not crash or keep  # only the explicit escape hatch may keep a risky dtype
    if cuda or not amx:
        assert plan == VllmCpuPlan(None, False, plan.reason)  # nothing changes there
    assert not (plan.init_amx and not in_process)  # never pretend to initialise another process
    assert plan.reason


def test_the_plans_say_what_they_do() -> None:
    out = plan_vllm_cpu("bfloat16", amx=True, cuda=False, engine_in_process=False)
    assert out.dtype == "float32" and "separate process" in out.reason
    inside = plan_vllm_cpu(None, amx=True, cuda=False, engine_in_process=True)
    assert inside.dtype is None and inside.init_amx
    assert plan_vllm_cpu("float32", amx=True, cuda=False, engine_in_process=False).dtype is None


def test_cpu_flags_are_read_from_cpuinfo(tmp_path: Path) -> None:
    assert {"amx_tile", "avx512f"} <= parse_cpu_flags(SAPPHIRE_RAPIDS)
    assert "amx_tile" not in parse_cpu_flags(EPYC) and parse_cpu_flags("") == frozenset()
    (tmp_path / "cpuinfo").write_text(SAPPHIRE_RAPIDS)
    torch_absent = detect_cpu_features(tmp_path / "cpuinfo")
    assert torch_absent.avx512f and torch_absent.avx2
    missing = detect_cpu_features(tmp_path / "nothing")
    assert not missing.avx512f


def test_this_machine_is_detected_as_torch_sees_it() -> None:
    torch = pytest.importorskip("torch")
    assert detect_cpu_features().amx_tile == bool(torch.cpu._is_amx_tile_supported())


def test_the_plan_is_logged_in_one_line(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="factgraph.backends.cpu_plan"):
        plan = plan_for_this_machine("bfloat16", engine_in_process=False)
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1 and plan.reason in lines[0] and lines[0].startswith("CPU ")


def test_refused_amx_initialisation_falls_back_to_float32(
        monkeypatch: pytest.MonkeyPatch) -> None:
    torch = pytest.importorskip("torch")
    monkeypatch.setattr(torch.cpu, "_init_amx", lambda: False)
    plan = apply_in_process(VllmCpuPlan(None, True, "init here"))
    assert plan.dtype == "float32" and not plan.init_amx
    monkeypatch.setattr(torch.cpu, "_init_amx", lambda: True)
    assert apply_in_process(VllmCpuPlan(None, True, "init here")).dtype is None


def test_server_arguments_get_the_planned_dtype() -> None:
    args = ["--model", "m", "--dtype", "bfloat16", "--port", "1", "--dtype=auto"]
    assert requested_dtype(args) == "auto" and requested_dtype(["--model", "m"]) is None
    f32 = VllmCpuPlan("float32", False, "why")
    assert with_dtype(args, f32) == ["--model", "m", "--port", "1", "--dtype", "float32"]
    assert with_dtype(args, VllmCpuPlan(None, False, "why")) == args
    cmd = server_command(["--model", "m"], f32)
    assert cmd[1:3] == ["-m", "vllm.entrypoints.openai.api_server"] and cmd[-2:] == [
        "--dtype", "float32"]
