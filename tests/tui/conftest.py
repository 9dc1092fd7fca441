"""Fixtures for driving the real TUI against the in-process sandbox."""

from __future__ import annotations

import httpx
import pytest
from fastapi import FastAPI

from docdeck.gateway import Client
from docdeck.tui.app import DocdeckApp
from tui.helpers import AppFactory


@pytest.fixture
def make_app(sandbox_app: FastAPI, admin_token: str) -> AppFactory:
    """`make_app(token=None)`: the app on the sandbox, as the demo admin unless a token is given."""

    def make(token: str | None = None, **kwargs: object) -> DocdeckApp:
        async def connect() -> Client:
            return Client(
                "http://sandbox",
                token or admin_token,
                transport=httpx.ASGITransport(app=sandbox_app),
            )

        return DocdeckApp(connect=connect, account_label="sandbox", **kwargs)  # type: ignore[arg-type]

    return make
