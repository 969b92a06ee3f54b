"""Who may talk to the explorer: loopback by default; elsewhere only with the token.

* Bound to a loopback address, requests must name a loopback host in their ``Host`` header
  (a web page elsewhere cannot reach the app through DNS rebinding).
* Bound to any other address, every request must carry the token: ``?token=...`` once (the
  app answers with a redirect that sets an HttpOnly, SameSite=Strict cookie and drops the
  token from the address), the cookie, or ``Authorization: Bearer ...``. Anything else gets
  403. Tokens are compared in constant time.
* Every response carries ``X-Content-Type-Options: nosniff``, ``Referrer-Policy:
  no-referrer``, ``X-Frame-Options: DENY``, ``Cache-Control: no-store`` and a
  Content-Security-Policy (``default-src 'none'`` where the page set none).
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from factgraph.errors import UserInputError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

COOKIE = "factgraph_explore_token"
BASE_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


def is_loopback(host: str) -> bool:
    """True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost)."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _host_name(header: str) -> str:
    return (urlsplit("//" + header).hostname or "").lower()


def _token_ok(given: str | None, token: str) -> bool:
    return given is not None and hmac.compare_digest(given.encode(), token.encode())


class Guard:
    """ASGI middleware applying the rules of the module docstring."""

    def __init__(self, app: ASGIApp, token: str | None, loopback_only: bool) -> None:
        if not loopback_only and not token:
            raise UserInputError("binding a non-loopback address needs a token")
        self.app = app
        self.token = token
        self.loopback_only = loopback_only

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}
        if self.loopback_only and not is_loopback(_host_name(headers.get("host", ""))):
            await _plain(send, 403, "Forbidden: this explorer answers only to localhost.")
            return
        if self.token is not None:
            query = parse_qsl(scope.get("query_string", b"").decode("latin-1"),
                              keep_blank_values=True)
            from_query = next((v for k, v in query if k == "token"), None)
            if _token_ok(from_query, self.token):
                rest = urlencode([(k, v) for k, v in query if k != "token"])
                location = scope.get("path", "/") + ("?" + rest if rest else "")
                cookie = (f"{COOKIE}={self.token}; HttpOnly; SameSite=Strict; Path=/")
                await _plain(send, 303, "Signed in.", [(b"location", location.encode()),
                                                       (b"set-cookie", cookie.encode())])
                return
            jar: SimpleCookie = SimpleCookie()
            jar.load(headers.get("cookie", ""))
            from_cookie = jar[COOKIE].value if COOKIE in jar else None
            auth = headers.get("authorization", "")
            bearer = auth[7:].strip() if auth.lower().startswith("bearer ") else None
            if not (_token_ok(from_cookie, self.token) or _token_ok(bearer, self.token)):
                await _plain(send, 403, "Forbidden: this explorer needs its token "
                                        "(open the address printed when it started).")
                return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                hdrs = list(message.get("headers", []))
                names = {k.lower() for k, _ in hdrs}
                hdrs += [h for h in BASE_HEADERS if h[0] not in names]
                if b"content-security-policy" not in names:
                    hdrs.append((b"content-security-policy", b"default-src 'none'"))
                message["headers"] = hdrs
            await send(message)

        await self.app(scope, receive, send_with_headers)


async def _plain(send: Send, status: int, text: str,
                 extra: list[tuple[bytes, bytes]] | None = None) -> None:
    body = text.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"),
               (b"content-length", str(len(body)).encode()),
               (b"content-security-policy", b"default-src 'none'"), *BASE_HEADERS,
               *(extra or [])]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
