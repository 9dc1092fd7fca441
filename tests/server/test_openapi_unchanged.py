"""The sandbox's `/openapi.json` is byte-for-byte the document it was before the server was
laid out by area: a move or a folded declaration must not change a path, an operation id, a
schema or even their order. When the API changes on purpose, take the new digest from the
failure message."""

from __future__ import annotations

import hashlib
from pathlib import Path

import httpx
import pytest

from docdeck.server import create_app

GOLDEN_SHA256 = "c17ded98ab73da3c646de78541012264d2d22e86b3335c03d3160b6075fb0e19"


@pytest.mark.parametrize("defer_routes", [False, True])
async def test_the_openapi_document_is_byte_identical(tmp_path: Path, defer_routes: bool) -> None:
    app = create_app(
        tmp_path / "sandbox.db", public_url="http://sandbox.test", defer_routes=defer_routes
    )
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://sandbox.test") as client:
        response = await client.get("/openapi.json")
    assert response.status_code == 200
    digest = hashlib.sha256(response.content).hexdigest()
    if digest != GOLDEN_SHA256:
        (tmp_path / "openapi.json").write_bytes(response.content)
    assert digest == GOLDEN_SHA256, f"document changed; written to {tmp_path / 'openapi.json'}"
