"""Signed file links (`/files/...`): whatever a client puts in the link is refused as a 403,
never a 500, and what is served cannot run as a page of the sandbox's origin (the API,
`/app` and the published sites share it)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit, urlunsplit

import httpx
import pytest

from ._support import DemoIds, error_of


async def _link(admin: httpx.AsyncClient, ids: DemoIds) -> str:
    space = ids.spaces["Webhooks Guide"]
    files = (await admin.get(f"/v1/spaces/{space}/content/files")).json()["items"]
    return str(files[0]["downloadURL"]).removeprefix("http://sandbox.test")


def _with(url: str, *, name: str | None = None, signature: str | None = None) -> str:
    parts = urlsplit(url)
    path = parts.path
    if name is not None:
        path = path.rsplit("/", 1)[0] + "/" + name
    query = parts.query
    if signature is not None:
        kept = [f"{k}={v}" for k, v in parse_qsl(query) if k != "signature"]
        query = "&".join([*kept, f"signature={signature}"])
    return urlunsplit(("", "", path, query, ""))


@pytest.mark.parametrize(
    "signature", ["%C3%A9", "%FF", "%ED%A0%80", "%F0%9F%98%80", "%00", "x" * 64, ""]
)
@pytest.mark.parametrize("token", [True, False])
async def test_any_signature_a_client_sends_is_a_403(
    admin: httpx.AsyncClient, ids: DemoIds, signature: str, token: bool
) -> None:
    url = _with(await _link(admin, ids), signature=signature)
    if token:
        response = await admin.get(url)
    else:
        async with httpx.AsyncClient(
            transport=admin._transport, base_url="http://sandbox.test"
        ) as anonymous:
            response = await anonymous.get(url)
    assert "not valid" in error_of(response, 403)


@pytest.mark.parametrize(
    ("name", "attachment"),
    [
        ("evil.html", True),
        ("evil.htm", True),
        ("evil.svg", True),
        ("evil.xml", True),
        ("evil.xhtml", True),
        ("evil.js", True),
        ("photo.png", False),
        ("notes.txt", False),
    ],
)
async def test_files_cannot_script_the_sandbox_origin(
    admin: httpx.AsyncClient, ids: DemoIds, name: str, attachment: bool
) -> None:
    response = await admin.get(_with(await _link(admin, ids), name=name))
    assert response.status_code == 200
    assert response.headers["content-security-policy"] == "sandbox"
    assert response.headers["x-content-type-options"] == "nosniff"
    disposition = response.headers.get("content-disposition", "")
    assert disposition.startswith("attachment") == attachment, disposition
