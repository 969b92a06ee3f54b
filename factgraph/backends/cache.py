"""The model-call cache: one SQLite file shared by every process on the machine.

WAL mode lets readers and one writer work at once; a busy timeout makes concurrent writers
wait instead of failing; ``INSERT OR IGNORE`` makes two processes racing on the same call both
end with the same stored answer. Stored per call: output, log-probabilities, finish reason,
token usage and latency.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel

from factgraph.backends.base import (
    ChatMessage,
    Generation,
    GenerationParams,
    TextBackend,
    TokenLogprob,
)
from factgraph.backends.keys import call_key, trace_id
from factgraph.models import Trace

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS calls (
    key TEXT PRIMARY KEY,
    engine TEXT NOT NULL,
    model TEXT NOT NULL,
    created REAL NOT NULL,
    output TEXT NOT NULL,
    logprobs TEXT,
    finish_reason TEXT,
    usage TEXT NOT NULL,
    latency REAL,
    hits INTEGER NOT NULL DEFAULT 0
)
"""


def default_cache_path() -> Path:
    """``$FACTGRAPH_CACHE`` or ``~/.cache/factgraph/calls.sqlite``."""
    env = os.environ.get("FACTGRAPH_CACHE")
    if env:
        return Path(env)
    return Path.home() / ".cache" / "factgraph" / "calls.sqlite"


class CachedCall(BaseModel):
    output: str
    logprobs: list[TokenLogprob] | None = None
    finish_reason: str | None = None
    usage: dict[str, int] = {}
    latency_s: float | None = None


class CacheStats(BaseModel):
    path: str
    calls: int
    hits: int
    bytes: int
    by_model: dict[str, int]


class CallCache:
    """A key -> CachedCall store in SQLite. Safe across threads and processes."""

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = Path(path) if path else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(self.path, timeout=60, check_same_thread=False,
                                     isolation_level=None)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA busy_timeout=60000")
        self._conn.execute(SCHEMA)

    def get(self, key: str) -> CachedCall | None:
        with self._lock:
            row = self._conn.execute(
                "SELECT output, logprobs, finish_reason, usage, latency FROM calls WHERE key = ?",
                (key,),
            ).fetchone()
            if row is None:
                return None
            self._conn.execute("UPDATE calls SET hits = hits + 1 WHERE key = ?", (key,))
        return CachedCall(
            output=row[0],
            logprobs=[TokenLogprob.model_validate(x) for x in json.loads(row[1])] if row[1]
            else None,
            finish_reason=row[2], usage=json.loads(row[3]), latency_s=row[4],
        )

    def put(self, key: str, engine: str, model: str, call: CachedCall) -> None:
        logprobs = (json.dumps([t.model_dump() for t in call.logprobs])
                    if call.logprobs is not None else None)
        with self._lock:
            self._conn.execute(
                "INSERT OR IGNORE INTO calls (key, engine, model, created, output, logprobs, "
                "finish_reason, usage, latency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (key, engine, model, time.time(), call.output, logprobs, call.finish_reason,
                 json.dumps(call.usage), call.latency_s),
            )

    def stats(self) -> CacheStats:
        with self._lock:
            calls, hits = self._conn.execute(
                "SELECT count(*), coalesce(sum(hits), 0) FROM calls").fetchone()
            by_model = dict(self._conn.execute(
                "SELECT engine || ':' || model, count(*) FROM calls GROUP BY 1 ORDER BY 1"
            ).fetchall())
        size = sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*"))
        return CacheStats(path=str(self.path), calls=calls, hits=hits, bytes=size,
                          by_model=by_model)

    def clear(self, model: str | None = None) -> int:
        with self._lock:
            if model is None:
                cur = self._conn.execute("DELETE FROM calls")
            else:
                cur = self._conn.execute("DELETE FROM calls WHERE model = ?", (model,))
            self._conn.execute("VACUUM")
        return int(cur.rowcount)

    def close(self) -> None:
        self._conn.close()


class CachedTextBackend:
    """Wraps any TextBackend: answered calls come from the cache, the rest go to the engine in
    one batch. Hits carry ``Trace.cached = True`` and the original latency."""

    def __init__(self, inner: TextBackend, cache: CallCache, revision: str | None = None) -> None:
        self.inner = inner
        self.cache = cache
        self.revision = revision
        self.engine = inner.engine
        self.model = inner.model

    def generate(
        self, batch: Sequence[Sequence[ChatMessage]], params: GenerationParams
    ) -> list[Generation]:
        keys = [call_key(self.engine, self.model, m, params, self.revision) for m in batch]
        out: list[Generation | None] = [None] * len(batch)
        misses: list[int] = []
        for i, key in enumerate(keys):
            hit = self.cache.get(key)
            if hit is None:
                misses.append(i)
                continue
            out[i] = Generation(
                text=hit.output, logprobs=hit.logprobs, finish_reason=hit.finish_reason,
                trace=_trace(key, self.engine, self.model, batch[i], params, hit, cached=True),
            )
        if misses:
            fresh = self.inner.generate([batch[i] for i in misses], params)
            for i, gen in zip(misses, fresh, strict=True):
                call = CachedCall(output=gen.text, logprobs=gen.logprobs,
                                  finish_reason=gen.finish_reason, usage=gen.trace.usage,
                                  latency_s=gen.trace.latency_s)
                self.cache.put(keys[i], self.engine, self.model, call)
                out[i] = Generation(
                    text=gen.text, logprobs=gen.logprobs, finish_reason=gen.finish_reason,
                    trace=_trace(keys[i], self.engine, self.model, batch[i], params, call,
                                 cached=False),
                )
        log.debug("cache: %d hits, %d misses", len(batch) - len(misses), len(misses))
        return [g for g in out if g is not None]


def _trace(key: str, engine: str, model: str, messages: Sequence[ChatMessage],
           params: GenerationParams, call: CachedCall, cached: bool) -> Trace:
    return Trace(
        id=trace_id(key), engine=engine, model=model,
        messages=[m.model_dump() for m in messages], parameters=params.model_dump(mode="json"),
        raw_output=call.output, usage=call.usage, latency_s=call.latency_s, cached=cached,
    )
