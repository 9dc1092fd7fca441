"""One shared httpx client: auth header, timeouts, retries with backoff, error mapping.

httpx is imported, and its client built, on the first request that must be sent (or on
`Transport.warm_up()`), not with the gateway: a client handed the answer to its first
request (`Prefetched`) shows the organization tree without httpx (~50 ms of imports
before the first live view with a running sandbox).
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, Unpack
from urllib.parse import urlencode

from pydantic import BaseModel, TypeAdapter, ValidationError

from docdeck.gateway._errors import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    OperationUnavailableError,
    UnsendableTextError,
    status_error,
)

if TYPE_CHECKING:
    import httpx

    DEFAULT_TIMEOUT: httpx.Timeout
    """10 s for any operation, 5 s to connect (made on first use: `__getattr__`)."""

__all__ = ["DEFAULT_TIMEOUT", "Prefetched", "Transport", "TransportOptions"]

DEFAULT_TIMEOUTS = (10.0, 5.0)
"""Seconds: any operation, and connecting (`DEFAULT_TIMEOUT`, as an `httpx.Timeout`)."""
IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
RETRY_STATUSES = frozenset({429, 502, 503, 504})
INITIAL_BACKOFF = 0.5
MAX_BACKOFF = 8.0
MAX_RETRY_AFTER = 60.0

M = TypeVar("M")


def __getattr__(name: str) -> object:
    """`DEFAULT_TIMEOUT` (an `httpx.Timeout`): made when asked for, as httpx is imported."""
    if name == "DEFAULT_TIMEOUT":
        return _default_timeout()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _default_timeout() -> httpx.Timeout:
    import httpx

    every, connect = DEFAULT_TIMEOUTS
    return httpx.Timeout(every, connect=connect)


@dataclass(frozen=True, repr=False)
class Prefetched:
    """An answer to one of a client's first requests, asked for it before it was made (the
    launcher asks the sandbox for the organization tree's first page, or for what
    `docdeck open`'s first screen shows, while the TUI starts).

    Plain data: handing it over imports no HTTP library. The client takes it for a GET of
    exactly `url` with the same token, once, and only until it sends a request itself:
    from then on every request is sent (what is asked later is asked afresh). Only a 200
    is ever used: an error is found (and reported) by sending the request itself.
    """

    url: str
    """Absolute: the API's root, the path and the encoded query, as asked."""
    authorization: str
    """The `Authorization` header it was asked with."""
    headers: dict[str, str] = field(default_factory=dict)
    """The answer's header fields, names in lower case."""
    body: bytes = b""
    status: int = 200

    def __repr__(self) -> str:  # never the token, nor a body of user data
        return f"Prefetched(url={self.url!r}, status={self.status}, {len(self.body)} bytes)"


def _url_of(root: str, path: str, params: dict[str, Any] | None) -> str | None:
    """The URL a GET of `path` with `params` asks for, as the launcher spells it (None when
    a parameter is not plain text or a number: that request is sent, never matched)."""
    if not params:
        return root + path
    if not all(isinstance(v, str | int) and not isinstance(v, bool) for v in params.values()):
        return None
    return f"{root}{path}?{urlencode({k: str(v) for k, v in params.items()})}"


def _api_root(base_url: str) -> str:
    root = base_url.rstrip("/")
    if root.endswith("/v1"):
        root = root[: -len("/v1")]
    return root


def retry_after_seconds(response: httpx.Response) -> float | None:
    """Seconds the server asked us to wait, from `Retry-After` (seconds or an HTTP date)."""
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        seconds = float(value)
        if math.isnan(seconds):
            return None
    except ValueError:
        import email.utils  # only for an HTTP date: not with the gateway (~2 ms of a start)

        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - time.time()
    return max(0.0, min(seconds, MAX_RETRY_AFTER))


