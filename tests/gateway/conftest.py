from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from docdeck.gateway import Client


@pytest.fixture
async def client(sandbox_app, admin_token) -> AsyncIterator[Client]:
    """The demo admin's gateway client over the in-process sandbox."""
    async with Client(
        "http://sandbox", admin_token, transport=httpx.ASGITransport(app=sandbox_app)
    ) as c:
        yield c


@pytest.fixture
def client_for(sandbox_app, token_for):
    """A function email -> gateway client for that demo user (caller closes it)."""

    def make(email: str) -> Client:
        return Client(
            "http://sandbox", token_for(email), transport=httpx.ASGITransport(app=sandbox_app)
        )

    return make
