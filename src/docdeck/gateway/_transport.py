"""One shared httpx client: auth header, timeouts, retries with backoff, error mapping."""

from __future__ import annotations

import asyncio
import email.utils
import random
import time
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, TypeAdapter, ValidationError

from docdeck.gateway._errors import (
    APIConnectionError,
    APIResponseValidationError,
    APIStatusError,
    APITimeoutError,
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
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - time.time()
    return max(0.0, min(seconds, MAX_RETRY_AFTER))


def backoff_seconds(attempt: int) -> float:
    """Exponential backoff with full jitter, between INITIAL_BACKOFF and MAX_BACKOFF."""
    ceiling = min(MAX_BACKOFF, INITIAL_BACKOFF * (2**attempt))
    return random.uniform(INITIAL_BACKOFF, max(INITIAL_BACKOFF, ceiling))


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
            except httpx.TimeoutException as exc:
                if retryable and attempt < self.max_retries:
                    await self.sleep(backoff_seconds(attempt))
                    attempt += 1
                    continue
                raise APITimeoutError(method=method, path=path) from exc
            except httpx.TransportError as exc:
                if retryable and attempt < self.max_retries:
                    await self.sleep(backoff_seconds(attempt))
                    attempt += 1
                    continue
                raise APIConnectionError(
                    f"Could not connect to {self.base_url}: {type(exc).__name__}",
                    method=method,
                    path=path,
                ) from None
            if response.status_code < 400:
                return response
            if retryable and response.status_code in RETRY_STATUSES and attempt < self.max_retries:
                wait = retry_after_seconds(response)
                await self.sleep(wait if wait is not None else backoff_seconds(attempt))
                attempt += 1
                continue
            raise self._status_error(response, method, path)

    @staticmethod
    def _status_error(response: httpx.Response, method: str, path: str) -> APIStatusError:
        try:
            body = response.json()
        except ValueError:
            body = response.text[:500] or None
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


def parse(response: httpx.Response, model: type[M] | TypeAdapter[M], method: str, path: str) -> M:
    """Parse a success body into its model, or say plainly that the server answered nonsense."""
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