def backoff_seconds(attempt: int) -> float:
    """Exponential backoff with jitter on every attempt, within INITIAL_BACKOFF..MAX_BACKOFF.

    Attempt n waits a random time in the upper half of min(MAX, INITIAL * 2**(n+1)):
    0.5-1 s, 1-2 s, 2-4 s, 4-8 s, then 4-8 s; never the same for two clients.
    """
    ceiling = min(MAX_BACKOFF, INITIAL_BACKOFF * 2 ** min(attempt + 1, 16))
    return random.uniform(max(INITIAL_BACKOFF, ceiling / 2), ceiling)


class SendOptions(TypedDict, total=False):
    """What one request sends besides its method and path, declared once for `request` and
    the ways of reading its answer (`call`, `answer`, `call_empty`), which pass it on."""

    params: dict[str, Any] | None
    """The query (None: no query)."""
    json: Any
    """The JSON body; None sends no body unless `send_json`."""
    send_json: bool
    """Send `json` even when it is None (a body of `null`)."""


class TransportOptions(TypedDict, total=False):
    """How a client talks to the API; every one optional (`Client(url, token, **options)`)."""

    timeout: httpx.Timeout | float | None
    """None (the default) is `DEFAULT_TIMEOUT` (10 s, 5 s to connect)."""
    max_retries: int
    """Retries of a request that is safe to send again (2 by default)."""
    transport: httpx.AsyncBaseTransport | None
    """httpx's transport, made before the client (an ASGI app's, a mock)."""
    make_transport: Callable[[], httpx.AsyncBaseTransport] | None
    """Makes httpx's transport when httpx's client is built (on the first request sent, or
    `Transport.warm_up()`), instead of `transport`."""
    user_agent: str | None
    prefetched: Prefetched | Sequence[Prefetched] | None
    """Answers asked before (`Prefetched`): each serves a GET of exactly its URL, once,
    until the client first sends a request itself."""


