"""A faster request path for the API's reads, shared by every router.

FastAPI solves a route's dependencies afresh on every request: it re-inspects each parameter's
annotation (is it a sequence? a model? which aliases?), classifies every dependency callable
again and builds its error context, which cost more than the handler's own work on the hot
GETs (about half of `GET /v1/orgs`'s time in process). None of that depends on the request.

`install_fast_routes` works that out once per route, at start-up, and gives each eligible
route a handler that only reads the request: path and query values are validated by the same
pydantic fields FastAPI built (so the accepted values are the same), the async dependencies
are called in FastAPI's order with the same per-request cache, and the handler's `Response`
is sent as is. A route is eligible when everything it declares is of a kind the plan handles:
path and query parameters, `Request`, and async function dependencies of the same kinds; the
handler is async and returns a `Response`. Anything else (bodies, headers, sync or generator
dependencies) keeps FastAPI's own path. A request whose values do not validate is handed to
FastAPI's path too, so every error answer (and its order: 401 before 400) is FastAPI's own.
The OpenAPI document is unchanged: it is built from the same declarations.
"""

from __future__ import annotations

import inspect
import types
import typing
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette._exception_handler import wrap_app_handling_exceptions
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["FAST_PLAN", "SLOW_APP", "install_fast_routes", "run_bound"]

SLOW_APP = "_docdeck_slow_app"
"""The route attribute keeping FastAPI's own handler of a route given the fast path (its
presence also marks the route as done): the fast path falls back to it, and the tests compare
both paths' answers request by request."""

FAST_PLAN = "_docdeck_fast_plan"
"""The route attribute holding `(plan, fast app)`: `fast_lane` runs the plan itself while the
route's `app` is still that fast app (a test that swaps in FastAPI's own handler turns it off)."""


class _Unsupported(Exception):
    """The route declares something the plan does not handle: it keeps FastAPI's path."""


_IMMUTABLE = (type(None), bool, int, float, str, bytes, tuple, frozenset)


@dataclass
class _Param:
    name: str
    alias: str
    where: str
    field: Any
    sequence: bool
    optional: bool
    """Absent, it takes its default (no validation): neither required nor `validate_default`."""
    default: Any = None
    shared_default: bool = False
    """The default is immutable, so every request can share the object `field.default` makes
    (pydantic copies only mutable defaults): it is read once, not on every request."""


@dataclass
class _Plan:
    """One callable (the handler or a dependency) and what it is called with."""

    call: Callable[..., Awaitable[Any]]
    request_name: str | None
    params: list[_Param] = field(default_factory=list)
    dependencies: list[tuple[str | None, _Plan]] = field(default_factory=list)
    flat: list[_Plan] = field(default_factory=list)
    """This plan and every plan below it, depth first: what `_bind` validates, in FastAPI's
    order, without recursing on every request."""
    order: list[_Plan] = field(default_factory=list)
    """The plans to call, each callable once, in the order FastAPI calls them (a dependency's
    own dependencies before it, this plan last): what `_run` calls, in one loop."""


def _is_sequence(annotation: Any) -> bool:
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return any(_is_sequence(arg) for arg in typing.get_args(annotation))
    return origin in (list, set, tuple, frozenset, Sequence) or annotation in (list, set, tuple)


def _param(model_field: Any, where: str) -> _Param:
    info = model_field.field_info
    if getattr(info, "metadata", None) and any(
        type(item).__name__ == "Json" for item in info.metadata
    ):
        raise _Unsupported("a JSON-encoded parameter")
    annotation = info.annotation
    if inspect.isclass(annotation) and hasattr(annotation, "model_fields"):
        raise _Unsupported("a parameter model")
    alias = model_field.alias or model_field.name
    if getattr(info, "validation_alias", None) not in (None, alias):
        raise _Unsupported("a validation alias")
    optional = not (info.is_required() or info.validate_default)
    param = _Param(model_field.name, alias, where, model_field, _is_sequence(annotation), optional)
    if optional and type(default := model_field.default) in _IMMUTABLE:
        param.default, param.shared_default = default, True
    return param


def _plan(dependant: Dependant) -> _Plan:
    call = dependant.call
    if call is None or not inspect.iscoroutinefunction(call):
        raise _Unsupported("not an async function")
    if (
        dependant.header_params
        or dependant.cookie_params
        or dependant.body_params
        or dependant.websocket_param_name
        or dependant.http_connection_param_name
        or dependant.response_param_name
        or dependant.background_tasks_param_name
        or dependant.security_scopes_param_name
    ):
        raise _Unsupported("headers, cookies, a body or a special parameter")
    plan = _Plan(call, dependant.request_param_name)
    plan.params = [_param(f, "path") for f in dependant.path_params]
    plan.params += [_param(f, "query") for f in dependant.query_params]
    plan.dependencies = [(sub.name, _plan(sub)) for sub in dependant.dependencies]
    plan.flat = [plan, *(below for _, sub in plan.dependencies for below in sub.flat)]
    plan.order = _call_order(plan)
    return plan


