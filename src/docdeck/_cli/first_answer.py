"""The organization tree's first request, asked of the sandbox while the TUI is still starting.

With a sandbox already running, everything between launching `docdeck` and a
live tree is work on one thread: Textual's first frame, the browser's imports,
then the first request, whose own cost was mostly httpx's first use (httpcore
and anyio's asyncio backend imported, a connection set up: ~70 ms of CPU, about
a tenth of the whole start). The launcher's thread already asks the sandbox who
it is over a plain socket before the first frame; it asks the tree's first
request the same way, right after (the server answers from its own process, on
the other core, while Textual starts). The client the TUI receives hands that
answer to its first request when it is the same request, with the same token;
everything else, and any answer other than a 200, goes over httpx as before, so
errors (a refused token, a server gone) are found and reported exactly as they
were. httpx's transport is then made on the first request it must send.

Standard library only: this runs in the launcher's thread before the first frame.
`transport()` imports httpx when the client is built.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlencode, urlsplit

from docdeck import __version__
from docdeck._cli.sandbox_state import http_get

if TYPE_CHECKING:
    import httpx

__all__ = ["ANSWER_TIMEOUT", "FirstAnswer", "FirstRequest", "ask", "transport"]

ANSWER_TIMEOUT = 5.0
"""Seconds the launcher's thread waits for the answer (the gateway's connect timeout)."""

FirstRequest = tuple[str, dict[str, str]]
"""A GET's path on the API's root and its query parameters."""


@dataclass(frozen=True, repr=False)
class FirstAnswer:
    """A 200 answer to the first request, with what it was asked with."""

    url: str
    authorization: str
    status: int
    headers: dict[str, str]
    body: bytes

    def __repr__(self) -> str:  # never the token, nor a body of user data
        return f"FirstAnswer(url={self.url!r}, status={self.status}, {len(self.body)} bytes)"


def target(request: FirstRequest) -> str:
    path, params = request
    return f"{path}?{urlencode(params)}" if params else path


def ask(base_url: str, token: str, request: FirstRequest) -> FirstAnswer | None:
    """The sandbox's answer to `request`, if it is a 200 (anything else: None, and the
    client asks again itself, so its error is reported as any other)."""
    port = urlsplit(base_url).port
    if port is None:
        return None
    authorization = f"Bearer {token}"
    headers = {
        "Authorization": authorization,
        "Accept": "application/json",
        "User-Agent": f"docdeck/{__version__}",
    }
    try:
        got = http_get(port, target(request), headers, timeout=ANSWER_TIMEOUT)
    except (OSError, ValueError):  # a head this reader cannot read: the client asks itself
        return None
    if got is None or got[0] != 200:
        return None
    status, fields, body = got
    url = base_url.rstrip("/") + target(request)
    return FirstAnswer(url, authorization, status, fields, body)


def transport(
    answer: FirstAnswer | None,
    make: Callable[[], httpx.AsyncBaseTransport],
    *,
    made: httpx.AsyncBaseTransport | None = None,
) -> httpx.AsyncBaseTransport:
    """An httpx transport that answers the client's first request with `answer` when it is
    that same request, and sends everything else through `make()`'s transport, made when
    first needed (or `made`, already made)."""
    import httpx

    class _Answering(httpx.AsyncBaseTransport):
        def __init__(self) -> None:
            self._answer = answer
            self._sender = made

        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            kept, self._answer = self._answer, None  # only ever for the first request
            if (
                kept is not None
                and request.method == "GET"
                and request.url == httpx.URL(kept.url)
                and request.headers.get("authorization") == kept.authorization
            ):
                return httpx.Response(kept.status, headers=kept.headers, content=kept.body)
            if self._sender is None:
                self._sender = make()
            return await self._sender.handle_async_request(request)

        async def aclose(self) -> None:
            if self._sender is not None:
                await self._sender.aclose()

    return _Answering()