class Transport:
    """Sends requests for the resource groups; the token lives only in the httpx headers."""

    def __init__(self, base_url: str, token: str, **options: Unpack[TransportOptions]) -> None:
        from docdeck import __version__

        self.base_url = _api_root(base_url)
        self.max_retries = max(0, options.get("max_retries", 2))
        self._headers = {
            "Authorization": f"Bearer {token}",
            "User-Agent": options.get("user_agent") or f"docdeck/{__version__}",
            "Accept": "application/json",
        }
        self._timeout = options.get("timeout")
        self._make_transport = options.get("make_transport")
        self._given_transport = options.get("transport")
        given = options.get("prefetched")
        kept = (given,) if isinstance(given, Prefetched) else tuple(given or ())
        self._prefetched = {answer.url: answer for answer in kept if answer.status == 200}
        self._http: httpx.AsyncClient | None = None
        self._closed = False
        self.sleep = asyncio.sleep
        self.unavailable: set[str] = set()
        """Optional operations this deployment answered it does not offer ("link analysis":
        `OperationUnavailableError.operation`), learnt as they are tried."""

    def __repr__(self) -> str:
        return f"Transport(base_url={self.base_url!r})"

    @property
    def http(self) -> httpx.AsyncClient:
        """httpx's client, built (and httpx imported) on first use."""
        if self._http is None:
            import httpx

            transport = self._given_transport
            if transport is None and self._make_transport is not None:
                transport = self._make_transport()
            self._http = httpx.AsyncClient(
                base_url=self.base_url,
                headers=self._headers,
                timeout=_default_timeout() if self._timeout is None else self._timeout,
                transport=transport,
            )
            self._given_transport = self._make_transport = None
        return self._http

    def warm_up(self) -> None:
        """Build httpx's client now, with what its first request imports (httpcore's pool and
        anyio's asyncio backend, ~60 ms once): at an idle moment rather than in a request.
        Nothing once closed (a quit just before)."""
        if self._closed:
            return
        self.http  # noqa: B018 (built on first use)
        import importlib

        for name in ("httpcore._async.connection_pool", "anyio._backends._asyncio"):
            # Not installed: another httpx transport, which imports what it needs itself.
            with contextlib.suppress(ImportError):
                importlib.import_module(name)

    async def aclose(self) -> None:
        self._closed = True
        if self._http is not None:
            await self._http.aclose()

    def _take_prefetched(
        self, method: str, path: str, params: dict[str, Any] | None
    ) -> Prefetched | None:
        """The answer asked before for this GET, if there is one; it is given up (it answers
        one request only). Once the client has sent a request itself, none is left."""
        if not self._prefetched or method != "GET":
            return None
        url = _url_of(self.base_url, path, params)
        kept = self._prefetched.pop(url, None) if url is not None else None
        if kept is None or kept.authorization != self._headers["Authorization"]:
            return None
        return kept

    async def download(self, url: str, write: Callable[[bytes], object]) -> int:
        """Stream a file's bytes (a signed `downloadURL`) to `write`; the number of bytes.

        The token goes only to the API's own host: a download URL signed for the caller
        needs none, and one on another host (a storage service) must not receive it.
        """
        import httpx

        self._prefetched.clear()
        request = self.http.build_request("GET", url)
        if httpx.URL(url).host != httpx.URL(self.base_url).host:
            del request.headers["Authorization"]
        request.headers["Accept"] = "*/*"
        try:
            response = await self.http.send(request, stream=True)
        except httpx.HTTPError as exc:
            raise APIConnectionError(
                self._failure_message(exc), method="GET", path=url.split("?")[0]
            ) from None
        try:
            if response.status_code >= 300:
                await response.aread()
                raise self._status_error(response, "GET", url.split("?")[0])
            total = 0
            async for chunk in response.aiter_bytes():
                write(chunk)
                total += len(chunk)
            return total
        finally:
            await response.aclose()

    async def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: Any = None,
        send_json: bool = False,
    ) -> httpx.Response:
        """Send once, or up to max_retries more times when that is safe; raise typed errors."""
        import httpx

        # A request sent: the answers asked before are for no later one (they were read at
        # the start; what is asked from now on is asked afresh).
        self._prefetched.clear()
        retryable = method in IDEMPOTENT
        attempt = 0
        while True:
            try:
                response = await self.http.request(
                    method,
                    path,
                    params=params,
                    json=json if (json is not None or send_json) else None,
                )
            except httpx.TimeoutException:
                if retryable and attempt < self.max_retries:
                    await self.sleep(backoff_seconds(attempt))
                    attempt += 1
                    continue
                raise APITimeoutError(method=method, path=path) from None
            except httpx.TransportError as exc:
                if retryable and attempt < self.max_retries:
                    await self.sleep(backoff_seconds(attempt))
                    attempt += 1
                    continue
                raise APIConnectionError(
                    self._failure_message(exc), method=method, path=path
                ) from None
            except UnicodeEncodeError as exc:
                raise UnsendableTextError(exc, method=method, path=path) from None
            except httpx.DecodingError as exc:
                raise APIResponseValidationError(
                    f"The answer from {self.base_url} could not be decoded "
                    f"({self._redact(str(exc)) or type(exc).__name__})",
                    method=method,
                    path=path,
                ) from None
            except httpx.HTTPError as exc:
                # TooManyRedirects and anything newer: never a raw httpx error (its
                # request carries the Authorization header), always one of ours.
                raise APIConnectionError(
                    self._failure_message(exc), method=method, path=path
                ) from None
            if response.status_code < 300:
                return response
            if response.status_code < 400:
                raise self._redirect_error(response, method, path)
            if retryable and response.status_code in RETRY_STATUSES and attempt < self.max_retries:
                wait = retry_after_seconds(response)
                await self.sleep(wait if wait is not None else backoff_seconds(attempt))
                attempt += 1
                continue
            error = self._status_error(response, method, path)
            if isinstance(error, OperationUnavailableError):
                self.unavailable.add(error.operation)
            raise error

    def _redact(self, text: str) -> str:
        """`text` without the token, should an httpx message ever quote the header."""
        header = self._headers["Authorization"]
        secret = header.removeprefix("Bearer ").strip()
        for value in (header, secret):
            if value:
                text = text.replace(value, "[token]")
        return text

    def _failure_message(self, exc: httpx.HTTPError) -> str:
        import httpx

        if isinstance(exc, httpx.ConnectError | httpx.ProxyError):
            head = f"Could not connect to {self.base_url}"
        elif isinstance(exc, httpx.UnsupportedProtocol | httpx.LocalProtocolError):
            head = f"Could not send the request to {self.base_url}"
        elif isinstance(exc, httpx.TooManyRedirects):
            head = f"{self.base_url} redirected too many times"
        else:
            head = f"The connection to {self.base_url} failed"
        detail = self._redact(str(exc)).strip()
        kind = type(exc).__name__
        return f"{head} ({kind}: {detail})" if detail else f"{head} ({kind})"

    def _redirect_error(self, response: httpx.Response, method: str, path: str) -> APIStatusError:
        # Redirects are not followed: the Authorization header would be dropped on the
        # way (cross-origin) or a POST turned into a GET. The base URL is what to fix.
        location = response.headers.get("location")
        where = f" to {location}" if location else ""
        message = f"The server redirected{where}; check the base URL ({self.base_url})"
        return APIStatusError(
            message, method=method, path=path, status_code=response.status_code, body=None
        )

    @staticmethod
    def _status_error(response: httpx.Response, method: str, path: str) -> APIStatusError:
        try:
            body = response.json()
        except ValueError:
            body = response.text[:500] or None
            kind = _media_type(response)
            if kind and kind != "application/json":
                # A proxy's or load balancer's page, not the API's error body.
                return status_error(
                    response.status_code,
                    None,
                    method=method,
                    path=path,
                    note=f"the answer was {kind}, not the API's JSON",
                    raw=body,
                )
        return status_error(response.status_code, body, method=method, path=path)

    async def call(
        self,
        method: str,
        path: str,
        model: type[M] | TypeAdapter[M],
        **send: Unpack[SendOptions],
    ) -> M:
        kind, status, body = await self.answer(method, path, **send)
        return parse_content(kind, status, body, model, method, path)

    async def answer(
        self, method: str, path: str, **send: Unpack[SendOptions]
    ) -> tuple[str, int, bytes]:
        """A success's media type (lower case, no parameters), status and body: the answer
        asked before (`Prefetched`) when there is one, else sent (`request`)."""
        kept = self._take_prefetched(method, path, send.get("params"))
        if kept is not None:
            return _media_type_of(kept.headers.get("content-type", "")), kept.status, kept.body
        response = await self.request(method, path, **send)
        return _media_type(response), response.status_code, response.content

    async def call_empty(self, method: str, path: str, **send: Unpack[SendOptions]) -> None:
        await self.request(method, path, **send)


