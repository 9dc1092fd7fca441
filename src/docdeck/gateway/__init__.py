"""The async client for the v1 API: typed resource groups, pagination, errors, retries."""

from importlib import import_module
from typing import TYPE_CHECKING

from docdeck.gateway import _without_httpx_cli  # noqa: F401  (before httpx is imported)
from docdeck.gateway._client import Client
from docdeck.gateway._errors import (
    APIConnectionError,
    APIError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    AuthenticationError,
    BadRequestError,
    ConflictError,
    DocdeckError,
    InternalServerError,
    NotFoundError,
    OperationUnavailableError,
    PermissionDeniedError,
    PreconditionFailedError,
    RateLimitError,
    UnsendableTextError,
)
from docdeck.gateway._pagination import AsyncPaginator, paginate, repeats_dropped
from docdeck.gateway._transport import Prefetched
from docdeck.gateway._types import NOT_GIVEN, NotGiven

if TYPE_CHECKING:
    from docdeck.gateway._resource import COVERED_ENDPOINTS
    from docdeck.gateway._transport import DEFAULT_TIMEOUT

__all__ = [
    "COVERED_ENDPOINTS",
    "DEFAULT_TIMEOUT",
    "NOT_GIVEN",
    "APIConnectionError",
    "APIError",
    "APIResponseValidationError",
    "APIStatusError",
    "APITimeoutError",
    "AsyncPaginator",
    "AuthenticationError",
    "BadRequestError",
    "Client",
    "ConflictError",
    "DocdeckError",
    "InternalServerError",
    "NotFoundError",
    "NotGiven",
    "OperationUnavailableError",
    "PermissionDeniedError",
    "PreconditionFailedError",
    "Prefetched",
    "RateLimitError",
    "UnsendableTextError",
    "paginate",
    "repeats_dropped",
]


def __getattr__(name: str) -> object:
    """`COVERED_ENDPOINTS`: every endpoint a method of the client calls. Resource groups are
    imported on first use (see `Client`), so all of them are imported before it is read.
    `DEFAULT_TIMEOUT`: an `httpx.Timeout`, so httpx is imported when it is asked for."""
    if name == "DEFAULT_TIMEOUT":
        from docdeck.gateway import _transport

        return _transport.DEFAULT_TIMEOUT
    if name == "COVERED_ENDPOINTS":
        from pkgutil import iter_modules

        from docdeck.gateway import resources
        from docdeck.gateway._resource import COVERED_ENDPOINTS

        for module in iter_modules(resources.__path__):
            import_module(f"{resources.__name__}.{module.name}")
        return COVERED_ENDPOINTS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
