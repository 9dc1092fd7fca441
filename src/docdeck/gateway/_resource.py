"""The base of every resource group, and the registry of endpoints the gateway covers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import ConfigDict

from docdeck.gateway._pagination import AsyncPaginator
from docdeck.gateway._path import PathSegments, endpoint_path, path_template, seg
from docdeck.gateway._transport import Transport
from docdeck.gateway._types import query_of

__all__ = [
    "COVERED_ENDPOINTS",
    "DEFERRED",
    "PathSegments",
    "Resource",
    "endpoint",
    "endpoint_path",
    "path_template",
    "seg",
]

DEFERRED = ConfigDict(defer_build=True)
"""The config of a module-level `TypeAdapter` for a union of responses: its validator is
built on first use, not when the gateway is imported (eagerly, the content and site unions
cost ~100 ms each of the TUI's start, before its first request)."""

COVERED_ENDPOINTS: set[str] = set()
"""`METHOD /v1/path/{param}` of every endpoint a gateway method calls (reference spelling)."""

F = TypeVar("F", bound=Callable[..., Any])


def endpoint(method: str, path: str) -> Callable[[F], F]:
    """Record that the decorated method calls this endpoint (read by the coverage test), and
    the path its URL is built from (`endpoint_path`). Stacked, one per parent it exists under."""
    COVERED_ENDPOINTS.add(f"{method} {path}")

    def mark(func: F) -> F:
        declared: tuple[tuple[str, str], ...] = getattr(func, "__endpoints__", ())
        func.__endpoints__ = ((method, path), *declared)  # type: ignore[attr-defined]
        return func

    return mark


class Resource:
    """A thin group of methods over the shared transport."""

    def __init__(self, transport: Transport) -> None:
        self._transport = transport

    def _list(self, path: str, item: type[Any], **params: Any) -> AsyncPaginator[Any]:
        return AsyncPaginator(self._transport, path, item, query_of(**params))
