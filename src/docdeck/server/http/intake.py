"""Request intake: every /v1 request passes here before routing, so the limits and the checks
on raw input hold for every endpoint, whatever router or handler style serves it.

In order, without reading a byte of the body until the caller is known:
1. the path and every query value must be valid UTF-8 (a lone surrogate cannot be one);
2. a request with a body must carry a known bearer token (401 otherwise, body unread);
3. the body may be at most MAX_BODY_BYTES (413, judged from Content-Length before reading
   when it is given, and while reading otherwise);
4. a JSON body must nest at most MAX_JSON_DEPTH levels, hold at most MAX_ARRAY_ITEMS items in
   any array, and every string in it (keys too) must be valid Unicode (400 naming the field).

An answer given before the body is read (401, 413, a bad path) goes out at once, with
`Connection: close`; the rest of the body is then read and dropped before the connection closes
(a lingering close, as nginx's `lingering_close`: at most LINGER_SECONDS, LINGER_IDLE_SECONDS
without data, LINGER_BYTES). Closing on a body still arriving resets the connection, and a
client that writes its whole body before it reads the reply (Node's fetch, which the
platform's published JavaScript client uses) then gets ECONNRESET instead of the answer. The
dropped bytes are never buffered, parsed or handed to the app.

A pure ASGI middleware rather than a custom APIRoute or Request class: it runs before routing,
so it also covers unknown paths and any router added later, and it can answer before the body
is read. The checked body is replayed to the application unchanged, so FastAPI parses it as
before (once more: bodies are small, at most MAX_BODY_BYTES).
"""

from __future__ import annotations

import asyncio
import email.message
import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import unquote_to_bytes

from docdeck.server.errors import ApiError, describe_value

MAX_BODY_BYTES = 1024 * 1024
"""Largest request body accepted (1 MiB); larger ones are answered 413."""

MAX_JSON_DEPTH = 32
"""Deepest nesting of arrays and objects accepted in a JSON body."""

MAX_ARRAY_ITEMS = 1000
"""Most items accepted in one JSON array (or keys in one object), like the largest page."""

LINGER_SECONDS = 30.0
"""Longest time spent reading and dropping the rest of a refused body."""

LINGER_IDLE_SECONDS = 2.0
"""The lingering read ends when no data arrives for this long."""

