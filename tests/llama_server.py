"""A real llama.cpp OpenAI-compatible server on a small GGUF, for model-marked tests.

Needs ``llama-cpp-python[server]`` and the GGUFs of ``scripts/assemble-models.sh``; skips the
test with the reason when either is missing.
"""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

SMALL_MODELS = ("qwen2.5-1.5b-instruct-q4_k_m.gguf", "qwen2.5-0.5b-instruct.gguf")


def model_folder() -> Path:
    return Path(os.environ.get("FACTGRAPH_MODELS", "~/.cache/factgraph/models")).expanduser()


def small_gguf() -> Path:
    folder = model_folder()
    for name in SMALL_MODELS:
        if (folder / name).exists():
            return folder / name
    pytest.skip(f"no small Qwen GGUF in {folder} (run scripts/assemble-models.sh)")


@contextmanager
def llama_server(gguf: Path, log_path: Path, alias: str = "small") -> Iterator[str]:
    """Start ``python -m llama_cpp.server`` on a free port; yields the ``openai:`` spec."""
    if importlib.util.find_spec("llama_cpp") is None:
        pytest.skip("llama-cpp-python is not installed (scripts/assemble-models.sh "
                    "--llama-server)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = log_path.open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(gguf), "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", "4096", "--model_alias", alias,
         "--interrupt_requests", "False"], stdout=log, stderr=subprocess.STDOUT)
    try:
        import httpx

        deadline = time.monotonic() + 180
        while True:
            assert server.poll() is None, log_path.read_text()[-3000:]
            try:
                if httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "llama.cpp server did not start in 180 s"
            time.sleep(0.5)
        yield f"openai:{alias}@http://127.0.0.1:{port}/v1"
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
