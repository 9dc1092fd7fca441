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
    PermissionDeniedError,
    PreconditionFailedError,
    RateLimitError,
    UnsendableTextError,
)
from docdeck.gateway._pagination import AsyncPaginator, paginate
from docdeck.gateway._transport import DEFAULT_TIMEOUT
from docdeck.gateway._types import NOT_GIVEN, NotGiven

if TYPE_CHECKING:
    from docdeck.gateway._resource import COVERED_ENDPOINTS

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
    "PermissionDeniedError",
    "PreconditionFailedError",
    "RateLimitError",
    "UnsendableTextError",
    "paginate",
]


def __getattr__(name: str) -> object:
    """`COVERED_ENDPOINTS`: every endpoint a method of the client calls. Resource groups are
    imported on first use (see `Client`), so all of them are imported before it is read."""
    if name == "COVERED_ENDPOINTS":
        from pkgutil import iter_modules

        from docdeck.gateway import resources
        from docdeck.gateway._resource import COVERED_ENDPOINTS

        for module in iter_modules(resources.__path__):
            import_module(f"{resources.__name__}.{module.name}")
        return COVERED_ENDPOINTS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
