"""Signed file links (`/files/...`) and the published sites (`/s/...`) under generated
values, with and without an API token: real ids and a real link's parts mixed with hostile
ones, raw bytes that are not UTF-8 (an encoded lone surrogate among them). Whatever comes,
the answer is a file, a page, a redirect or a plain refusal; never a server error."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from .hostile import URL_SAFE_HOSTILE

_RAW = st.sampled_from(["%C3%A9", "%FF", "%ED%A0%80", "%00", "%2F", "%2e%2e", "%C0%AE", ""])
_TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=8)
_VALUE = st.one_of(_RAW, st.one_of(URL_SAFE_HOSTILE, _TEXT).map(lambda s: quote(s, safe="")))
_SETTINGS = settings(
    max_examples=int(os.environ.get("DOCDECK_FUZZ_EXAMPLES", "60")),
    # The same cases on every run of `make test` (as the schema fuzz), so a failure repeats.
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
_SHARE_KEYS = st.sampled_from(["{active}", "{inactive}", "{active}x", "{tampered}", "{active}%00"])
"""The Developer Portal's real share keys (`link` fills them in), and near misses."""


@pytest.fixture
def link(sandbox_app: FastAPI, token_for: Callable[[str], str]) -> dict[str, Any]:
    """The parts of a real file link of the Webhooks Guide, issued to the demo admin, and the
    Developer Portal's share keys (`keys`: `active`, `inactive`, `tampered`)."""
    token = token_for("ada@northwind.dev")

    async def first() -> tuple[str, dict[str, str]]:
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=sandbox_app),
            base_url="http://sandbox.test",
            headers={"Authorization": f"Bearer {token}"},
        ) as client:
            orgs = (await client.get("/v1/orgs")).json()["items"]
            spaces = (await client.get(f"/v1/orgs/{orgs[0]['id']}/spaces")).json()["items"]
            space = next(s["id"] for s in spaces if s["title"] == "Webhooks Guide")
            files = (await client.get(f"/v1/spaces/{space}/content/files")).json()["items"]
            sites = (await client.get(f"/v1/orgs/{orgs[0]['id']}/sites")).json()["items"]
            portal = next(s["id"] for s in sites if s["title"] == "Developer Portal")
            shares = await client.get(f"/v1/orgs/{orgs[0]['id']}/sites/{portal}/share-links")
            keys = {
                "active" if link["active"] else "inactive": link["urls"]["published"].split("=")[1]
                for link in shares.json()["items"]
            }
            return str(files[0]["downloadURL"]).removeprefix("http://sandbox.test"), keys

    url, keys = asyncio.run(first())
    path, query = url.split("?", 1)
    _, _, space, blob, name = path.split("/")
    parts = dict(item.split("=", 1) for item in query.split("&"))
    active = keys["active"]
    keys["tampered"] = active[:-1] + ("A" if active[-1] != "A" else "B")
    return {"space": space, "blob": blob, "name": name, "token": token, **parts, "keys": keys}


def _get(app: FastAPI, url: str, token: str | None) -> httpx.Response:
    async def visit() -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://fuzz", headers=headers
        ) as client:
            return await client.get(url)

    return asyncio.run(visit())


@_SETTINGS
@given(
    keep=st.lists(st.sampled_from(["space", "blob", "name", "user", "expires", "signature"])),
    values=st.lists(_VALUE, min_size=6, max_size=6),
    with_token=st.booleans(),
)
def test_file_links_never_fail(
    sandbox_app: FastAPI,
    link: dict[str, Any],
    keep: list[str],
    values: list[str],
    with_token: bool,
) -> None:
    names = ["space", "blob", "name", "user", "expires", "signature"]
    part = {n: link[n] if n in keep else values[i] for i, n in enumerate(names)}
    url = (
        f"/files/{part['space']}/{part['blob']}/{part['name']}"
        f"?user={part['user']}&expires={part['expires']}&signature={part['signature']}"
    )
    assume(len(url) < 60_000)
    response = _get(sandbox_app, url, link["token"] if with_token else None)
    assert response.status_code in (200, 400, 401, 403, 404), (url, response.status_code)
    if response.status_code == 200:
        assert response.headers["content-security-policy"] == "sandbox"
    else:
        assert response.json()["error"]["code"] == response.status_code


@_SETTINGS
@given(
    site=st.sampled_from(["northwind/handbook", "northwind/developers", "northwind/drafts", "x/y"]),
    rest=st.lists(_VALUE, max_size=3),
    key=st.sampled_from(["shareKey", "preview", "other"]),
    value=st.one_of(_VALUE, _SHARE_KEYS),
    with_token=st.booleans(),
)
@example(site="northwind/developers", rest=[], key="shareKey", value="{active}", with_token=False)
@example(site="northwind/developers", rest=[], key="shareKey", value="{active}", with_token=True)
@example(site="northwind/developers", rest=[], key="shareKey", value="{tampered}", with_token=True)
@example(site="northwind/developers", rest=[], key="shareKey", value="{active}x", with_token=False)
@example(site="northwind/developers", rest=[], key="shareKey", value="{active}%00", with_token=True)
@example(site="northwind/developers", rest=[], key="shareKey", value="{inactive}", with_token=False)
@example(site="northwind/developers", rest=[], key="preview", value="{active}", with_token=True)
@example(site="northwind/developers", rest=[], key="shareKey", value="%C3%A9", with_token=False)
@example(site="northwind/developers", rest=[], key="shareKey", value="%FF", with_token=True)
@example(site="northwind/developers", rest=[], key="shareKey", value="", with_token=False)
def test_published_sites_never_fail_with_or_without_a_token(
    sandbox_app: FastAPI,
    link: dict[str, Any],
    site: str,
    rest: list[str],
    key: str,
    value: str,
    with_token: bool,
) -> None:
    value = value.format(**link["keys"]) if value.startswith("{") else value
    url = f"/s/{site}/" + "/".join(rest) + f"?{key}={value}"
    assume(len(url) < 60_000)
    response = _get(sandbox_app, url, link["token"] if with_token else None)
    assert response.status_code in (200, 302, 307, 400, 403, 404), (url, response.status_code)
    assert "evil" not in response.headers.get("location", "")
    # The share-link site opens with its active key alone, token or not; a near miss is 403.
    opens = key == "shareKey" and value == link["keys"]["active"]
    if site == "northwind/developers" and response.status_code == 200:
        assert opens, url
    if site == "northwind/developers" and not rest and not opens:
        assert response.status_code == 403, url
    if site == "northwind/developers" and not rest and opens:
        assert response.status_code == 200, url


def test_the_fixture_link_is_real(sandbox_db: Path, link: dict[str, Any]) -> None:
    conn = sqlite3.connect(sandbox_db)
    assert conn.execute("SELECT 1 FROM spaces WHERE id = ?", (link["space"],)).fetchone()
    conn.close()
