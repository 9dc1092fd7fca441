"""The fast lane: a GET for a route on the fast path is answered here, in one function, in
front of the middleware stack.

A hot GET paid about 40-60 us (a third of `GET /v1/orgs` in process) for the layers it passes
before and after its handler: FastAPI's and Starlette's middleware (server errors, exception
telemetry, body limit, exception handlers, the exit stack), the sandbox's own two (the error
guard, the request intake), the router, the route's `handle`, and two wrappers that each keep
a `response started` flag in a new closure. For a GET of a fast route (`fast_routes`) none of
them has anything to do that this function does not do itself:

- the intake checks the path and query (`check_url`); a GET has no body to bound;
- the route is the first of its path's group (`routing.RouteIndex`'s grouping) whose pattern
  matches with GET, as the router would choose it; its path parameters are converted by the
  route's own convertors and the scope gets what the router would set;
- an exception the handler raises is answered by the app's exception handler for it, as the
  exception middleware would; anything else is logged once and answered 500 (`asgi`);
- HEAD is answered like GET without a body (`asgi.RequestGuard`);
- a GET asked again while the database has not changed is answered from `answer_cache`.

Everything else - another method, a path no fast route matches, a value that does not
validate, an invalid URL, a `root_path` - goes down the full stack unchanged, so every error
answer is still the full stack's own. `tests/server/test_fast_lane.py` sends every GET through
both and compares the answers.
"""

from __future__ import annotations

import logging
from typing import Any

from starlette._exception_handler import _lookup_exception_handler
from starlette._utils import is_async_callable
from starlette.concurrency import run_in_threadpool
from starlette.middleware.exceptions import ExceptionMiddleware
from starlette.requests import Request
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from docdeck.server.http.answer_cache import AnswerCache, CountedClock
from docdeck.server.http.asgi import HEAD_SCOPE_KEY, send_500, without_body
from docdeck.server.http.context import authorization_header
from docdeck.server.http.fast_routes import FAST_PLAN, run_bound
from docdeck.server.http.intake import check_url
from docdeck.server.http.routing import MAX_KEYS, Key, _key, _Shape, shape_of

log = logging.getLogger("docdeck.server")

MAX_KEPT_PATH = 256
"""The longest path whose route `FastLane` remembers (an API path with three ids is about 80
characters), so the table stays small whatever paths clients send."""

_Entry = tuple[Any, dict[str, Any], Route, bool]
"""A route of a group: its path pattern, convertors, the route, whether it answers GET."""


