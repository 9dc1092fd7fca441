"""One shared httpx client: auth header, timeouts, retries with backoff, error mapping."""

from __future__ import annotations

import asyncio
import email.utils
import math
import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from docdeck.gateway._errors import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
    UnsendableTextError,
    status_error,
)

__all__ = ["DEFAULT_TIMEOUT", "Transport"]

DEFAULT_TIMEOUT = httpx.Timeout(10.0, connect=5.0)
IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
RETRY_STATUSES = frozenset({429, 502, 503, 504})
INITIAL_BACKOFF = 0.5
MAX_BACKOFF = 8.0
MAX_RETRY_AFTER = 60.0

M = TypeVar("M")


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


class Transport:
    """Sends requests for the resource groups; the token lives only in the httpx headers."""

    def __init__(
        self,
        base_url: str,
        token: str,
        *,
        timeout: httpx.Timeout | float = DEFAULT_TIMEOUT,
        max_retries: int = 2,
        transport: httpx.AsyncBaseTransport | None = None,
        user_agent: str | None = None,
    ) -> None:
        from docdeck import __version__

        self.base_url = _api_root(base_url)
        self.max_retries = max(0, max_retries)
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            headers={
                "Authorization": f"Bearer {token}",
                "User-Agent": user_agent or f"docdeck/{__version__}",
                "Accept": "application/json",
            },
            timeout=timeout,
            transport=transport,
        )
        self.sleep = asyncio.sleep

    def __repr__(self) -> str:
        return f"Transport(base_url={self.base_url!r})"

    @property
    def http(self) -> httpx.AsyncClient:
        return self._http

    async def aclose(self) -> None:
        await self._http.aclose()

    async def download(self, url: str, write: Callable[[bytes], object]) -> int:
        """Stream a file's bytes (a signed `downloadURL`) to `write`; the number of bytes.

        The token goes only to the API's own host: a download URL signed for the caller
        needs none, and one on another host (a storage service) must not receive it.
        """
        request = self._http.build_request("GET", url)
        if httpx.URL(url).host != httpx.URL(self.base_url).host:
            del request.headers["Authorization"]
        request.headers["Accept"] = "*/*"
        try:
            response = await self._http.send(request, stream=True)
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
        retryable = method in IDEMPOTENT
        attempt = 0
        while True:
            try:
                response = await self._http.request(
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
            raise self._status_error(response, method, path)

    def _redact(self, text: str) -> str:
        """`text` without the token, should an httpx message ever quote the header."""
        header = self._http.headers.get("authorization", "")
        secret = header.removeprefix("Bearer ").strip()
        for value in (header, secret):
            if value:
                text = text.replace(value, "[token]")
        return text

    def _failure_message(self, exc: httpx.HTTPError) -> str:
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
        *,
        params: dict[str, Any] | None = None,
        json: Any = None,
        send_json: bool = False,
    ) -> M:
        response = await self.request(method, path, params=params, json=json, send_json=send_json)
        return parse(response, model, method, path)

    async def call_empty(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: Any = None,
        send_json: bool = False,
    ) -> None:
        await self.request(method, path, params=params, json=json, send_json=send_json)


def _media_type(response: httpx.Response) -> str:
    value: str = response.headers.get("content-type", "")
    return value.split(";")[0].strip().lower()


def parse(response: httpx.Response, model: type[M] | TypeAdapter[M], method: str, path: str) -> M:
    """Parse a success body into its model, or say plainly that the server answered nonsense."""
    kind = _media_type(response)
    if kind and kind != "application/json" and not kind.endswith("+json"):
        raise APIResponseValidationError(
            f"Expected JSON from the API but the answer was {kind} "
            f"({response.status_code}); is the base URL the API's?",
            method=method,
            path=path,
        )
    if not response.content:
        raise APIResponseValidationError(
            f"Expected JSON from the API but the answer was empty ({response.status_code})",
            method=method,
            path=path,
        )
    try:
        if isinstance(model, TypeAdapter):
            return model.validate_json(response.content)
        if isinstance(model, type) and issubclass(model, BaseModel):
            result: M = model.model_validate_json(response.content)
            return result
        return TypeAdapter(model).validate_json(response.content)
    except ValidationError as exc:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": str(exc)}
        where = ".".join(str(p) for p in first.get("loc", ())) or "body"
        raise APIResponseValidationError(
            f"Unexpected response body at {where}: {first.get('msg')}", method=method, path=path
        ) from None