def _call_order(plan: _Plan) -> list[_Plan]:
    """`plan`'s dependencies in the order FastAPI solves them - depth first, a callable
    already called answered from the request's cache, not called again - then `plan`."""
    order: list[_Plan] = []
    called: set[Callable[..., Any]] = set()

    def visit(each: _Plan) -> None:
        for _, sub in each.dependencies:
            if sub.call not in called:
                visit(sub)
                called.add(sub.call)
                order.append(sub)

    visit(plan)
    order.append(plan)
    return order


def _returns_response(call: Callable[..., Any]) -> bool:
    try:
        hint = typing.get_type_hints(call).get("return")
    except Exception:  # an annotation that cannot be resolved: let FastAPI handle the route
        return False
    return inspect.isclass(hint) and issubclass(hint, Response)


class _Query:
    """A query string's values as `request.query_params` reads them (`parse_qsl` of the
    Latin-1 text, blank values kept; `get` gives the last of a repeated name, `getlist` all
    in order), without Starlette's multidict: building it was about half of `_bind`'s time
    on a GET with a query string (15 us against 7 us for `format=markdown`)."""

    __slots__ = ("last", "pairs")

    def __init__(self, raw: bytes | str) -> None:
        text = raw.decode("latin-1") if isinstance(raw, bytes) else raw
        if "%" in text or "+" in text:
            self.pairs = parse_qsl(text, keep_blank_values=True)
        else:  # nothing to unquote: `parse_qsl`'s pairs, without its per-value unquoting
            self.pairs = [(n, v) for n, _, v in (p.partition("=") for p in text.split("&") if p)]
        self.last = dict(self.pairs)

    def __len__(self) -> int:
        return len(self.last)

    def get(self, name: str) -> str | None:
        return self.last.get(name)

    def getlist(self, name: str) -> list[str]:
        return [value for key, value in self.pairs if key == name]


def _bind(plan: _Plan, request: Request, out: dict[int, dict[str, Any]]) -> bool:
    """Validate the path and query values of `plan` and its dependencies into `out` (by plan
    id); False as soon as one is missing without a default or invalid."""
    scope = request.scope
    # No query string (most requests): nothing to parse, every query parameter is absent.
    raw_query = scope.get("query_string")
    query: Any = _Query(raw_query) if raw_query else {}
    path = scope.get("path_params", {})
    for each in plan.flat:
        values: dict[str, Any] = {}
        for param in each.params:
            if param.where == "path":
                raw: Any = path.get(param.alias)
            elif param.sequence:
                raw = (query.getlist(param.alias) or None) if query else None
            else:
                raw = query.get(param.alias)
            if raw is None:
                if not param.optional:
                    return False
                values[param.name] = param.default if param.shared_default else param.field.default
                continue
            value, errors = param.field.validate(raw, values, loc=(param.where, param.alias))
            if errors:
                return False
            values[param.name] = value
        out[id(each)] = values
    return True


async def _run(plan: _Plan, request: Request, bound: dict[int, dict[str, Any]]) -> Any:
    """Call `plan.order` in turn (a loop, not a recursion: a GET's dependencies are called
    as FastAPI calls them, each once per request), each with its bound values (`_bind`'s
    dicts, made for this request), the values of its dependencies and the request."""
    values: dict[Callable[..., Any], Any] = {}
    value: Any = None
    for each in plan.order:
        kwargs = bound[id(each)]
        for name, sub in each.dependencies:
            if name is not None:
                kwargs[name] = values[sub.call]
        if each.request_name is not None:
            kwargs[each.request_name] = request
        value = values[each.call] = await each.call(**kwargs)
    return value


async def run_bound(plan: _Plan, request: Request) -> Response | None:
    """The handler's response for `request` (whose scope holds the route's `path_params`), or
    None when a value does not validate: FastAPI's own path must then answer the error."""
    bound: dict[int, dict[str, Any]] = {}
    if not _bind(plan, request, bound):
        return None
    response: Response = await _run(plan, request, bound)
    return response


def _fast_app(plan: _Plan, slow: ASGIApp) -> ASGIApp:
    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        request = Request(scope, receive, send)
        bound: dict[int, dict[str, Any]] = {}
        if not _bind(plan, request, bound):
            await slow(scope, receive, send)  # FastAPI's own path answers the error
            return

        async def respond(scope: Scope, receive: Receive, send: Send) -> None:
            response = await _run(plan, request, bound)
            await response(scope, receive, send)

        await wrap_app_handling_exceptions(respond, request)(scope, receive, send)

    return app


def install_fast_routes(routes: Sequence[Any]) -> int:
    """Give every eligible GET route of `routes` the fast path; the number given it.

    Called after routes are registered and again when deferred routes arrive: routes already
    done are skipped."""
    count = 0
    for route in routes:
        if not isinstance(route, APIRoute) or hasattr(route, SLOW_APP):
            continue
        if route.methods != {"GET"} or not _returns_response(route.endpoint):
            continue
        try:
            plan = _plan(route.dependant)
        except _Unsupported:
            continue
        setattr(route, SLOW_APP, route.app)
        route.app = _fast_app(plan, route.app)
        setattr(route, FAST_PLAN, (plan, route.app))
        count += 1
    return count
