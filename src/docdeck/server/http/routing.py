"""Route dispatch by an index instead of a scan of every route.

FastAPI tries the routes in order until one matches, and each try costs about 4 us (0.165
checks more per route than Starlette did): the 44th route paid ~170 us before its handler ran,
more than the whole of a bare app's request, and every later endpoint would add to that for
the routes behind it. `RouteIndex` groups the routes by the shape of their path (the number of
segments and the segments that hold names, `/v1/spaces/{spaceId}/<area>/{id}/<part>`) and
hands a request to a copy of the router holding only its group, in the original order. A path that
no route of its group matches (a 404, a trailing slash to redirect) goes to the full router,
so what is answered never changes, only how fast.

Each route is matched once per request: the group's copy answers what its routes match and
hands anything else to the full router as its `default` (with its own trailing-slash redirect
off, since only the full router knows every route). A check of the group before handing it
the request matched the route a second time, about 10% of a small GET.
"""

from __future__ import annotations

import copy
import functools
from typing import Any

from starlette.routing import BaseRoute, Route
from starlette.types import Receive, Scope, Send

Key = tuple[int, tuple[str, ...]]
KEY_SEGMENTS = (1, 2, 4, 6)
"""Where the API's paths hold names (`/v1/spaces/{spaceId}/change-requests/{id}/comments`):
the segments a group is told apart by, besides the number of segments."""
MAX_KEYS = 4096
"""Groups kept at once; a path whose second segment is a value (`/s/{orgKey}/...`) makes a
key per value, so the cache is emptied when it is full rather than growing without bound."""


def _key(path: str) -> Key:
    parts = path.split("/")
    size = len(parts)
    if size > 6:  # KEY_SEGMENTS spelled out: this runs for every request
        return size, (parts[1], parts[2], parts[4], parts[6])
    parts += [""] * (7 - size)
    return size, (parts[1], parts[2], parts[4], parts[6])


class _Shape:
    """What a route's path says about the paths it can match: its number of segments (at
    least that many with a `{name:path}` convertor, which spans several), and its segments at
    `KEY_SEGMENTS` where they are fixed (None where they are a parameter, absent, or follow a
    `{name:path}` that may span several segments)."""

    def __init__(self, path: str) -> None:
        parts = path.split("/")
        self.size = len(parts)
        self.open_ended = any(part.endswith(":path}") for part in parts)

        def fixed(i: int) -> str | None:
            if len(parts) <= i or "{" in parts[i]:
                return None
            if any(part.endswith(":path}") for part in parts[:i]):
                return None
            return parts[i]

        self.names = tuple(fixed(i) for i in KEY_SEGMENTS)

    def may_match(self, key: Key) -> bool:
        size, names = key
        if size < self.size if self.open_ended else size != self.size:
            return False
        return all(mine in (None, theirs) for mine, theirs in zip(self.names, names, strict=True))


@functools.cache
def shape_of(path: str) -> _Shape:
    """The shape of a route's path, worked out once per path in a process (a shape is never
    changed): each app built in a process (the tests make one per test) indexes the same
    300-odd routes twice (the route index and the fast lane)."""
    return _Shape(path)


class RouteIndex:
    """Installed as a router's `middleware_stack`: dispatches to the group of routes a path can
    match, built on first use for each key (segment count and named segments) and kept.
    Rebuilt when routes are added (deferred routes, tests adding some after the app is built).
    A router holding anything but plain routes (a mount) keeps the full scan."""

    def __init__(self, router: Any) -> None:
        self.router = router
        self._built_for = -1
        self._shapes: list[tuple[_Shape, BaseRoute]] | None = None
        self._groups: dict[Key, Any] = {}

    def _build(self) -> None:
        routes: list[BaseRoute] = list(self.router.routes)
        # FastAPI's low-priority routes are tried after the trailing-slash redirect; a group
        # would try them first, so a router holding some keeps the full scan.
        plain = all(isinstance(route, Route) for route in routes) and not getattr(
            self.router, "_low_priority_routes", None
        )
        self._shapes = (
            [(shape_of(route.path), route) for route in routes if isinstance(route, Route)]
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
            group.redirect_slashes = False  # no route of the group matches: the full router
            group.default = self.router.app  # decides (a redirect, a 404), knowing every route
            self._groups[key] = group
        return group

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            if len(self.router.routes) != self._built_for:
                self._build()
            group = self._group(_key(scope["path"]))
            if group is not None:
                scope.setdefault("router", self.router)  # url_path_for knows every route
                await group.app(scope, receive, send)
                return
        await self.router.app(scope, receive, send)


def install_route_index(app: Any) -> None:
    """Dispatch `app`'s requests through a `RouteIndex`, unless its router already wraps its
    dispatch in middleware (then it keeps the plain scan)."""
    router = app.router
    if router.middleware_stack == router.app:
        router.middleware_stack = RouteIndex(router)
