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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit

from docdeck import __version__
from docdeck._cli.sandbox_state import http_get

__all__ = [
    "ANSWER_TIMEOUT",
    "FirstAnswer",
    "FirstReads",
    "FirstRequest",
    "Reads",
    "ask",
    "ask_all",
    "reads_of",
]

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


class Reads:
    """GETs asked of the sandbox in the launcher's thread, one after another; every 200 is
    kept (`answers`) for the client, and its JSON given to the caller, who may ask more
    from it (a change request's first changed page, from its changes)."""

    def __init__(self, base_url: str, token: str) -> None:
        self.base_url = base_url
        self.token = token
        self.answers: list[FirstAnswer] = []

    def keep(self, path: str, params: dict[str, str] | None = None) -> FirstAnswer | None:
        """The answer, kept if it is a 200 (None otherwise: the client then asks itself,
        and reports any error as it always does)."""
        answer = ask(self.base_url, self.token, (path, params or {}))
        if answer is not None:
            self.answers.append(answer)
        return answer

    def __call__(self, path: str, params: dict[str, str] | None = None) -> Any:
        """The answer's JSON, kept (`keep`); None when it is not a 200 or not JSON."""
        answer = self.keep(path, params)
        if answer is None:
            return None
        import json  # not on a plain start's path: its one request needs no parse

        try:
            return json.loads(answer.body)
        except ValueError:
            return None


FirstReads = Callable[[Reads], object]
"""What to ask the sandbox before the client exists: calls `Reads` with each request."""


def reads_of(request: FirstRequest) -> FirstReads:
    """The reads of one request."""
    path, params = request
    return lambda reads: reads.keep(path, params)


def ask_all(base_url: str, token: str, reads: FirstReads) -> tuple[FirstAnswer, ...]:
    """The 200 answers to what `reads` asks, in the order asked."""
    asked = Reads(base_url, token)
    reads(asked)
    return tuple(asked.answers)


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
