"""How far a content import may go (`ImportPolicy`); the fetching itself, with its address
filter, deadline and pool, is the server's outbound mechanism (`docdeck.server.outbound`),
shared with every other request the sandbox makes to another server."""

from __future__ import annotations

from dataclasses import dataclass

from docdeck.server.outbound import FetchError, check_url
from docdeck.server.outbound import resolve as _resolve

__all__ = ["FetchError", "ImportPolicy", "check_url", "resolve"]


@dataclass(frozen=True)
class ImportPolicy:
    allow_loopback: bool = False
    max_pages: int = 50
    max_page_bytes: int = 2_000_000
    max_total_bytes: int = 10_000_000
    timeout: float = 5.0
    """Seconds to connect, and at most between two reads."""
    deadline: float = 30.0
    """Seconds for the whole import, whatever the remote does."""


def resolve(host: str, port: int, policy: ImportPolicy) -> str:
    """One checked address of `host` under `policy`."""
    return _resolve(host, port, policy.allow_loopback)
