"""Any OpenAI-compatible chat server: ``vllm serve``, llama.cpp's server, hosted APIs.

One bounded semaphore caps concurrent requests; 429, 5xx and timeouts are retried with
exponential backoff and jitter (honouring ``Retry-After``), a bounded number of times; other
errors fail at once with the server's message. The API key comes from the environment or an
argument and is never logged.

Before its first request a backend checks once that a server answers at its address (``GET
/models``, a few seconds at most; any HTTP answer will do, servers without that route
included): no server there fails at once, in one line naming the address and what to start,
instead of retrying every request of every input. A refused connection later on (the server
went away) is not retried either; both errors are marked ``unreachable`` so a batch can stop.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
from collections.abc import Sequence
from typing import Any

from factgraph.backends.base import (
    ChatMessage,
    Generation,
    GenerationParams,
    TokenLogprob,
)
from factgraph.backends.keys import call_key, trace_id
from factgraph.errors import UserInputError
from factgraph.models import Trace

log = logging.getLogger(__name__)
RETRY_STATUS = {408, 409, 425, 429, 500, 502, 503, 504}


class OpenAIServerError(RuntimeError):
    """The server refused a request for good (not retried, or retries exhausted).

    ``unreachable``: no server accepted the connection (nothing listens at the address);
    ``never_reached``: that was found by the check before the backend's first request.
    """

    def __init__(self, message: str, unreachable: bool = False,
                 never_reached: bool = False) -> None:
        super().__init__(message)
        self.unreachable = unreachable or never_reached
        self.never_reached = never_reached

    def __reduce__(self) -> tuple[Any, ...]:  # keep the flags across processes (Ray)
        return (type(self), (str(self), self.unreachable, self.never_reached))


def start_advice(base_url: str, model: str) -> str:
    """What to start (or change) when no server answers at ``base_url``."""
    from urllib.parse import urlsplit

    port = urlsplit(base_url).port or 8000
    return (f"start an OpenAI-compatible server there (e.g. `vllm serve MODEL "
            f"--served-model-name {model} --port {port}`, or `python -m "
            f"factgraph.backends.vllm_server --model DIR --served-model-name {model} --port "
            f"{port}`), or give the address of a running one in --model "
            f"openai:{model}@URL")


def unreachable_message(base_url: str, model: str, error: BaseException) -> str:
    """One line: the address, why nothing answered there, and what to start."""
    import httpx

    if isinstance(error, httpx.ConnectTimeout):
        why = "no answer to the connection"
    elif isinstance(error, httpx.ConnectError):
        why = "connection refused or host unreachable"
    else:
        why = f"{type(error).__name__}: {error}"
    return f"no model server at {base_url} ({why}): {start_advice(base_url, model)}"


def resolve_base_url(base_url: str | None) -> str:
    url = base_url or os.environ.get("FACTGRAPH_OPENAI_BASE_URL") or os.environ.get(
        "OPENAI_BASE_URL")
    if not url:
        raise UserInputError("no server address: pass a base URL or set FACTGRAPH_OPENAI_BASE_URL")
    return url.rstrip("/")


JSON_MODES = ("json_schema", "json_object", "off")


def request_body(model: str, messages: Sequence[ChatMessage], params: GenerationParams,
                 json_mode: str = "json_schema") -> dict[str, Any]:
    """The chat/completions body. ``json_mode``: how a JSON schema is sent — OpenAI's and
    vLLM's ``json_schema``, llama.cpp's ``json_object`` with a ``schema``, or not at all."""
    body: dict[str, Any] = {
        "model": model,
        "messages": [m.model_dump() for m in messages],
        "temperature": params.temperature,
        "max_tokens": params.max_tokens,
        "stream": False,
    }
    if params.seed is not None:
        body["seed"] = params.seed
    if params.stop:
        body["stop"] = list(params.stop)
    if params.top_logprobs:
        body["logprobs"] = True
        body["top_logprobs"] = params.top_logprobs
    if params.json_schema is not None and json_mode == "json_schema":
        body["response_format"] = {"type": "json_schema", "json_schema": {
            "name": "output", "schema": params.json_schema}}
    elif params.json_schema is not None and json_mode == "json_object":
        body["response_format"] = {"type": "json_object", "schema": params.json_schema}
    if params.choices:
        # vLLM's extension; other servers ignore unknown fields or reject them (then omit).
        body["structured_outputs"] = {"choice": list(params.choices)}
    return body


def parse_logprobs(choice: dict[str, Any]) -> list[TokenLogprob] | None:
    content = (choice.get("logprobs") or {}).get("content")
    if not content:
        return None
    return [TokenLogprob(token=t["token"], logprob=float(t["logprob"]),
                         top={x["token"]: float(x["logprob"]) for x in t.get("top_logprobs") or []})
            for t in content]


class OpenAICompatibleBackend:
    """TextBackend over HTTP. ``max_concurrency`` bounds in-flight requests."""

    engine = "openai"

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key: str | None = None,
        max_concurrency: int = 4,
        max_retries: int = 5,
        timeout_s: float = 120.0,
        backoff_base_s: float = 0.5,
        backoff_cap_s: float = 30.0,
        json_mode: str = "json_schema",
    ) -> None:
        if json_mode not in JSON_MODES:
            raise UserInputError(f"json_mode must be one of {JSON_MODES}")
        self.model = model
        self.json_mode = json_mode
        self.base_url = resolve_base_url(base_url)
        self._api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        self.max_concurrency = max_concurrency
        self.max_retries = max_retries
        self.timeout_s = timeout_s
        self.backoff_base_s = backoff_base_s
        self.backoff_cap_s = backoff_cap_s
        self.retries_done = 0
        self.check_timeout_s = min(5.0, timeout_s)  # the check before the first request
        self.server_checked = False

    def __repr__(self) -> str:  # never show the key
        return f"OpenAICompatibleBackend(model={self.model!r}, base_url={self.base_url!r})"

    def generate(
        self, batch: Sequence[Sequence[ChatMessage]], params: GenerationParams
    ) -> list[Generation]:
        return asyncio.run(self._generate_all(batch, params))

    async def _generate_all(
        self, batch: Sequence[Sequence[ChatMessage]], params: GenerationParams
    ) -> list[Generation]:
        import httpx

        sem = asyncio.Semaphore(self.max_concurrency)
        headers = {"Authorization": f"Bearer {self._api_key}"} if self._api_key else {}
        async with httpx.AsyncClient(base_url=self.base_url, headers=headers,
                                     timeout=self.timeout_s) as client:
            if not self.server_checked:
                await self._check_server(client)
            return list(await asyncio.gather(
                *(self._one(client, sem, m, params) for m in batch)))

    async def _check_server(self, client: Any) -> None:
        """Once, before the first request: does anything answer at the address? Any HTTP
        answer passes (a 404 from a server without ``/models`` too); a refused or unanswered
        connection raises an ``unreachable`` OpenAIServerError at once, without retries."""
        import httpx

        try:
            await client.get("/models", timeout=self.check_timeout_s)
        except (httpx.ConnectError, httpx.ConnectTimeout) as e:
            raise OpenAIServerError(unreachable_message(self.base_url, self.model, e),
                                    never_reached=True) from None
        except (httpx.TimeoutException, httpx.TransportError) as e:
            # Connected, but the answer was slow or broken: a server is there (busy); the
            # requests themselves retry as usual.
            log.info("openai: %s answered the server check badly (%s); going on",
                     self.base_url, type(e).__name__)
        self.server_checked = True

    def _backoff(self, attempt: int, retry_after: str | None) -> float:
        if retry_after:
            try:
                return min(self.backoff_cap_s, float(retry_after))
            except ValueError:
                pass
        return min(self.backoff_cap_s, self.backoff_base_s * 2**attempt) * (0.5 + random.random())

    async def _one(self, client: Any, sem: asyncio.Semaphore, messages: Sequence[ChatMessage],
                   params: GenerationParams) -> Generation:
        import httpx

        body = request_body(self.model, messages, params, self.json_mode)
        last_error = ""
        async with sem:
            for attempt in range(self.max_retries + 1):
                start = time.perf_counter()
                retry_after = None
                try:
                    resp = await client.post("/chat/completions", json=body)
                except httpx.ConnectError as e:
                    # Nothing listens there (any more): not retried like a 5xx.
                    raise OpenAIServerError(
                        unreachable_message(self.base_url, self.model, e),
                        unreachable=True) from None
                except (httpx.TimeoutException, httpx.TransportError) as e:
                    last_error = f"{type(e).__name__}: {e}"
                else:
                    if resp.status_code == 200:
                        try:
                            return self._generation(resp.json(), messages, params,
                                                    time.perf_counter() - start)
                        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
                            # A proxy's HTML page, a cut-off body: retried like a 5xx.
                            last_error = (f"unreadable response body ({type(e).__name__}): "
                                          f"{resp.text[:200]!r}")
                    else:
                        last_error = f"HTTP {resp.status_code}: {resp.text[:300]}"
                        sent = body.get("response_format", {}).get("type")
                        if (sent == "json_schema" and resp.status_code in (400, 422, 500)
                                and "json_schema" in resp.text):
                            # The server does not know json_schema (llama.cpp): fall back to
                            # its json_object + schema for this and every later request.
                            log.info("openai: server rejects json_schema; using json_object")
                            self.json_mode = "json_object"
                            body = request_body(self.model, messages, params, self.json_mode)
                            continue
                        if resp.status_code not in RETRY_STATUS:
                            raise OpenAIServerError(last_error)
                        retry_after = resp.headers.get("retry-after")
                if attempt < self.max_retries:
                    self.retries_done += 1
                    delay = self._backoff(attempt, retry_after)
                    # handled, so INFO (shown with -v); only the final failure is an error
                    log.info("openai: %s; retry %d/%d in %.2f s", last_error, attempt + 1,
                             self.max_retries, delay)
                    await asyncio.sleep(delay)
        raise OpenAIServerError(f"gave up after {self.max_retries} retries: {last_error}")

    def _generation(self, data: dict[str, Any], messages: Sequence[ChatMessage],
                    params: GenerationParams, latency: float) -> Generation:
        choice = data["choices"][0]
        text = (choice.get("message") or {}).get("content") or ""
        usage = {k: int(v) for k, v in (data.get("usage") or {}).items()
                 if isinstance(v, int)}
        key = call_key(self.engine, self.model, messages, params)
        trace = Trace(id=trace_id(key), engine=self.engine, model=self.model,
                      messages=[m.model_dump() for m in messages],
                      parameters=params.model_dump(mode="json"), raw_output=text, usage=usage,
                      latency_s=latency)
        return Generation(text=text, logprobs=parse_logprobs(choice),
                          finish_reason=choice.get("finish_reason"), trace=trace)
