"""Portable names for the models a run used: name, version and a content hash, never a local
path. An Evaluation moved to another machine still says which weights judged it."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path

log = logging.getLogger(__name__)

HASH_CHARS = 16  # of the sha256 hex digest, in an identity string
WEIGHT_SUFFIXES = (".safetensors", ".bin", ".onnx", ".gguf", ".pt", ".pth")


# Files this large have their sha256 remembered across processes (a multi-GB checkpoint takes
# seconds to hash), keyed by path, size and modification time, in this JSON file.
REMEMBER_FROM_BYTES = 256 << 20
HASH_CACHE_ENV = "FACTGRAPH_HASH_CACHE"


def _hash_cache_path() -> Path:
    default = Path.home() / ".cache" / "factgraph" / "model-hashes.json"
    return Path(os.environ.get(HASH_CACHE_ENV) or default)


def _remembered() -> dict[str, str]:
    try:
        data = json.loads(_hash_cache_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _remember(key: str, sha256: str) -> None:
    path = _hash_cache_path()
    data = {**_remembered(), key: sha256}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data, indent=0, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        log.debug("cannot write %s: the hash is not remembered", path)


@lru_cache(maxsize=32)
def _file_sha256(path: str, size: int, mtime_ns: int) -> str:
    key = f"{path}|{size}|{mtime_ns}"
    if size >= REMEMBER_FROM_BYTES and (known := _remembered().get(key)):
        return known
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    if size >= REMEMBER_FROM_BYTES:
        _remember(key, digest.hexdigest())
    return digest.hexdigest()


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The sha256 of a file's bytes (computed once per process while the file is unchanged)."""
    st = os.stat(path)
    return _file_sha256(str(Path(path).resolve()), st.st_size, st.st_mtime_ns)


def content_sha256(paths: Iterable[str | os.PathLike[str]]) -> str:
    """One sha256 over files: the file's own for one file, else the sha256 of their names and
    sha256s in name order (a folder's weights that are split across files)."""
    files = sorted(Path(p) for p in paths)
    if len(files) == 1:
        return file_sha256(files[0])
    lines = "".join(f"{p.name} {file_sha256(p)}\n" for p in files)
    return hashlib.sha256(lines.encode("utf-8")).hexdigest()


def file_identity(path: str | os.PathLike[str]) -> str:
    """``FILE.gguf sha256:...`` of one weights file (its name, not its folder)."""
    return model_identity(Path(path).name, file_sha256(path))


def weight_files(folder: str | os.PathLike[str]) -> list[Path]:
    """The weight files at the top of a model folder (safetensors, bin, onnx, ...)."""
    return sorted(p for p in Path(folder).iterdir()
                  if p.is_file() and p.name.endswith(WEIGHT_SUFFIXES))


def model_identity(name: str, sha256: str, package: str | None = None,
                   version: str | None = None) -> str:
    """``NAME@PACKAGE==VERSION sha256:0123456789abcdef`` (``NAME sha256:...`` without a
    package): what a backend's ``model`` says and an Evaluation records."""
    where = f"@{package}=={version}" if package else ""
    return f"{name}{where} sha256:{sha256[:HASH_CHARS]}"


def package_version(distribution: str) -> str | None:
    """The installed version of a distribution (None when it is not installed)."""
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def folder_identity(model: str | os.PathLike[str]) -> str:
    """``NAME sha256:...`` of a local model folder (its name and its weight files), or the
    model id itself when it names no local folder (a hub id is portable already)."""
    path = Path(model)
    if not path.is_dir():
        return str(model)
    weights = weight_files(path)
    if not weights:
        return path.resolve().name
    return model_identity(path.resolve().name, content_sha256(weights))
