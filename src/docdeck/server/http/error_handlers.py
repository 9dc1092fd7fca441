"""The HTTP side of the one error shape: `ApiError`s, FastAPI's validation errors and
Starlette's 404/405 answered as `{"error": {"code", "message"}}` (the vocabulary is in
`server/errors.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docdeck.server.errors import ApiError, describe_errors

if TYPE_CHECKING:  # FastAPI is imported only by the app, not by services and the demo loader.
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse


def error_response(
    status: int, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    from fastapi.responses import JSONResponse

    return JSONResponse(
        {"error": {"code": status, "message": message}}, status_code=status, headers=headers
    )


async def _api_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.message, exc.headers)


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    errors = getattr(exc, "errors", None)
    found = list(errors() if callable(errors) else [])
    if request.url.path.startswith("/v1/") and any(e.get("type") == "json_invalid" for e in found):
        # FastAPI decodes the body before it runs the dependencies, so a malformed body would
        # otherwise be judged before the token; a caller without a valid token gets the 401.
        from docdeck.server.http.context import authenticate

        try:
            await authenticate(request)
        except ApiError as error:
            return error_response(error.status, error.message, error.headers)
    return error_response(400, describe_errors(found))


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    from starlette.exceptions import HTTPException as StarletteHTTPException

    assert isinstance(exc, StarletteHTTPException)
    method = "HEAD" if request.scope.get("docdeck.head") else request.method
    if exc.status_code == 404:
        message = f"no route {method} {request.url.path}"
    elif exc.status_code == 405:
        message = f"method {method} is not allowed on {request.url.path}"
    else:
        message = str(exc.detail)
    return error_response(exc.status_code, message, dict(exc.headers or {}) or None)


def install_error_handlers(app: FastAPI) -> None:
    from fastapi.exceptions import RequestValidationError
    from pydantic import ValidationError
    from starlette.exceptions import HTTPException as StarletteHTTPException

    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(ValidationError, _validation_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
