"""Where a torch-based engine runs (transformers, cross-encoder, sentence-transformers), decided
explicitly: read what the machine has, choose, log one line.

``auto`` (the default) takes the first GPU torch can use — CUDA (NVIDIA, or ROCm builds, which
torch also names ``cuda``), then Apple's MPS — and the CPU otherwise. A named device (``cpu``,
``cuda``, ``cuda:1``, ``mps``) is kept; one this machine lacks is a one-line error rather than
torch's traceback from the first tensor moved. ``FACTGRAPH_DEVICE`` sets it for every engine of
a run (the CLI passes no device of its own); a ``device=`` given in Python wins over it.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass

from factgraph.errors import UserInputError

log = logging.getLogger(__name__)

DEVICE_ENV = "FACTGRAPH_DEVICE"
AUTO = "auto"


@dataclass(frozen=True)
class TorchDevices:
    """The accelerators torch can use on a machine: CUDA device names, and whether MPS is up."""

    cuda: tuple[str, ...] = ()
    mps: bool = False


@dataclass(frozen=True)
class DeviceChoice:
    device: str
    reason: str


def choose_device(requested: str | None, devices: TorchDevices) -> DeviceChoice:
    """The device for ``requested`` (``None`` / ``"auto"``: the best one ``devices`` holds).

    Pure: the machine comes in as ``devices``.

    >>> choose_device("auto", TorchDevices(cuda=("NVIDIA H200",))).device
    'cuda'
    >>> choose_device(None, TorchDevices()).device
    'cpu'
    """
    name = (requested or AUTO).strip().lower()
    if name == AUTO:
        if devices.cuda:
            more = f" (of {len(devices.cuda)})" if len(devices.cuda) > 1 else ""
            return DeviceChoice("cuda", f"auto: GPU {devices.cuda[0]}{more}")
        if devices.mps:
            return DeviceChoice("mps", "auto: Apple GPU (MPS)")
        return DeviceChoice("cpu", "auto: torch sees no GPU")
    kind, _, index = name.partition(":")
    if kind == "cpu" and not index:
        return DeviceChoice("cpu", "as asked")
    if kind == "cuda":
        if not devices.cuda:
            raise UserInputError(f"device {name!r} asked for, but torch sees no CUDA GPU here "
                                 f"(set {DEVICE_ENV}=cpu or auto)")
        if index and (not index.isdigit() or int(index) >= len(devices.cuda)):
            raise UserInputError(f"device {name!r}: torch sees {len(devices.cuda)} CUDA GPU(s), "
                                 f"numbered from 0")
        return DeviceChoice(name, f"as asked: GPU {devices.cuda[int(index or 0)]}")
    if kind == "mps" and not index:
        if not devices.mps:
            raise UserInputError(f"device 'mps' asked for, but torch sees no MPS device here "
                                 f"(set {DEVICE_ENV}=cpu or auto)")
        return DeviceChoice("mps", "as asked: Apple GPU (MPS)")
    raise UserInputError(f"unknown device {requested!r}: use auto, cpu, cuda, cuda:N or mps")


def torch_devices() -> TorchDevices:
    """What this machine's torch can use (torch must be importable)."""
    import torch

    cuda = tuple(torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())) \
        if torch.cuda.is_available() else ()
    backends_mps = getattr(torch.backends, "mps", None)
    mps = bool(backends_mps is not None and backends_mps.is_available())
    return TorchDevices(cuda=cuda, mps=mps)


def device_for_this_machine(requested: str | None, engine: str) -> str:
    """:func:`choose_device` for this machine, ``requested`` falling back to
    ``FACTGRAPH_DEVICE`` and then ``auto``; logs the choice in one line."""
    if requested is None:
        requested = os.environ.get(DEVICE_ENV) or None
    choice = choose_device(requested, torch_devices())
    log.info("%s runs on %s (%s)", engine, choice.device, choice.reason)
    return choice.device
