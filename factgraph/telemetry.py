"""Usage reporting of the engines factgraph drives: off, unless the user turned it on.

Some of them report usage to their makers by default: ONNX Runtime's own builds (on Linux and
macOS from 1.2x, on Windows before: events, a device id and an event store under
``~/.cache/Microsoft``), vLLM (usage stats to its makers' server), Ray (the usage of clusters
that ``ray.init`` starts) and the Hugging Face hub client (download telemetry). A run of
factgraph uses no network its user did not ask for, so before it imports one of these it sets
that library's documented opt-out variable — where the environment does not set it already: a
value the user set is kept, so ``ORT_DISABLE_TELEMETRY=0`` turns ONNX Runtime's back on.
These libraries read the variables when they initialise (on import, or when a cluster or
server starts), so :func:`opt_out` comes first; child processes inherit them.

Imports nothing of factgraph, so every layer can call it.
"""

from __future__ import annotations

import logging
import os
import sys
from types import MappingProxyType

log = logging.getLogger(__name__)

# library (its import name) -> the opt-out variables and the values that turn reporting off
OPT_OUTS: MappingProxyType[str, MappingProxyType[str, str]] = MappingProxyType({
    "onnxruntime": MappingProxyType({"ORT_DISABLE_TELEMETRY": "1"}),
    "vllm": MappingProxyType({"VLLM_NO_USAGE_STATS": "1"}),
    "ray": MappingProxyType({"RAY_USAGE_STATS_ENABLED": "0"}),
    "transformers": MappingProxyType({"HF_HUB_DISABLE_TELEMETRY": "1"}),
})


def opt_out(library: str) -> dict[str, str]:
    """Set ``library``'s opt-out variables (:data:`OPT_OUTS`) where the environment has none;
    returns those this call set. Where the library was imported earlier in this process and
    reads them on import, it says so in a log line: it is as that import left it."""
    wanted = OPT_OUTS[library]
    set_now = {k: v for k, v in wanted.items() if k not in os.environ}
    os.environ.update(set_now)
    if set_now and library in sys.modules:
        log.info("%s was imported before factgraph set %s: its usage reporting is as that "
                 "import left it", library, ", ".join(f"{k}={v}" for k, v in set_now.items()))
    return set_now


def reporting_off(library: str) -> bool:
    """Whether the environment turns ``library``'s usage reporting off (its variables hold the
    opt-out values)."""
    return all(os.environ.get(k) == v for k, v in OPT_OUTS[library].items())
