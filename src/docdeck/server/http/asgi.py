"""The outermost layer of the app, in plain ASGI (cheap: one call per request, no copying):
HEAD answered like GET without a body, and an unexpected error answered and logged once."""

from __future__ import annotations

import logging
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from docdeck.server.errors import error_body

log = logging.getLogger("docdeck.server")

HEAD_SCOPE_KEY = "docdeck.head"
"""Set in the scope of a HEAD request routed as a GET, so error messages name the HEAD."""


class RequestGuard:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] == "HEAD":
            # Every GET answers HEAD with the same status and headers and no body (RFC 9110
            # 9.3.2); FastAPI's routes accept only the methods they declare.
            scope = {**scope, "method": "GET", HEAD_SCOPE_KEY: True}
            send = without_body(send)
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            # Logged here, once, and not re-raised: Starlette's outermost middleware would
            # otherwise answer the 500 and re-raise, and the server would log it a second time.
            log.exception("unexpected error on %s %s", scope["method"], scope["path"])
            if not started:
                await send_500(send)


def without_body(send: Send) -> Send:
    async def send_headers_only(message: Message) -> None:
        if message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return send_headers_only


async def send_500(send: Send) -> None:
    body = error_body(500, "internal error in the sandbox server; see its log")
    headers: list[Any] = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": 500, "headers": headers})
    await send({"type": "http.response.body", "body": body})
