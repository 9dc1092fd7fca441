"""The organization tree's first request, asked of the sandbox while the TUI is still starting.

With a sandbox already running, everything between launching `docdeck` and a
live tree is work on one thread: Textual's first frame, the browser's imports,
then the first request, whose own cost was mostly httpx's first use (httpcore
and anyio's asyncio backend imported, a connection set up: ~70 ms of CPU, about
a tenth of the whole start). The launcher's thread already asks the sandbox who
it is over a plain socket before the first frame; it asks the tree's first
request the same way, right after (the server answers from its own process, on
the other core, while Textual starts). The client the TUI receives is handed
that answer as plain data (`docdeck.gateway.Prefetched`) and serves its first
request with it when it is the same request, with the same token; everything
else, and any answer other than a 200, goes over httpx as before, so errors (a
refused token, a server gone) are found and reported exactly as they were.
httpx is imported, and its client built, when the first request must be sent,
or by the app just after the live tree is shown, whichever comes first.

Standard library only: this runs in the launcher's thread before the first frame.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

from docdeck import __version__
from docdeck._cli.sandbox_state import http_get

__all__ = ["ANSWER_TIMEOUT", "FirstAnswer", "FirstRequest", "ask"]

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
