"""The base of every resource group, and the registry of endpoints the gateway covers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import quote

from pydantic import ConfigDict

from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._transport import Transport
from docdeck.gateway._types import query_of

__all__ = ["COVERED_ENDPOINTS", "DEFERRED", "Resource", "endpoint", "seg"]

DEFERRED = ConfigDict(defer_build=True)
"""The config of a module-level `TypeAdapter` for a union of responses: its validator is
built on first use, not when the gateway is imported (eagerly, the content and site unions
cost ~100 ms each of the TUI's start, before its first request)."""

COVERED_ENDPOINTS: set[str] = set()
"""`METHOD /v1/path/{param}` of every endpoint a gateway method calls (reference spelling)."""

F = TypeVar("F", bound=Callable[..., Any])


def endpoint(method: str, path: str) -> Callable[[F], F]:
    """Record that the decorated method calls this endpoint (read by the coverage test)."""
    COVERED_ENDPOINTS.add(f"{method} {path}")

    def mark(func: F) -> F:
        func.__endpoint__ = f"{method} {path}"  # type: ignore[attr-defined]
        return func

    return mark


def seg(value: str) -> str:
    """One path segment, escaped so an id can never change the path."""
    if not value:
        raise ValueError("an id in the path must not be empty")
    return quote(value, safe="")


class Resource:
    """A thin group of methods over the shared transport."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def _list(self, path: str, item: type[Any], **params: Any) -> AsyncPaginator[Any]:
        return AsyncPaginator(self._transport, path, item, query_of(**params))
