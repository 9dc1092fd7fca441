"""Routes registered after the server is ready: the start-up does not grow with the API.

Importing a router module builds its routes (FastAPI analyses every endpoint's signature and
response model), about a millisecond a route. The organization tree - what a TUI asks for
first - needs five router modules; the other twelve (space content, revisions, files, sites,
published pages, ...) were half of the app's build, on the critical path of a first start.

With deferral, `create_app` registers the first five, and the others are imported in a
thread shortly after the server starts (the event loop keeps answering meanwhile). A request
that arrives before that and is not for one of the first routes - `/openapi.json` included,
so the document is always complete - waits for the import (once, about as long as the import
took before), then is routed as usual. Nothing else changes: the same routes, in the same
order, answer the same way.

Other start-up work that only those routes need runs in the same step, before they are
registered (`run_before`): `docdeck serve` loads the demo's content there, so a request for
a page waits until the pages exist. Work that changes what some first routes answer names
them (`holds`, parts of a path): until it is done, those wait too. The demo's content gives
every space its revision and its change-request counts, so a space (or a list of spaces)
read before it would name the empty revision the space had before: a client that opened
that space would show no pages.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import threading
from collections.abc import Callable, Sequence

from fastapi import FastAPI
from starlette.routing import BaseRoute, Match
from starlette.types import ASGIApp, Receive, Scope, Send

WARM_AFTER_S = 1.0
"""How long after start-up the deferred routes are imported when no request asked first:
long enough for a TUI's first requests to be answered without competing with the import."""


def router_routes(modules: Sequence[str]) -> list[BaseRoute]:
    """The routes of router modules (`named_modules`), in order (importing them builds them),
    the reads among them given the fast request path (`fast_routes`)."""
    from docdeck.models._base import build_request_bodies_at_once
    from docdeck.server.http.fast_routes import install_fast_routes

    build_request_bodies_at_once()  # before any route reads a body model
    routes: list[BaseRoute] = []
    for name in modules:
        routes.extend(importlib.import_module(name).router.routes)
    install_fast_routes(routes)
    return routes


class DeferredRoutes:
    """The router modules of an app that are imported after start-up, once."""

    def __init__(self, app: FastAPI, modules: Sequence[str], first: Sequence[BaseRoute]) -> None:
        self.app = app
        self.modules = tuple(modules)
        self.first = tuple(first)
        self.loaded = False
        self._import_lock = threading.Lock()
        self._routes: list[BaseRoute] | None = None
        self._task: asyncio.Task[None] | None = None
        self._before: list[Callable[[], object]] = []
        self._held: tuple[str, ...] = ()

    def run_before(self, work: Callable[[], object], *, holds: Sequence[str] = ()) -> None:
        """Runs `work` in the import's thread, before the deferred routes are registered;
        requests whose path contains one of `holds` wait for it (what it changes)."""
        self._before.append(work)
        self._held += tuple(holds)

    def needs(self, scope: Scope) -> bool:
        """Whether `scope` must wait for the import: any path that no first route has
        (whatever the method, so a 405 stays a 405), and a path held by start-up work."""
        path: str = scope.get("path", "")
        if any(part in path for part in self._held):
            return True
        return not any(route.matches(scope)[0] != Match.NONE for route in self.first)

    def _import_routes(self) -> list[BaseRoute]:
        with self._import_lock:
            if self._routes is None:
                routes = router_routes(self.modules)
                for work in self._before:
                    try:
                        work()
                    except Exception:  # the routes must come all the same
                        logging.getLogger("docdeck.server").exception("start-up work failed")
                self._routes = routes
            return self._routes

    def _install(self, routes: list[BaseRoute]) -> None:
        if self.loaded:
            return
        # On the event loop's thread, between requests: routing never sees half a list.
        self.app.router.routes.extend(routes)
        self.app.openapi_schema = None  # built again, now with every route
        self.loaded = True
        gc.freeze()  # as `docdeck serve` does with what it built before starting

    def load_now(self) -> None:
        """Import and register at once (tests, and callers outside an event loop)."""
        self._install(self._import_routes())

    async def load(self) -> None:
        """Import in a thread (once, however many requests wait), then register."""
        if self.loaded:
            return
        if self._task is None:
            self._task = asyncio.ensure_future(self._load())
        await asyncio.shield(self._task)

    async def _load(self) -> None:
        self._install(await asyncio.to_thread(self._import_routes))

    async def load_soon(self, delay: float = WARM_AFTER_S) -> None:
        await asyncio.sleep(delay)
        await self.load()


class LoadDeferredRoutes:
    """ASGI middleware: a request for a route not registered yet waits for it."""

    def __init__(self, app: ASGIApp, deferred: DeferredRoutes) -> None:
        self.app = app
        self.deferred = deferred

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not self.deferred.loaded and scope["type"] == "http" and self.deferred.needs(scope):
            await self.deferred.load()
        await self.app(scope, receive, send)