LINGER_BYTES = 256 * 1024 * 1024
"""The lingering read ends after this much (the connection is then closed, maybe reset)."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _TooLarge(Exception):
    def __init__(self, more_body: bool) -> None:
        super().__init__()
        self.more_body = more_body
        """Whether the client has more of the body to send."""


def _invalid_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def check_url(scope: Scope) -> str | None:
    """What is wrong with the path or a query value, if anything."""
    raw_path = scope.get("raw_path")
    path = str(scope.get("path", ""))
    # A plain ASCII path with nothing percent-encoded (almost every request) is valid as is.
    if not (isinstance(raw_path, bytes) and raw_path.isascii() and b"%" not in raw_path):
        path_bytes = unquote_to_bytes(raw_path) if isinstance(raw_path, bytes) else b""
        try:
            path_bytes.decode("utf-8")
        except UnicodeDecodeError:
            return "path: must be valid UTF-8 (a percent-encoded lone surrogate or stray byte)"
    if not path.isascii() and _invalid_unicode(path):
        return "path: must be valid Unicode (it holds a lone surrogate)"
    query = scope.get("query_string")
    if not query or (query.isascii() and b"%" not in query):
        return None  # plain ASCII with nothing percent-encoded: every value is valid UTF-8
    for pair in query.split(b"&"):
        if not pair:
            continue
        raw_name, _, raw_value = pair.partition(b"=")
        name = unquote_to_bytes(raw_name.replace(b"+", b" ")).decode("utf-8", "replace")
        try:
            unquote_to_bytes(raw_value.replace(b"+", b" ")).decode("utf-8")
        except UnicodeDecodeError:
            return (
                f"{describe_value(name, 40)}: must be valid UTF-8 (a lone surrogate or stray byte)"
            )
    return None


def _field(path: list[str | int]) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else ("." if out else "") + part
    return out or "body"


def check_json(value: Any, path: list[str | int] | None = None, depth: int = 0) -> str | None:
    """What is wrong with a parsed JSON body, naming the field; None when it is acceptable."""
    path = [] if path is None else path
    if isinstance(value, str):
        if _invalid_unicode(value):
            return f"{_field(path)}: must be valid Unicode (it holds a lone UTF-16 surrogate)"
        return None
    if isinstance(value, dict | list):
        if depth >= MAX_JSON_DEPTH:
            return f"{_field(path)}: JSON nested deeper than {MAX_JSON_DEPTH} levels"
        if len(value) > MAX_ARRAY_ITEMS:
            kind = "items" if isinstance(value, list) else "fields"
            return f"{_field(path)}: at most {MAX_ARRAY_ITEMS} {kind} (got {len(value):,})"
        entries = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in entries:
            if isinstance(key, str) and _invalid_unicode(key):
                return (
                    f"{_field(path)}: a field name must be valid Unicode"
                    " (it holds a lone UTF-16 surrogate)"
                )
            path.append(key)
            problem = check_json(item, path, depth + 1)
            path.pop()
            if problem:
                return problem
    return None


def _is_json(content_type: str | None) -> bool:
    """The same test FastAPI applies before it decodes a body as JSON."""
    if not content_type:
        return True
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (
        subtype == "json" or subtype.endswith("+json")
    )


def check_body(body: bytes, content_type: str | None) -> str | None:
    if not body or not _is_json(content_type):
        return None
    try:
        value = json.loads(body)
    except RecursionError:
        return f"body: JSON nested deeper than {MAX_JSON_DEPTH} levels"
    except ValueError:
        return None  # malformed JSON: FastAPI reports where, as for any body
    return check_json(value)


async def _read(receive: Receive, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise _TooLarge(bool(message.get("more_body", False)))
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


async def _answer(
    scope: Scope, receive: Receive, send: Send, error: ApiError, *, body_unread: bool = False
) -> None:
    from docdeck.server.http.error_handlers import error_response

    response = error_response(error.status, error.message, error.headers)
    if not body_unread:
        await response(scope, receive, send)
        return
    # The client must not reuse the connection: the body was not read as a request's.
    response.headers["Connection"] = "close"
    await send(
        {
            "type": "http.response.start",
            "status": response.status_code,
            "headers": response.raw_headers,
        }
    )
    # The whole answer is on the wire (its Content-Length says so) before the body is drained;
    # the response ends, and the server closes the connection, only after the drain.
    await send({"type": "http.response.body", "body": response.body, "more_body": True})
    await _drain(receive)
    await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _drain(receive: Receive) -> None:
    """Read and drop what is left of a request body, within the LINGER_* bounds."""
    ends = time.monotonic() + LINGER_SECONDS
    dropped = 0
    while dropped <= LINGER_BYTES:
        wait = min(LINGER_IDLE_SECONDS, ends - time.monotonic())
        if wait <= 0:
            return
        try:
            message = await asyncio.wait_for(receive(), wait)
        except TimeoutError:
            return
        if message["type"] != "http.request" or not message.get("more_body", False):
            return
        dropped += len(message.get("body", b""))


def _too_large() -> ApiError:
    return ApiError(
        413, f"body: larger than the sandbox accepts ({MAX_BODY_BYTES:,} bytes at most)"
    )


class RequestIntake:
    """The ASGI middleware; see the module docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not str(scope.get("path", "")).startswith("/v1/"):
            await self.app(scope, receive, send)
            return
        problem = check_url(scope)
        bodiless = scope["method"] in ("GET", "HEAD", "OPTIONS")
        if problem:
            await _answer(scope, receive, send, ApiError(400, problem), body_unread=not bodiless)
            return
        if bodiless:
            await self.app(scope, receive, send)  # no route reads a body on these
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        length_header = headers.get("content-length")
        if length_header is None and "transfer-encoding" not in headers:
            await self.app(scope, receive, send)
            return
        try:
            length = None if length_header is None else int(length_header)
        except ValueError:
            await _answer(
                scope,
                receive,
                send,
                ApiError(400, "Content-Length: must be a whole number"),
                body_unread=True,
            )
            return
        if length == 0:
            await self.app(scope, receive, send)
            return
        from starlette.requests import Request

        from docdeck.server.http.context import authenticate

        try:
            await authenticate(Request(scope))
            if length is not None and length > MAX_BODY_BYTES:
                raise _too_large()
            body = await _read(receive, MAX_BODY_BYTES)
        except ApiError as error:
            await _answer(scope, receive, send, error, body_unread=True)
            return
        except _TooLarge as too_large:
            await _answer(scope, receive, send, _too_large(), body_unread=too_large.more_body)
            return
        problem = check_body(body, headers.get("content-type"))
        if problem:
            await _answer(scope, receive, send, ApiError(400, problem))
            return
        await self.app(scope, _replay(body, receive), send)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replay() -> Message:
        nonlocal sent
        if sent:
            return await receive()
        sent = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay
