"""Runs the vLLM engine in its own process (vLLM sets process-wide state) and prints JSON.

Usage: python tests/vllm_worker.py MODEL_DIR
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time


def main(model_dir: str) -> None:
    os.environ.setdefault("VLLM_CACHE_ROOT", tempfile.mkdtemp())
    os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", tempfile.mkdtemp())
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    from factgraph.backends import ChatMessage, GenerationParams
    from factgraph.backends.vllm_engine import VLLMTextBackend

    t0 = time.perf_counter()
    backend = VLLMTextBackend(model_dir, max_model_len=512, dtype="bfloat16",
                              gpu_memory_utilization=0.1)
    load_s = time.perf_counter() - t0
    chats = [[ChatMessage(role="user", content=f"is the bridge {w}")] for w in
             ("long", "short", "old", "new")]
    t0 = time.perf_counter()
    gens = backend.generate(chats, GenerationParams(max_tokens=8, top_logprobs=3))
    gen_s = time.perf_counter() - t0
    again = backend.generate(chats[:1], GenerationParams(max_tokens=8, top_logprobs=3))
    choice = backend.generate(chats[:2], GenerationParams(max_tokens=4, choices=("yes", "no")))
    print(json.dumps({
        "load_s": load_s, "generate_s": gen_s,
        "texts": [g.text for g in gens], "again": again[0].text,
        "completion_tokens": [g.trace.usage["completion_tokens"] for g in gens],
        "logprob_steps": [len(g.logprobs or []) for g in gens],
        "top_sizes": [max(len(s.top) for s in g.logprobs or []) for g in gens],
        "choices": [g.text for g in choice],
        "plan": {"dtype": backend.cpu_plan.dtype, "init_amx": backend.cpu_plan.init_amx},
    }), flush=True)
    backend.close()


if __name__ == "__main__":
    main(sys.argv[1])
