"""The request path every router shares: URLs from the configured public URL, HEAD like GET."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from docdeck.server import create_app
from docdeck.server.store import db as store_db

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


async def test_a_hot_get_runs_one_statement_per_thing_it_reads(
    sandbox_db: Path,
    token_for: Callable[[str], str],
    ids: DemoIds,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The statements the hot GETs really run (traced): the resource with the caller's
    membership, the page, and nothing else - no grants for an admin (no grant raises an
    admin's role), no count for a list that fits on its page, the token known from before."""
    statements: list[str] = []
    connect = store_db._connect

    def tracing_connect(path: Path) -> sqlite3.Connection:
        conn = connect(path)
        conn.set_trace_callback(statements.append)
        return conn

    monkeypatch.setattr(store_db, "_connect", tracing_connect)
    # The route's own statements: a repeated GET is otherwise answered from the answer cache
    # (`test_answer_cache.py`).
    app = create_app(sandbox_db, public_url="http://t", answer_cache=False)
    space = ids.spaces["Public API Reference"]
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as c:
        await c.get("/v1/orgs")  # the token is looked up once
        counts: dict[str, int] = {}
        for path in ("/v1/orgs", f"/v1/orgs/{ids.northwind}/spaces", f"/v1/spaces/{space}"):
            statements.clear()
            assert (await c.get(path)).status_code == 200
            reads = [s for s in statements if s not in ("BEGIN", "COMMIT")]
            counts[path] = len(reads)
            assert statements[0] == "BEGIN" and statements[-1] == "COMMIT", statements
    assert counts == {
        "/v1/orgs": 1,
        f"/v1/orgs/{ids.northwind}/spaces": 2,
        f"/v1/spaces/{space}": 1,
    }
