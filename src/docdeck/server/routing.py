"""Route dispatch by an index instead of a scan of every route.

FastAPI tries the routes in order until one matches, and each try costs about 4 us (0.165
checks more per route than Starlette did): the 44th route paid ~170 us before its handler ran,
more than the whole of a bare app's request, and every later endpoint would add to that for
the routes behind it. `RouteIndex` groups the routes by the shape of their path (the number of
segments, the first two segments, which are fixed in every route of the API, and the fourth,
which names the area under one space, `/v1/spaces/{spaceId}/<area>/...`) and hands a
request to a copy of the router holding only its group, in the original order. A path that
no route of its group matches (a 404, a trailing slash to redirect) goes to the full router,
so what is answered never changes, only how fast.
"""

from __future__ import annotations

import copy
from typing import Any

from starlette.routing import BaseRoute, Match, Route
from starlette.types import Receive, Scope, Send

Key = tuple[int, str, str, str]
MAX_KEYS = 4096
"""Groups kept at once; a path whose second segment is a value (`/s/{orgKey}/...`) makes a
key per value, so the cache is emptied when it is full rather than growing without bound."""


def _key(path: str) -> Key:
    parts = path.split("/")
    first = parts[1] if len(parts) > 1 else ""
    second = parts[2] if len(parts) > 2 else ""
    fourth = parts[4] if len(parts) > 4 else ""
    return len(parts), first, second, fourth


class _Shape:
    """What a route's path says about the paths it can match: its number of segments (at
    least that many with a `{name:path}` convertor, which spans several), and its first two
    segments and its fourth where they are fixed (None where they are a parameter, or follow a
    `{name:path}` that may span several segments)."""

    def __init__(self, path: str) -> None:
        parts = path.split("/")
        self.size = len(parts)
        self.open_ended = any(part.endswith(":path}") for part in parts)
        self.first = None if len(parts) < 2 or "{" in parts[1] else parts[1]
        self.second = None if len(parts) < 3 or "{" in parts[2] else parts[2]
        spans_before = any(part.endswith(":path}") for part in parts[:4])
        fixed = len(parts) > 4 and "{" not in parts[4] and not spans_before
        self.fourth = parts[4] if fixed else None

    def may_match(self, key: Key) -> bool:
        size, first, second, fourth = key
        if size < self.size if self.open_ended else size != self.size:
            return False
        return (
            self.first in (None, first)
            and self.second in (None, second)
            and self.fourth in (None, fourth)
        )


class RouteIndex:
    """Installed as a router's `middleware_stack`: dispatches to the group of routes a path can
    match, built on first use for each (segment count, first, second, fourth segment) and kept.
    Rebuilt when routes are added (deferred routes, tests adding some after the app is built).
    A router holding anything but plain routes (a mount) keeps the full scan."""

    def __init__(self, router: Any) -> None:
        self.router = router
        self._built_for = -1
        self._shapes: list[tuple[_Shape, BaseRoute]] | None = None
        self._groups: dict[Key, Any] = {}

    def _build(self) -> None:
        routes: list[BaseRoute] = list(self.router.routes)
        plain = all(isinstance(route, Route) for route in routes)
        self._shapes = (
            [(_Shape(route.path), route) for route in routes if isinstance(route, Route)]
            if plain
            else None
        )
        self._groups = {}
        self._built_for = len(routes)

    def _group(self, key: Key) -> Any:
        group = self._groups.get(key)
        if group is None and self._shapes is not None:
            if len(self._groups) >= MAX_KEYS:
                self._groups.clear()
            group = copy.copy(self.router)
            group.routes = [route for shape, route in self._shapes if shape.may_match(key)]
            self._groups[key] = group
        return group

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            if len(self.router.routes) != self._built_for:
                self._build()
            group = self._group(_key(scope["path"]))
            if group is not None and any(
                route.matches(scope)[0] is not Match.NONE for route in group.routes
            ):
                await group.app(scope, receive, send)
                return
        await self.router.app(scope, receive, send)


def install_route_index(app: Any) -> None:
    """Dispatch `app`'s requests through a `RouteIndex`, unless its router already wraps its
    dispatch in middleware (then it keeps the plain scan)."""
    router = app.router
    if router.middleware_stack == router.app:
        router.middleware_stack = RouteIndex(router)
