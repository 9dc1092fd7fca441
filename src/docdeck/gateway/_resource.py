"""The base of every resource group, and the registry of endpoints the gateway covers."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar, cast, overload

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
    "in_change_request",
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


G = TypeVar("G", bound=Resource)
P = ParamSpec("P")
R = TypeVar("R")


class in_change_request(Generic[G, P, R]):
    """An operation of `group`, declared there once for every place its content lives, read
    as a change request's: `space_id, change_request, *rest` calls
    `group.operation(space_id, *rest, change_request=change_request)`.

    So `client.change_requests.content.page(space, cr, page_id, format=...)` is
    `client.content.page(space, page_id, format=..., change_request=cr)` with the change
    request where its users look for it, without declaring the operation a second time."""

    def __init__(self, group: type[G], operation: Callable[Concatenate[G, str, P], R]) -> None:
        self._group = group
        self._name = operation.__name__
        self.__doc__ = operation.__doc__

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> in_change_request[G, P, R]: ...
    @overload
    def __get__(
        self, obj: Resource, owner: type[Any]
    ) -> Callable[Concatenate[str, str | int, P], R]: ...
    def __get__(
        self, obj: Resource | None, owner: type[Any]
    ) -> in_change_request[G, P, R] | Callable[Concatenate[str, str | int, P], R]:
        if obj is None:
            return self
        operation = cast(Callable[..., R], getattr(self._group(obj._transport), self._name))

        def in_change_request(
            space_id: str, change_request: str | int, /, *args: P.args, **kwargs: P.kwargs
        ) -> R:
            return operation(space_id, *args, change_request=change_request, **kwargs)

        in_change_request.__name__ = in_change_request.__qualname__ = self._name
        in_change_request.__doc__ = self.__doc__
        return in_change_request
