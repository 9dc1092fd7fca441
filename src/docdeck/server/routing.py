"""Route dispatch by an index instead of a scan of every route.

FastAPI tries the routes in order until one matches, and each try costs about 4 us (0.165
checks more per route than Starlette did): the 44th route paid ~170 us before its handler ran,
more than the whole of a bare app's request, and every later endpoint would add to that for
the routes behind it. `RouteIndex` groups the routes by the shape of their path (the number of
segments and the first two segments, which are fixed in every route of the API) and hands a
request to a copy of the router holding only its group, in the original order. A path that
no route of its group matches (a 404, a trailing slash to redirect) goes to the full router,
so what is answered never changes, only how fast.
"""

from __future__ import annotations

import copy
from typing import Any

from starlette.routing import BaseRoute, Match, Route
from starlette.types import Receive, Scope, Send

Key = tuple[int, str, str]


def _key(path: str) -> Key | None:
    parts = path.split("/")
    first = parts[1] if len(parts) > 1 else ""
    second = parts[2] if len(parts) > 2 else ""
    if "{" in first or "{" in second:
        return None
    return len(parts), first, second


class RouteIndex:
    """Installed as a router's `middleware_stack`: dispatches to the group of routes a path can
    match. Rebuilt when routes are added (tests add some after the app is built)."""

    def __init__(self, router: Any) -> None:
        self.router = router
        self._built_for = -1
        self._groups: dict[Key, Any] = {}

    def _build(self) -> None:
        routes: list[BaseRoute] = list(self.router.routes)
        groups: dict[Key, list[BaseRoute]] = {}
        plain = all(
            isinstance(r, Route) and ":" not in r.path and _key(r.path) is not None for r in routes
        )
        if plain:  # otherwise (a mount, a path convertor) every request takes the full scan
            for route in routes:
                assert isinstance(route, Route)
                key = _key(route.path)
                assert key is not None
                groups.setdefault(key, []).append(route)
        self._groups = {}
        for key, members in groups.items():
            group = copy.copy(self.router)
            group.routes = members
            self._groups[key] = group
        self._built_for = len(routes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            if len(self.router.routes) != self._built_for:
                self._build()
            key = _key(scope["path"])
            group = self._groups.get(key) if key is not None else None
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
