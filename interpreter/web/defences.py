"""The web's usual defences, around every request of the web table (an ASGI middleware).

- **Hosts**: a request whose `Host` is not one the server was told to answer to is
  refused (400), so a page of another site cannot reach the server through a name that
  resolves to it (DNS rebinding), and no answer is ever built from a foreign host name.
- **Origin**: a request that changes something (any method but GET and HEAD) must come
  from a page of this server: its `Origin` (or, without one, `Referer`) names an allowed
  host, and a browser that says the request is cross-site (`Sec-Fetch-Site`) is refused.
  A client that sends neither (a script, a test) is no browser and carries no one's cookies.
- **Headers** on every answer: a content security policy allowing only this server's own
  scripts and styles and no framing, `X-Frame-Options`, `nosniff`, no referrer to another site (a seat's
  link is its key: it must not travel in a `Referer`), and no caching of a seat's pages.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "testserver")  # testserver: Starlette's test client
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
)
HEADERS = [
    (b"content-security-policy", POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),  # (no-referrer would make a form send `Origin: null`)
    (b"cross-origin-opener-policy", b"same-origin"),
]


def host_name(value: str) -> str:
    """The host of a `Host` header or of a URL's netloc, without its port, lower case."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1]:8000
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class Defences:
    """Wrap `app`: refuse foreign hosts and cross-site writes, add the security headers."""

    def __init__(self, app: ASGIApp, hosts: Iterable[str] = ()):
        self.app = app
        self.hosts = {h.lower() for h in hosts} | set(LOCAL_HOSTS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await _plain(send, *refusal)
            return
        private = scope.get("path", "").startswith("/t/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                extra = list(HEADERS)
                if private:
                    extra.append((b"cache-control", b"no-store"))
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str] | None:
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            return 400, "this server does not answer to that host name"
        if scope.get("method", "GET") in SAFE_METHODS:
            return None
        origin = headers.get("origin") or headers.get("referer")
        if origin is not None:
            netloc = urllib.parse.urlsplit(origin).netloc if origin != "null" else ""
            if netloc.lower() != host.lower() or host_name(netloc) not in self.hosts:
                return 403, "a change to a table must come from one of this server's own pages"
        elif headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, "a change to a table must come from one of this server's own pages"
        return None


async def _plain(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                *HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
