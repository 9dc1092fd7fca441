"""The async client for the v1 API: typed resource groups, pagination, errors, retries."""

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
)
from docdeck.gateway._pagination import AsyncPaginator, paginate
from docdeck.gateway._resource import COVERED_ENDPOINTS
from docdeck.gateway._transport import DEFAULT_TIMEOUT
from docdeck.gateway._types import NOT_GIVEN, NotGiven

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
    "paginate",
]
