"""The server's own `/openapi.json`, made to say what the server really does.

FastAPI documents a 422 on every operation with inputs (the sandbox never sends one: its
validation errors are 400s), no error body, no security scheme, and operation ids made from
function names. A client generated from that, or a fuzzer reading it, is misled. So:

- every route names its platform operation id (`"getSpaceById"`, taken from the platform's
  OpenAPI document) so the two documents can be compared operation by operation, and lists
  the error statuses particular to it (`errors(403, 404)`); an area's `Router` declares both
  in the route's one line: `@router.get(path, "getSpaceById", Space, 403, 404)`;
- `install_openapi` adds what holds for every `/v1` operation: 401 (every one authenticates),
  400 (the intake checks every path and query value), 413 where the method carries a body
  (the intake's size limit), the one error body schema
  `{"error": {"code", "message"}}` on every 4xx, and the bearer scheme (named `user`, as on
  the platform); and it drops the 422 FastAPI adds by itself.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fastapi import FastAPI
    from starlette.routing import BaseRoute

ERROR_DESCRIPTIONS: dict[int, str] = {
    400: "Bad Request: an input is invalid; the message names the field.",
    401: "Unauthorized: the bearer token is missing or unknown.",
    403: "Forbidden: the caller's role does not allow this.",
    404: "Not Found: no such resource, or the caller may not see it.",
    409: "Conflict: the move or transfer would change nothing or conflicts.",
    413: "Payload Too Large: the body exceeds the documented limit.",
}
SECURITY_SCHEME = "user"
_ERROR_SCHEMA_REF = {"$ref": "#/components/schemas/ErrorBody"}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """`responses=` for a route: the error statuses it answers besides 400 and 401 (those two
    are added for every `/v1` operation that can answer them)."""
    return {status: {"description": ERROR_DESCRIPTIONS[status]} for status in statuses}


Declare = Callable[..., Callable[[Callable[..., Any]], Callable[..., Any]]]


class Router:
    """An area's router, its operations each declared in one line:
    `@router.get(path, "getSpaceById", Space, 403, 404, status=201)` stands for FastAPI's
    `@APIRouter.get(path, operation_id="getSpaceById", response_model=Space,
    responses=errors(403, 404), status_code=201)`. `answer` None: no response model (a 204);
    `responses=` adds documented answers of its own after the errors. `routes` are the
    FastAPI routes made, which the app mounts."""

    def __init__(self, **options: Any) -> None:
        from fastapi import APIRouter

        self.router = APIRouter(**options)
        self.get = self._method("get")
        self.post = self._method("post")
        self.put = self._method("put")
        self.patch = self._method("patch")
        self.delete = self._method("delete")

    @property
    def routes(self) -> list[BaseRoute]:
        return self.router.routes

    def _method(self, method: str) -> Declare:
        def declare(
            path: str,
            operation_id: str,
            answer: Any = None,
            *statuses: int,
            status: int | None = None,
            responses: dict[int | str, dict[str, Any]] | None = None,
            **options: Any,
        ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
            if answer is not None:
                options["response_model"] = answer
            if status is not None:
                options["status_code"] = status
            route: Callable[[Callable[..., Any]], Callable[..., Any]] = getattr(
                self.router, method
            )(
                path,
                operation_id=operation_id,
                responses={**errors(*statuses), **(responses or {})},
                **options,
            )
            return route

        return declare


_BODY_METHODS = {"post", "put", "patch", "delete"}


def _error_response(status: int) -> dict[str, Any]:
    return {
        "description": ERROR_DESCRIPTIONS.get(status, "Error"),
        "content": {"application/json": {"schema": _ERROR_SCHEMA_REF}},
    }


def honest_document(document: dict[str, Any]) -> dict[str, Any]:
    """`document` (as FastAPI generated it) with the error statuses, error body and security
    the server really has."""
    from docdeck.models import ErrorBody

    components = document.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    for name in ("HTTPValidationError", "ValidationError"):
        schemas.pop(name, None)
    error_schema = ErrorBody.model_json_schema(ref_template="#/components/schemas/{model}")
    schemas.update(error_schema.pop("$defs", {}))
    schemas["ErrorBody"] = error_schema
    components["securitySchemes"] = {SECURITY_SCHEME: {"type": "http", "scheme": "bearer"}}
    document["security"] = [{SECURITY_SCHEME: []}]
    for path, item in document.get("paths", {}).items():
        for method, operation in item.items():
            responses: dict[str, Any] = operation.setdefault("responses", {})
            responses.pop("422", None)
            if path.startswith("/v1/"):
                responses.setdefault("401", {})
                # Every /v1 request passes the intake (intake.py): a path or query value that
                # is not valid UTF-8 is a 400 on any operation, a body over the limit a 413 on
                # any operation whose method carries one.
                responses.setdefault("400", {})
                if method in _BODY_METHODS:
                    responses.setdefault("413", {})
            for status in list(responses):
                if status.startswith("4"):
                    description = responses[status].get("description")
                    responses[status] = _error_response(int(status))
                    if description:
                        responses[status]["description"] = description
            operation["responses"] = dict(sorted(responses.items()))
    return document


def install_openapi(app: FastAPI) -> None:
    """Serve `honest_document` as `/openapi.json` (built once, on first request)."""
    from fastapi.openapi.utils import get_openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = honest_document(
                get_openapi(
                    title=app.title,
                    version=app.version,
                    description=app.description,
                    routes=app.routes,
                )
            )
            # The document (~25,000 dicts and lists) lives as long as the server: frozen, as
            # `docdeck serve` freezes what it built before starting, it is not walked again.
            # Left to the collector, the generation-1 pass that promoted it stopped the event
            # loop for ~50 ms and every full pass after it took ~30 ms more: the p99 of reads
            # measured after a client had asked for the document (`bench/load.py`).
            gc.freeze()
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
