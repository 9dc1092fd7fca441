"""The client every conformance test calls the sandbox with: the demo admin over ASGI."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from fastapi import FastAPI


@pytest.fixture
async def client(sandbox_app: FastAPI, admin_token: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=sandbox_app),
        base_url="http://sandbox.test",
        headers={"Authorization": f"Bearer {admin_token}"},
    ) as c:
        yield c
