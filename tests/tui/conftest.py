"""Fixtures for driving the real TUI against the in-process sandbox."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi import FastAPI

from docdeck.gateway import Client
from docdeck.tui.app import DocdeckApp
from tui.helpers import AppFactory


class RecordingTransport(httpx.ASGITransport):
    """The in-process transport, keeping a log of the requests the app sent."""

    def __init__(self, app: FastAPI) -> None:
        super().__init__(app=app)
        self.requests: list[str] = []
        self.offline = False
        """While True every request fails as if the server went away."""
        self.held: tuple[str, asyncio.Event] | None = None
        """(path part, event): requests whose path contains the part wait for the event."""
        self.delay = 0.0
        """Seconds every request waits before it reaches the server: a slow link."""
        self.proxy_down = False
        """While True a proxy in front answers 502 with its HTML page: the server is gone."""
        self.failing: str | None = None
        """Requests whose path contains this answer 500, as a failing server would."""
        self.unreadable: str | None = None
        """Requests whose path contains this answer 200 with a body no model reads (a newer
        server's shape docdeck does not know)."""

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(f"{request.method} {request.url.path}")
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.held is not None and self.held[0] in request.url.path:
            await self.held[1].wait()
        if self.offline:
            raise httpx.ConnectError("connection refused", request=request)
        if self.failing is not None and self.failing in request.url.path:
            body = b'{"error": {"code": 500, "message": "the server failed (test)"}}'
            return httpx.Response(500, headers={"content-type": "application/json"}, content=body)
        if self.unreadable is not None and self.unreadable in request.url.path:
            body = b'{"items": [{"object": "space", "id": 7}], "count": "many"}'
            return httpx.Response(200, headers={"content-type": "application/json"}, content=body)
        if self.proxy_down:
            page = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
            return httpx.Response(502, headers={"content-type": "text/html"}, content=page)
        return await super().handle_async_request(request)


NOTICE_SECONDS = 600.0
"""How long a notification stays in a test: until the test has looked at it."""


@pytest.fixture(autouse=True)
def notices_stay(monkeypatch: pytest.MonkeyPatch) -> None:
    """A notification stays until the test has read it (or cleared them).

    The app's toasts time out after a few seconds (5, or the 3-8 a call asks). A test
    reads them once the screen is quiet, which on a loaded machine (CI's 2 cores, several
    workers) is later than that: the reason had been given and was already gone, and the
    test failed. What is on screen is otherwise unchanged: an identical notice still
    replaces its copy, and `clear_notifications` clears them."""
    notify = DocdeckApp.notify

    def staying(self: DocdeckApp, message: str, **options: object) -> None:
        options["timeout"] = NOTICE_SECONDS
        notify(self, message, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(DocdeckApp, "notify", staying)


@pytest.fixture(autouse=True)
def config_dir(tmp_path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A config directory of the test's own: a theme picked in a test is saved there."""
    path = tmp_path / "config"
    monkeypatch.setenv("DOCDECK_CONFIG_DIR", str(path))
    return path


@pytest.fixture
def transport(sandbox_app: FastAPI) -> RecordingTransport:
    return RecordingTransport(sandbox_app)


@pytest.fixture
def make_app(transport: RecordingTransport, admin_token: str) -> AppFactory:
    """`make_app(token=None)`: the app on the sandbox, as the demo admin unless a token is given."""

    def make(token: str | None = None, **kwargs: object) -> DocdeckApp:
        async def connect() -> Client:
            return Client(
                "http://sandbox",
                token or admin_token,
                transport=transport,
                max_retries=0,
            )

        return DocdeckApp(connect=connect, account_label="sandbox", **kwargs)  # type: ignore[arg-type]

    return make