class FastLane:
    """Installed as the app's middleware stack, in front of the full one (`install`)."""

    def __init__(self, app: Any, full: ASGIApp, *, cache: bool = True) -> None:
        self.app = app
        self.full = full
        self.router = app.router
        self.enabled = True
        sandbox = app.state.sandbox
        self._purger = sandbox.purger
        clock = sandbox.clock
        self.cache = (
            AnswerCache(sandbox.db.connection, clock)
            if cache and isinstance(clock, CountedClock)
            else None
        )
        self._deferred = getattr(app.state, "deferred_routes", None)
        """Routes still to be registered (`deferred_routes`): a request that must wait for
        them (or for start-up work that holds its path) goes through the full stack, whose
        middleware waits. None once they are in."""
        self._built_for = -1
        self._shapes: list[tuple[_Shape, Route]] | None = None
        self._groups: dict[Key, list[_Entry]] = {}
        self._found: dict[str, tuple[Route, dict[str, Any]]] = {}
        """The route and path parameters of paths already routed (at most `MAX_KEYS`, each
        at most `MAX_KEPT_PATH` long): a client asks for the same paths again and again, and
        each costs a regex match, its convertors and a group lookup (about 2.5 us)
        otherwise."""
        handlers = {k: v for k, v in app.exception_handlers.items() if k not in (500, Exception)}
        # The exception middleware's own table: its defaults for HTTPException and
        # WebSocketException, then the app's handlers, exactly as the full stack builds it.
        self._handlers = ExceptionMiddleware(full, handlers=handlers)._exception_handlers

    def _build(self) -> None:
        routes = list(self.router.routes)
        plain = all(isinstance(r, Route) for r in routes) and not getattr(
            self.router, "_low_priority_routes", None
        )
        self._shapes = [(shape_of(r.path), r) for r in routes] if plain else None
        self._groups = {}
        self._found = {}
        self._built_for = len(routes)

    def _group(self, key: Key) -> list[_Entry] | None:
        group = self._groups.get(key)
        if group is None and self._shapes is not None:
            if len(self._groups) >= MAX_KEYS:
                self._groups.clear()
            group = [
                (r.path_regex, r.param_convertors, r, "GET" in (r.methods or ()))
                for shape, r in self._shapes
                if shape.may_match(key)
            ]
            self._groups[key] = group
        return group

    def _route(self, path: str) -> tuple[Route, dict[str, Any]] | None:
        """The route the router would choose for a GET of `path`, when it is on the fast
        path, and its converted path parameters (a dict of the caller's own); None when the
        full stack must decide."""
        if len(self.router.routes) != self._built_for:
            self._build()
        found = self._found.get(path)
        if found is None:
            found = self._routed(path)
            if found is None:
                return None
            if len(path) <= MAX_KEPT_PATH:
                if len(self._found) >= MAX_KEYS:
                    self._found.clear()
                self._found[path] = found
        route, params = found
        fast = getattr(route, FAST_PLAN, None)
        if fast is None or route.app is not fast[1]:
            return None
        return route, dict(params)

    def _routed(self, path: str) -> tuple[Route, dict[str, Any]] | None:
        """The route the router would choose for a GET of `path` and its converted path
        parameters, fast or not; None when no route's pattern matches with GET."""
        group = self._group(_key(path))
        if group is None:
            return None
        for regex, convertors, route, gets in group:
            match = regex.match(path)
            if match is None:
                continue
            if not gets:
                continue  # a partial match: the router keeps looking for a full one
            params = {k: convertors[k].convert(v) for k, v in match.groupdict().items()}
            return route, params
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        method = scope.get("method")
        if (
            (method != "GET" and method != "HEAD")
            or scope["type"] != "http"
            or not self.enabled
            or scope.get("root_path")
            or not scope["path"].startswith("/v1/")
            or check_url(scope) is not None
        ):
            await self.full(scope, receive, send)
            return
        deferred = self._deferred
        if deferred is not None:
            if deferred.loaded:
                self._deferred = None
            elif deferred.needs(scope):
                await self.full(scope, receive, send)
                return
        answer = send if method == "GET" else without_body(send)
        cache = self.cache
        kept = None
        if cache is not None and not self._purger.is_due():
            authorization = authorization_header(scope)
            if authorization is not None:
                kept = (scope["path"], scope["query_string"], authorization)
                stamp, hit = cache.lookup(kept)
                if hit is not None:
                    await cache.replay(hit, answer)
                    return
                clock_reads = cache.clock_reads()
        found = self._route(scope["path"])
        if found is None:
            await self.full(scope, receive, send)
            return
        route, params = found
        inner = scope
        if method == "HEAD":
            inner = {**scope, "method": "GET", HEAD_SCOPE_KEY: True}
        if "router" not in inner:
            inner["router"] = self.router
        inner["endpoint"] = route.endpoint
        inner["path_params"] = params
        inner["route"] = route
        request = Request(inner, receive, answer)
        try:
            response = await run_bound(getattr(route, FAST_PLAN)[0], request)
        except Exception as exc:
            response = await self._handled(request, exc)
            if response is None:
                log.exception("unexpected error on %s %s", method, scope["path"])
                await send_500(answer)
                return
        else:
            if response is None:  # a value did not validate: the full stack answers
                await self.full(scope, receive, send)
                return
            if kept is not None:
                assert cache is not None
                cache.keep(kept, stamp, clock_reads, response)
        try:
            await response(inner, receive, answer)
        except Exception:
            log.exception("unexpected error on %s %s", method, scope["path"])

    async def _handled(self, request: Request, exc: Exception) -> Any:
        handler: Any = _lookup_exception_handler(self._handlers, exc)
        if handler is None:
            return None
        if is_async_callable(handler):
            return await handler(request, exc)
        return await run_in_threadpool(handler, request, exc)


def install_fast_lane(app: Any, *, answer_cache: bool = True) -> None:
    """Put a `FastLane` in front of `app`'s middleware stack when the stack is built (on the
    first request, after every middleware and exception handler has been added); with
    `answer_cache`, it answers repeated GETs from an `AnswerCache`."""
    build_full = app.build_middleware_stack

    def build() -> ASGIApp:
        lane = FastLane(app, build_full(), cache=answer_cache)
        app.state.fast_lane = lane
        return lane

    app.build_middleware_stack = build
