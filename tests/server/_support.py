"""Names and helpers shared by the server tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
from fastapi import FastAPI

ADMIN = "ada@northwind.dev"  # admin of Northwind Labs and of Lumen
CREATOR = "bruno@northwind.dev"  # create; owner of the Docs Guild team
EDITOR = "chen@northwind.dev"  # edit; owner of the Platform team; edit in Lumen
REVIEWER = "dana@northwind.dev"
COMMENTER = "emeka@northwind.dev"
READER = "freya@northwind.dev"
GUEST = "gus@fieldwork.io"  # guest of Northwind with edit on Webhooks Guide (and Docs Guild)
LUMEN_ADMIN = "hana@lumen-project.org"  # not a member of Northwind


@dataclass(frozen=True)
class DemoIds:
    orgs: dict[str, str]
    users: dict[str, str]
    spaces: dict[str, str]
    collections: dict[str, str]
    teams: dict[str, str]
    content: dict[str, str]
    """Ids in the Webhooks Guide's current revision: `page`, `file`, `revision` (a former
    one), `document`, `pagePath`, and `current` (the current revision)."""
    sites: dict[str, str]
    site_spaces: dict[str, str]  # by path (the demo's variant path "webhooks-beta" is unique)
    comments: dict[str, str]
    """The Webhooks Guide's block thread (`comment`, its first `reply`) and the thread of its
    change request #1 (`crComment`, `crReply`)."""

    @property
    def northwind(self) -> str:
        return self.orgs["Northwind Labs"]

    @property
    def lumen(self) -> str:
        return self.orgs["Lumen"]


Api = Callable[[str | None], httpx.AsyncClient]


def error_of(response: httpx.Response, status: int) -> str:
    """The error message, after checking the status and the error shape."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == status
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return str(body["error"]["message"])


async def org_space_titles(client: httpx.AsyncClient, org: str, **params: str) -> list[str]:
    body = (await client.get(f"/v1/orgs/{org}/spaces", params={"limit": 1000, **params})).json()
    return [s["title"] for s in body["items"]]


async def top_level(client: httpx.AsyncClient, org: str) -> list[str]:
    body = (await client.get(f"/v1/orgs/{org}/spaces", params={"limit": 1000})).json()
    return [s["title"] for s in body["items"] if "parent" not in s]


_SERVED_DOCUMENTS: dict[tuple[object, ...], bytes] = {}


async def served_document(app: FastAPI) -> dict[str, Any]:
    """`app`'s own `/openapi.json`, as it serves it. The document is made once per test
    process for apps alike (same title, version and servers) and read afresh from its bytes
    for each caller: FastAPI makes it in about a second for each new app, and the two tests
    that check every operation's statuses against it (149 cases) made it once a case, some
    150 s of the suite's CPU. It depends only on the code, which `test_openapi_unchanged`
    pins byte for byte."""
    key = (app.title, app.version, json.dumps(app.servers, sort_keys=True), app.root_path)
    body = _SERVED_DOCUMENTS.get(key)
    if body is None:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            response = await client.get("/openapi.json")
        assert response.status_code == 200, response.text
        body = _SERVED_DOCUMENTS[key] = response.content
    document: dict[str, Any] = json.loads(body)
    return document
