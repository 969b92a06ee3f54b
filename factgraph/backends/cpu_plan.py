"""How vLLM runs on *this* CPU, decided explicitly: detect the features, choose, log one line.

vLLM's CPU build picks its AMX attention kernel when ``torch.cpu._is_amx_tile_supported()`` is
true, the model runs in bfloat16 and the KV block size is a multiple of 32
(``vllm/v1/attention/backends/cpu_attn.py:_get_attn_isa``). AMX tile registers can only be
used by a process that first asked the kernel for them (``arch_prctl(ARCH_REQ_XCOMP_PERM)``,
which ``torch.cpu._init_amx()`` does). vLLM's separate ``EngineCore`` process never asks, so on
an AMX CPU (Intel Sapphire Rapids and later) it dies with SIGILL in
``cpu_attention_with_kv_cache`` on its first request. The plan:

- engine **in this process** (``vllm:`` specs; :mod:`factgraph.backends.vllm_engine` sets
  ``VLLM_ENABLE_V1_MULTIPROCESSING=0``): initialise AMX here, keep the requested dtype;
  if the initialisation is refused, fall back to float32;
- engine **in another process** (``vllm serve``, or multiprocessing switched on): run in
  float32, for which vLLM never selects the AMX kernel — safe by construction;
- a GPU, or a CPU without AMX: nothing changes.

``FACTGRAPH_VLLM_KEEP_DTYPE=1`` keeps the requested dtype regardless (for a vLLM build that
initialises AMX itself).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

# dtypes under which vLLM may select the AMX attention kernel ("auto" resolves to the model's
# own dtype, bfloat16 for most current checkpoints).
AMX_PRONE_DTYPES = frozenset({None, "auto", "bfloat16", "bf16"})
KEEP_DTYPE_ENV = "FACTGRAPH_VLLM_KEEP_DTYPE"


@dataclass(frozen=True)
class CpuFeatures:
    """The CPU features that change how model engines behave, and where they were read."""

    amx_tile: bool
    avx512f: bool
    avx2: bool
    source: str

    def describe(self) -> str:
        names = [n for n, on in (("AMX", self.amx_tile), ("AVX-512", self.avx512f),
                                 ("AVX2", self.avx2)) if on]
        return "+".join(names) or "no AVX2/AVX-512/AMX"


def parse_cpu_flags(cpuinfo: str) -> frozenset[str]:
    """The feature flags of the first processor in a ``/proc/cpuinfo`` text."""
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return frozenset(value.split())
    return frozenset()


def features_from_flags(flags: frozenset[str], source: str) -> CpuFeatures:
    return CpuFeatures(amx_tile="amx_tile" in flags, avx512f="avx512f" in flags,
                       avx2="avx2" in flags, source=source)


def detect_cpu_features(cpuinfo_path: Path = Path("/proc/cpuinfo")) -> CpuFeatures:
    """Read the CPU's features; AMX as torch reports it when torch is importable, since that
    is the check vLLM itself makes."""
    try:
        flags = parse_cpu_flags(cpuinfo_path.read_text(errors="replace"))
        source = str(cpuinfo_path)
    except OSError:
        flags, source = frozenset(), "unknown"
    features = features_from_flags(flags, source)
    try:
        import torch

        amx = bool(torch.cpu._is_amx_tile_supported())
    except (ImportError, AttributeError):
        return features
    return CpuFeatures(amx_tile=amx, avx512f=features.avx512f, avx2=features.avx2,
                       source=f"{source} + torch")


@dataclass(frozen=True)
class VllmCpuPlan:
    """What to do before starting vLLM: the dtype to pass (None: leave as requested), whether
    to initialise AMX in this process, and the one line that says why."""

    dtype: str | None
    init_amx: bool
    reason: str

    @property
    def changes_dtype(self) -> bool:
        return self.dtype is not None


def plan_vllm_cpu(requested_dtype: str | None, *, amx: bool, cuda: bool,
                  engine_in_process: bool, keep_dtype: bool = False) -> VllmCpuPlan:
    """Decide dtype and AMX initialisation for a vLLM engine (pure; see the module docstring).

    >>> plan_vllm_cpu("bfloat16", amx=True, cuda=False, engine_in_process=False).dtype
    'float32'
    """
    requested = requested_dtype.lower() if requested_dtype else None
    if cuda:
        return VllmCpuPlan(None, False, "vLLM on GPU: dtype as requested")
    if not amx:
        return VllmCpuPlan(None, False, "vLLM on a CPU without AMX: dtype as requested")
    if requested not in AMX_PRONE_DTYPES:
        return VllmCpuPlan(None, False,
                           f"vLLM on an AMX CPU in {requested}: the AMX kernel is not used")
    if keep_dtype:
        return VllmCpuPlan(None, False, f"vLLM on an AMX CPU: {KEEP_DTYPE_ENV}=1 keeps dtype "
                           f"{requested or 'auto'} (the engine process must initialise AMX)")
    if engine_in_process:
        return VllmCpuPlan(None, True, "vLLM on an AMX CPU, engine in this process: AMX tile "
                           "state initialised here before loading")
    return VllmCpuPlan("float32", False,
                       f"vLLM on an AMX CPU, engine in a separate process: float32 instead of "
                       f"{requested or 'auto'}, since its bfloat16 AMX attention kernel crashes "
                       "(SIGILL) in a process that never initialised AMX")


def cuda_available() -> bool:
    try:
        import torch

        return bool(torch.cuda.is_available())
    except ImportError:
        return False


def plan_for_this_machine(requested_dtype: str | None, *,
                          engine_in_process: bool) -> VllmCpuPlan:
    """:func:`plan_vllm_cpu` with this machine's features and environment; logs the plan."""
    features = detect_cpu_features()
    plan = plan_vllm_cpu(requested_dtype, amx=features.amx_tile, cuda=cuda_available(),
                         engine_in_process=engine_in_process,
                         keep_dtype=os.environ.get(KEEP_DTYPE_ENV) == "1")
    level = logging.WARNING if plan.changes_dtype else logging.INFO
    log.log(level, "CPU %s (%s): %s", features.describe(), features.source, plan.reason)
    return plan


def apply_in_process(plan: VllmCpuPlan) -> VllmCpuPlan:
    """Carry out an in-process plan: initialise AMX, or fall back to float32 if refused."""
    if not plan.init_amx:
        return plan
    import torch

    if torch.cpu._init_amx():
        return plan
    fallback = VllmCpuPlan("float32", False, "AMX initialisation refused by the kernel: "
                           "float32 instead, so vLLM does not select its AMX kernel")
    log.warning(fallback.reason)
    return fallback