def _media_type(response: httpx.Response) -> str:
    return _media_type_of(response.headers.get("content-type", ""))


def _media_type_of(content_type: str) -> str:
    """A `Content-Type` value's media type: lower case, without parameters."""
    return content_type.split(";")[0].strip().lower()


def parse_content(
    kind: str,
    status: int,
    content: bytes,
    model: type[M] | TypeAdapter[M],
    method: str,
    path: str,
) -> M:
    """Parse a success body (its media type, lower case, no parameters, and status) into its
    model, or say plainly that the server answered nonsense."""
    if kind and kind != "application/json" and not kind.endswith("+json"):
        raise APIResponseValidationError(
            f"Expected JSON from the API but the answer was {kind} "
            f"({status}); is the base URL the API's?",
            method=method,
            path=path,
        )
    if not content:
        raise APIResponseValidationError(
            f"Expected JSON from the API but the answer was empty ({status})",
            method=method,
            path=path,
        )
    try:
        if isinstance(model, TypeAdapter):
            return model.validate_json(content)
        if isinstance(model, type) and issubclass(model, BaseModel):
            result: M = model.model_validate_json(content)
            return result
        return TypeAdapter(model).validate_json(content)
    except ValidationError as exc:
        raise APIResponseValidationError.of(exc, method=method, path=path, raw=content) from None
