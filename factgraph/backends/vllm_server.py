"""Start vLLM's OpenAI-compatible server with a dtype that works on this CPU.

Usage (the same arguments as ``vllm serve`` / ``vllm.entrypoints.openai.api_server``)::

    python -m factgraph.backends.vllm_server --model DIR --served-model-name qwen \\
        --host 127.0.0.1 --port 8000 --enforce-eager

The server's engine always runs in a separate ``EngineCore`` process, which on an AMX CPU dies
in vLLM's bfloat16 AMX attention kernel; :func:`factgraph.backends.cpu_plan.plan_vllm_cpu`
decides, and this launcher logs one line and passes ``--dtype float32`` there. Everywhere else
the arguments go to vLLM unchanged. ``PYTHONFAULTHANDLER`` is switched on so that a crash of
the engine prints where it happened.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Sequence

from factgraph.backends.cpu_plan import VllmCpuPlan, plan_for_this_machine
from factgraph.telemetry import opt_out

VLLM_SERVER_MODULE = "vllm.entrypoints.openai.api_server"


def requested_dtype(args: Sequence[str]) -> str | None:
    """The value of ``--dtype`` in a vLLM argument list (the last one wins, as in argparse)."""
    found = None
    for i, arg in enumerate(args):
        if arg == "--dtype" and i + 1 < len(args):
            found = args[i + 1]
        elif arg.startswith("--dtype="):
            found = arg.split("=", 1)[1]
    return found


def with_dtype(args: Sequence[str], plan: VllmCpuPlan) -> list[str]:
    """``args`` with every ``--dtype`` replaced by the plan's dtype (or left alone)."""
    if plan.dtype is None:
        return list(args)
    out: list[str] = []
    skip = False
    for i, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg == "--dtype" and i + 1 < len(args):
            skip = True
            continue
        if arg.startswith("--dtype="):
            continue
        out.append(arg)
    return [*out, "--dtype", plan.dtype]


def server_command(args: Sequence[str], plan: VllmCpuPlan) -> list[str]:
    return [sys.executable, "-m", VLLM_SERVER_MODULE, *with_dtype(args, plan)]


def main(argv: Sequence[str] | None = None) -> None:
    logging.basicConfig(level=logging.INFO, format="factgraph: %(message)s")
    args = list(sys.argv[1:] if argv is None else argv)
    plan = plan_for_this_machine(requested_dtype(args), engine_in_process=False)
    os.environ.setdefault("PYTHONFAULTHANDLER", "1")
    opt_out("vllm")  # the server inherits it: no usage stats (factgraph.telemetry)
    command = server_command(args, plan)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(command[0], command)


if __name__ == "__main__":
    main()
