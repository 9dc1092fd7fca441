"""The request path every router shares: URLs from the configured public URL, HEAD like GET."""

from __future__ import annotations

from pathlib import Path

import httpx

from docdeck.server import create_app

from ._support import ADMIN, Api, DemoIds, error_of


async def test_urls_come_from_the_public_url_not_the_host_header(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    space_id = ids.spaces["Public API Reference"]
    for host in ("evil.example", "127.0.0.1:1"):
        response = await admin.get(f"/v1/spaces/{space_id}", headers={"Host": host})
        urls = response.json()["urls"]
        assert urls["location"] == f"http://sandbox.test/v1/spaces/{space_id}"
        assert urls["app"] == f"http://sandbox.test/app/spaces/{space_id}"
        listed = await admin.get("/v1/orgs", headers={"Host": host, "X-Forwarded-Host": host})
        assert all(
            o["urls"]["location"].startswith("http://sandbox.test/") for o in listed.json()["items"]
        )


async def test_the_public_url_given_to_the_app_is_used_behind_a_proxy(
    sandbox_db: Path, token_for: object, ids: DemoIds
) -> None:
    assert callable(token_for)
    app = create_app(sandbox_db, public_url="https://docs.example.org:8443/")
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}
    async with httpx.AsyncClient(transport=transport, base_url="http://x", headers=headers) as c:
        body = (await c.get(f"/v1/orgs/{ids.northwind}")).json()
    assert body["urls"]["location"] == f"https://docs.example.org:8443/v1/orgs/{ids.northwind}"


async def test_head_answers_like_get_without_a_body(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    for path in ("/v1/orgs", f"/v1/orgs/{ids.northwind}/spaces", "/openapi.json"):
        got = await admin.get(path)
        head = await admin.head(path)
        assert head.status_code == 200, (path, head.text)
        assert head.content == b""
        assert head.headers["content-type"] == got.headers["content-type"]
        assert head.headers["content-length"] == got.headers["content-length"]
    missing = await admin.head("/v1/spaces/nope")
    assert missing.status_code == 404 and missing.content == b""
    assert (await api(None).head("/v1/orgs")).status_code == 401


async def test_head_where_no_get_exists_is_still_a_405_naming_head(api: Api, ids: DemoIds) -> None:
    space_id = ids.spaces["Public API Reference"]
    response = await api(ADMIN).request("HEAD", f"/v1/spaces/{space_id}/move")
    assert response.status_code == 405
    response = await api(ADMIN).request("OPTIONS", f"/v1/orgs/{ids.northwind}")
    assert "method OPTIONS is not allowed" in error_of(response, 405)
