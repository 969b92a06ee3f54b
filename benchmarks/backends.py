"""Benchmark: one model, four ways to ask it — in-process vLLM batched, the OpenAI-compatible
path sequential and concurrent (a ``vllm serve`` process on 127.0.0.1), and a cached re-run.

    python -m benchmarks.backends                     # tiny model built here, 64 prompts
    python -m benchmarks.backends --model /models/qwen --prompts 256 --max-tokens 64

Without ``--model`` a 2-layer Qwen2 with random weights and a real tokenizer is built (the one
the tests use), so the numbers measure engine and transport overhead, not a model's speed.
Baseline: the OpenAI path with one request in flight (``max_concurrency=1``), the way a plain
client loop asks a server. Goals (issue 3): vLLM batched ≥3× sequential; a cached re-run makes
0 model calls and is ≥20× faster than the first run.
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from factgraph.backends.base import ChatMessage, GenerationParams, TextBackend


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def prompts(n: int) -> list[list[ChatMessage]]:
    topics = ["the Kessler Dam", "Lake Mirren", "Bishop Heber", "the city observatory",
              "glass works", "a shipping firm", "the state railway", "Bergen"]
    return [[ChatMessage(role="user", content=f"Write one sentence about {topics[i % 8]} "
                                               f"(variant {i}).")] for i in range(n)]


def timed(backend: TextBackend, batch: list[list[ChatMessage]],
          params: GenerationParams) -> tuple[float, int]:
    start = time.perf_counter()
    gens = backend.generate(batch, params)
    elapsed = time.perf_counter() - start
    return elapsed, sum(int(g.trace.usage.get("completion_tokens", 0)) for g in gens)


class CountingBackend:
    """Counts the prompts that reach the engine (cache misses)."""

    def __init__(self, inner: TextBackend) -> None:
        self.inner = inner
        self.engine, self.model = inner.engine, inner.model
        self.calls = 0

    def generate(self, batch, params):  # type: ignore[no-untyped-def]
        self.calls += len(batch)
        return self.inner.generate(batch, params)


def start_server(model: str, log_path: Path) -> tuple[subprocess.Popen[bytes], str]:
    import httpx

    port = free_port()
    env = {**os.environ, "VLLM_CPU_NUM_OF_RESERVED_CPU": "0", "VLLM_HOST_IP": "127.0.0.1",
           "VLLM_ENABLE_V1_MULTIPROCESSING": "0"}
    log = log_path.open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "vllm.entrypoints.openai.api_server", "--model", model,
         "--served-model-name", "bench", "--host", "127.0.0.1", "--port", str(port),
         "--enforce-eager", "--max-model-len", "1024", "--dtype", "bfloat16",
         "--gpu-memory-utilization", "0.1"],
        stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(log_path.read_text()[-3000:])
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=1).status_code == 200:
                return server, f"http://127.0.0.1:{port}/v1"
        except httpx.HTTPError:
            pass
        time.sleep(1)
    server.kill()
    raise RuntimeError("vLLM server did not start in 300 s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", help="Local model folder (default: a tiny model built here).")
    ap.add_argument("--prompts", type=int, default=64)
    ap.add_argument("--max-tokens", type=int, default=32)
    ap.add_argument("--concurrency", type=int, default=16)
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    os.environ.setdefault("VLLM_TARGET_DEVICE", "cpu")
    with tempfile.TemporaryDirectory(prefix="fg-bench-backends-") as tmp:  # removed at the end
        # vLLM's own scratch files (its sockets, its dist folders) go here too: this process's
        # and its children's temp folder
        os.environ["TMPDIR"] = tempfile.tempdir = tmp
        measure(args, Path(tmp))


def measure(args: argparse.Namespace, work: Path) -> None:
    """The runs and the table; the tiny model, the server log and the cache live in ``work``."""
    from factgraph.backends.cache import CachedTextBackend, CallCache
    from factgraph.backends.openai_compat import OpenAICompatibleBackend

    model = args.model
    if model is None:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from tests.backends_support import build_tiny_causal_lm

        model = str(build_tiny_causal_lm(work / "tiny"))
    batch = prompts(args.prompts)
    params = GenerationParams(max_tokens=args.max_tokens, seed=0)
    results: list[tuple[str, float, int, int]] = []  # (way, seconds, tokens, engine calls)

    server, url = start_server(model, work / "server.log")
    try:
        for name, conc in (("OpenAI path, sequential (baseline)", 1),
                           (f"OpenAI path, {args.concurrency} in flight", args.concurrency)):
            http = OpenAICompatibleBackend("bench", base_url=url, api_key="none",
                                           max_concurrency=conc)
            http.generate(batch[:2], params)  # warm-up
            seconds, tokens = timed(http, batch, params)
            results.append((name, seconds, tokens, len(batch)))
    finally:
        server.terminate()
        server.wait(timeout=60)

    from factgraph.backends.vllm_engine import VLLMTextBackend

    engine = CountingBackend(VLLMTextBackend(model, max_model_len=1024,
                                             gpu_memory_utilization=0.1))
    engine.generate(batch[:2], params)  # warm-up (load + first step)
    engine.calls = 0
    seconds, tokens = timed(engine, batch, params)
    results.append(("vLLM in-process, one batch", seconds, tokens, engine.calls))

    cached = CachedTextBackend(engine, CallCache(work / "calls.sqlite"))
    engine.calls = 0
    seconds, tokens = timed(cached, batch, params)
    results.append(("vLLM in-process + cache, first run", seconds, tokens, engine.calls))
    engine.calls = 0
    seconds, tokens = timed(cached, batch, params)
    results.append(("vLLM in-process + cache, re-run", seconds, tokens, engine.calls))

    from rich.console import Console
    from rich.table import Table

    base = results[0][1]
    table = Table(title=f"{args.prompts} prompts, max_tokens={args.max_tokens}, "
                        f"model={Path(model).name}")
    for col in ("way", "seconds", "completion tokens", "engine calls", "speed-up vs baseline"):
        table.add_column(col, justify="left" if col == "way" else "right")
    for name, seconds, tokens, calls in results:
        table.add_row(name, f"{seconds:.3f}", str(tokens), str(calls), f"{base / seconds:.1f}x")
    Console(width=140).print(table)
    first, rerun = results[-2][1], results[-1][1]
    Console(width=140).print(f"cached re-run vs first run: {first / rerun:.0f}x faster, "
                             f"{results[-1][3]} engine calls")


if __name__ == "__main__":
    main()
