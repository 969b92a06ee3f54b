"""Where the torch engines run: the choice (pure), its log line and error, and — on a machine
with a GPU (``-m gpu``) — the transformers engine really on it, agreeing with the CPU."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from factgraph.backends.torch_device import (
    DEVICE_ENV,
    TorchDevices,
    choose_device,
    device_for_this_machine,
)
from factgraph.errors import UserInputError

H200 = TorchDevices(cuda=("NVIDIA H200",))
TWO = TorchDevices(cuda=("NVIDIA H100", "NVIDIA H100"))
MAC = TorchDevices(mps=True)
NONE = TorchDevices()


@pytest.mark.parametrize(("requested", "devices", "device", "reason"), [
    (None, H200, "cuda", "auto: GPU NVIDIA H200"),
    ("auto", TWO, "cuda", "auto: GPU NVIDIA H100 (of 2)"),
    ("AUTO", MAC, "mps", "auto: Apple GPU (MPS)"),
    ("auto", NONE, "cpu", "auto: torch sees no GPU"),
    ("cpu", H200, "cpu", "as asked"),  # a GPU does not override a named CPU
    ("cuda:1", TWO, "cuda:1", "as asked: GPU NVIDIA H100"),
    (" mps ", MAC, "mps", "as asked: Apple GPU (MPS)"),
])
def test_choose_device(requested: str | None, devices: TorchDevices, device: str,
                       reason: str) -> None:
    choice = choose_device(requested, devices)
    assert (choice.device, choice.reason) == (device, reason)


@pytest.mark.parametrize(("requested", "devices", "message"), [
    ("cuda", NONE, "torch sees no CUDA GPU here"),
    ("cuda:2", TWO, "torch sees 2 CUDA GPU"),
    ("cuda:x", TWO, "numbered from 0"),
    ("mps", H200, "no MPS device"),
    ("tpu", H200, "unknown device 'tpu'"),
    ("cpu:0", NONE, "unknown device"),
])
def test_a_device_this_machine_lacks_is_a_one_line_error(
        requested: str, devices: TorchDevices, message: str) -> None:
    with pytest.raises(UserInputError, match=message):
        choose_device(requested, devices)


def test_the_choice_reads_the_environment_and_logs_one_line(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed")
    caplog.set_level(logging.INFO, logger="factgraph.backends.torch_device")
    monkeypatch.setenv(DEVICE_ENV, "cpu")
    assert device_for_this_machine(None, "transformers") == "cpu"
    assert "transformers runs on cpu (as asked)" in caplog.text
    # a device given in Python wins over the environment
    monkeypatch.setenv(DEVICE_ENV, "no-such-device")
    assert device_for_this_machine("cpu", "cross-encoder") == "cpu"
    with pytest.raises(UserInputError, match="unknown device 'no-such-device'"):
        device_for_this_machine(None, "transformers")
    monkeypatch.delenv(DEVICE_ENV)
    caplog.clear()
    device = device_for_this_machine(None, "sentence-transformers")
    assert device == "cuda" if torch.cuda.is_available() else device in ("cpu", "mps")
    assert f"sentence-transformers runs on {device} (auto: " in caplog.text


@pytest.mark.gpu
def test_transformers_engine_runs_on_the_gpu_and_agrees_with_the_cpu(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed")
    pytest.importorskip("transformers", reason="transformers is not installed")
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA GPU")
    from factgraph.backends import ChatMessage, GenerationParams
    from factgraph.backends.transformers_engine import (
        CrossEncoderNLIBackend,
        TransformersTextBackend,
    )
    from tests.backends_support import build_tiny_causal_lm, build_tiny_nli

    folder = build_tiny_causal_lm(tmp_path / "lm")
    chats = [[ChatMessage(role="user", content="is the bridge long")],
             [ChatMessage(role="user", content="the museum is old and the bridge is new")]]
    params = GenerationParams(max_tokens=8, top_logprobs=3)
    gpu = TransformersTextBackend(str(folder))  # auto
    assert next(gpu.lm.parameters()).device.type == "cuda" and gpu.device == "cuda"
    cpu = TransformersTextBackend(str(folder), device="cpu")
    assert next(cpu.lm.parameters()).device.type == "cpu"
    on_gpu, on_cpu = gpu.generate(chats, params), cpu.generate(chats, params)
    assert [g.text for g in on_gpu] == [g.text for g in on_cpu]
    for a, b in zip(on_gpu, on_cpu, strict=True):
        assert a.logprobs is not None and b.logprobs is not None
        assert [s.logprob for s in a.logprobs] == pytest.approx(
            [s.logprob for s in b.logprobs], abs=1e-3)
    nli = build_tiny_nli(tmp_path / "nli", favour="CONTRADICTION")
    judge = CrossEncoderNLIBackend(str(nli))
    assert judge.device == "cuda"
    assert judge.judge([("the museum is old", "the museum is new")])[0].label == "contradicts"


def test_the_cli_says_where_the_engine_runs_without_verbose(tmp_path: Path) -> None:
    """The device is an automatic choice: its line shows on stderr without -v, and nothing of
    the libraries' own load reports does."""
    pytest.importorskip("transformers", reason="transformers is not installed")
    import os
    import subprocess
    import sys

    from tests.backends_support import build_tiny_causal_lm

    model = build_tiny_causal_lm(tmp_path / "lm")
    (tmp_path / "r.txt").write_text("The reactor had a positive void coefficient.",
                                    encoding="utf-8")
    (tmp_path / "c.txt").write_text("The reactor had a positive void coefficient.",
                                    encoding="utf-8")
    repo = Path(__file__).resolve().parent.parent
    env = {**os.environ, "FACTGRAPH_DEVICE": "cpu",
           "PYTHONPATH": str(repo) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    out = subprocess.run(
        [sys.executable, "-m", "factgraph", "evaluate", "--query", "Why?", "--response",
         str(tmp_path / "r.txt"), "--context", str(tmp_path / "c.txt"), "--method", "nli",
         "--model", f"transformers:{model}", "--no-cache"],
        cwd=tmp_path, env=env, text=True, capture_output=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stderr.splitlines()
    assert lines[0] == "INFO factgraph.backends.torch_device: transformers runs on cpu (as asked)"
    # the rest are factgraph's own (the random-weight model's replies do not parse), no load
    # report or progress bar of the libraries
    assert all(line.startswith(("INFO factgraph.", "WARNING factgraph.")) for line in lines), lines
