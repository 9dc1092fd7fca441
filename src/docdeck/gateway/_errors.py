"""Typed errors: one class per failure kind, chosen by one factory."""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

__all__ = [
    "APIConnectionError",
    "APIError",
    "APIResponseValidationError",
    "APIStatusError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "DocdeckError",
    "InternalServerError",
    "NotFoundError",
    "OperationUnavailableError",
    "PermissionDeniedError",
    "PreconditionFailedError",
    "RateLimitError",
    "status_error",
]

_REASONS = {
    301: "Moved Permanently",
    302: "Found",
    303: "See Other",
    307: "Temporary Redirect",
    308: "Permanent Redirect",
    400: "Bad Request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not Found",
    405: "Method Not Allowed",
    409: "Conflict",
    412: "Precondition Failed",
    429: "Too Many Requests",
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


def reason_phrase(status_code: int) -> str:
    """The standard phrase for a status ("Not Found"), or "HTTP 599" for an unknown one."""
    if status_code in _REASONS:
        return _REASONS[status_code]
    try:
        return HTTPStatus(status_code).phrase
    except ValueError:
        return f"HTTP {status_code}"


class DocdeckError(Exception):
    """Base of every error the gateway raises."""


class APIError(DocdeckError):
    """A request that did not give a usable answer; carries what was asked, never the token."""

    def __init__(self, message: str, *, method: str, path: str) -> None:
        super().__init__(message)
        self.message = message
        self.method = method
        self.path = path

    def __str__(self) -> str:
        return f"{self.message} ({self.method} {self.path})"

    def __repr__(self) -> str:
        name = type(self).__name__
        return f"{name}(method={self.method!r}, path={self.path!r}, message={self.message!r})"


class APIStatusError(APIError):
    """The server answered with an error status."""

    status_code: int = 0

    def __init__(
        self, message: str, *, method: str, path: str, status_code: int, body: Any = None
    ) -> None:
        super().__init__(message, method=method, path=path)
        self.status_code = status_code
        self.body = body

    @property
    def reason(self) -> str:
        return reason_phrase(self.status_code)

    def __str__(self) -> str:
        return f"{self.status_code} {self.reason} on {self.method} {self.path}: {self.message}"

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(status_code={self.status_code}, method={self.method!r}, "
            f"path={self.path!r}, message={self.message!r})"
        )


class BadRequestError(APIStatusError):
    status_code = 400


class AuthenticationError(APIStatusError):
    status_code = 401


class PermissionDeniedError(APIStatusError):
    status_code = 403


class NotFoundError(APIStatusError):
    status_code = 404


class ConflictError(APIStatusError):
    status_code = 409


class PreconditionFailedError(APIStatusError):
    status_code = 412


class RateLimitError(APIStatusError):
    status_code = 429


class InternalServerError(APIStatusError):
    """Any 5xx."""


class APIConnectionError(APIError):
    """The server could not be reached, or the connection broke."""

    def __init__(
        self, message: str = "Could not connect to the API", *, method: str, path: str
    ) -> None:
        super().__init__(message, method=method, path=path)


class APITimeoutError(APIConnectionError):
    def __init__(self, *, method: str, path: str) -> None:
        super().__init__("The request timed out", method=method, path=path)


class UnsendableTextError(APIError, ValueError):
    """The request holds text that is not valid Unicode (a lone surrogate, as a paste or a
    broken decoding can produce): it cannot be encoded, so nothing was sent."""

    def __init__(self, error: UnicodeEncodeError, *, method: str, path: str) -> None:
        bad = error.object[error.start : error.end] if isinstance(error.object, str) else ""
        where = ", ".join(f"U+{ord(c):04X}" for c in bad[:3]) or "a character"
        super().__init__(
            f"The text holds {where}, which is not valid Unicode (a lone surrogate) and "
            "cannot be sent",
            method=method,
            path=path,
        )


class APIResponseValidationError(APIError):
    """A success answer whose body does not match the expected model.

    `field` (dotted, `items.0.plan`) and `value` (as it came, shortened) name what could not
    be read; `raw` is the answer's text, for an issue report. Sending again gives the same
    answer, so this is never worth a retry: more likely the server is newer than docdeck."""

    def __init__(
        self,
        message: str,
        *,
        method: str,
        path: str,
        field: str | None = None,
        value: str | None = None,
        raw: str | None = None,
    ) -> None:
        super().__init__(message, method=method, path=path)
        self.field = field
        self.value = value
        self.raw = raw

    @classmethod
    def of(
        cls, error: Any, *, method: str, path: str, where: str = "", raw: bytes | str = b""
    ) -> APIResponseValidationError:
        """From a pydantic `ValidationError`: its first error's place, value and reason."""
        errors = error.errors() if hasattr(error, "errors") else []
        first = errors[0] if errors else {"loc": (), "msg": str(error)}
        loc = ".".join(str(p) for p in (where, *first.get("loc", ())) if p != "") or "body"
        given = first.get("input")
        value = None if first.get("type") == "missing" else _shown(given)
        reason = first.get("msg", "")
        has = f" = {value}" if value is not None else ""
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        return cls(
            f"Could not read the answer's field {loc}{has}: {reason}",
            method=method,
            path=path,
            field=loc,
            value=value,
            raw=text[:RAW_KEPT] or None,
        )


RAW_KEPT = 1_000_000
"""Characters of a raw answer an error keeps (for an issue report)."""


def _shown(value: Any) -> str:
    import json

    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


OPTIONAL_OPERATIONS: dict[str, tuple[str, ...]] = {
    "link analysis": (
        r"/v1/spaces/[^/]+(/change-requests/[^/]+)?/links",
        r"/v1/spaces/[^/]+(/change-requests/[^/]+)?/content/page/[^/]+/links",
        r"/v1/spaces/[^/]+(/change-requests/[^/]+)?/content/files/[^/]+/backlinks",
    ),
    "content import": (r"/v1/spaces/[^/]+(/change-requests/[^/]+)?/content/import",),
    "space transfer": (r"/v1/spaces/[^/]+/transfer",),
    "section groups' sections": (
        r"/v1/orgs/[^/]+/sites/[^/]+/section-groups/[^/]+/sections(/[^/]+)?",
    ),
}
"""Operations of release 0.130.0 that 0.202.0 no longer documents, by what a user would call
them: a deployment may lack them (a 404 from the route, not from an unknown id)."""


def optional_operation(path: str) -> str | None:
    import re

    for name, patterns in OPTIONAL_OPERATIONS.items():
        if any(re.fullmatch(pattern, path) for pattern in patterns):
            return name
    return None


def no_such_route(body: Any) -> bool:
    """A 404's body says the route is unknown, not an id: no API error body at all, or a
    bare "Not Found"/"no route ..." (an id's 404 names what was not found)."""
    message = _message_of(body)
    if message is None:
        return True
    text = message.strip().lower()
    return text in ("not found", "404 not found", "404: not found") or text.startswith(
        ("no route", "route not found", "cannot get", "cannot post", "unknown route")
    )


class OperationUnavailableError(NotFoundError):
    """The deployment does not offer this operation (a 404 from its route): `operation`
    names it as a user would ("link analysis"). Neither a retry nor a refresh helps."""

    def __init__(self, operation: str, *, method: str, path: str, body: Any = None) -> None:
        super().__init__(
            f"This server does not offer {operation}",
            method=method,
            path=path,
            status_code=404,
            body=body,
        )
        self.operation = operation


_BY_STATUS: dict[int, type[APIStatusError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    412: PreconditionFailedError,
    429: RateLimitError,
}


def _message_of(body: Any) -> str | None:
    """`error.message` as settled; also `message`/`detail`/`error` strings other servers send."""
    if not isinstance(body, dict):
        return None
    error = body.get("error")
    candidates = [error.get("message") if isinstance(error, dict) else error]
    candidates += [body.get("message"), body.get("detail")]
    for candidate in candidates:
        if isinstance(candidate, str) and candidate.strip():
            return " ".join(candidate.split())
    return None


def status_error(
    status_code: int,
    body: Any,
    *,
    method: str,
    path: str,
    note: str | None = None,
    raw: Any = None,
) -> APIStatusError:
    """Build the error for a response: the class by status, the message from `error.message`.

    `note` explains a body that is not the API's (an HTML page from a proxy); `raw`
    is then kept as the error's `body`.
    """
    if status_code == 404:
        operation = optional_operation(path)
        if operation is not None and no_such_route(body):
            kept = raw if body is None and raw is not None else body
            return OperationUnavailableError(operation, method=method, path=path, body=kept)
    message = _message_of(body)
    if message is None:
        message = reason_phrase(status_code)
        if note:
            message = f"{message} ({note})"
    cls = _BY_STATUS.get(status_code)
    if cls is None:
        cls = InternalServerError if status_code >= 500 else APIStatusError
    kept = raw if body is None and raw is not None else body
    return cls(message, method=method, path=path, status_code=status_code, body=kept)
