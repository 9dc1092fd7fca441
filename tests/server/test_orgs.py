"""Organizations: list, read, update, link invites, search, email domains, ping, auth."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from fastapi import FastAPI

from ._support import (
    ADMIN,
    CREATOR,
    EDITOR,
    GUEST,
    LUMEN_ADMIN,
    READER,
    Api,
    DemoIds,
    error_of,
)


async def test_list_organizations_of_the_caller(admin: httpx.AsyncClient, api: Api) -> None:
    response = await admin.get("/v1/orgs")
    assert response.status_code == 200
    body = response.json()
    assert [o["title"] for o in body["items"]] == ["Northwind Labs", "Lumen"]
    assert body["count"] == 2 and "next" not in body
    northwind = body["items"][0]
    assert northwind["object"] == "organization"
    assert northwind["emailDomains"] == ["northwind.dev"]
    assert northwind["permissions"]["admin"] is True
    assert northwind["urls"]["location"] == f"http://sandbox.test/v1/orgs/{northwind['id']}"
    only_lumen = (await api(LUMEN_ADMIN).get("/v1/orgs")).json()
    assert [o["title"] for o in only_lumen["items"]] == ["Lumen"]


async def test_get_organization_permissions_per_role(api: Api, ids: DemoIds) -> None:
    path = f"/v1/orgs/{ids.northwind}"
    admin = (await api(ADMIN).get(path)).json()["permissions"]
    assert admin["admin"] and admin["createContent"] and admin["viewBilling"]
    creator = (await api(CREATOR).get(path)).json()["permissions"]
    assert not creator["admin"] and creator["createContent"] and creator["ownTeam"]
    reader = (await api(READER).get(path)).json()["permissions"]
    assert not reader["createContent"] and reader["listMembers"] and not reader["ownTeam"]
    guest = (await api(GUEST).get(path)).json()["permissions"]
    assert guest["view"] and not guest["listMembers"] and not guest["listTeams"]


async def test_unknown_and_foreign_organizations_are_not_found(api: Api, ids: DemoIds) -> None:
    error_of(await api(ADMIN).get("/v1/orgs/nope"), 404)
    message = error_of(await api(LUMEN_ADMIN).get(f"/v1/orgs/{ids.northwind}"), 404)
    assert ids.northwind in message


@pytest.mark.parametrize(
    ("headers", "fragment"),
    [
        ({}, "missing Authorization"),
        ({"Authorization": "Bearer not-a-token"}, "unknown API token"),
        ({"Authorization": "Basic abc"}, "Bearer <token>"),
        ({"Authorization": "Bearer "}, "Bearer <token>"),
    ],
)
async def test_auth_failures_are_401(api: Api, headers: dict[str, str], fragment: str) -> None:
    response = await api(None).get("/v1/orgs", headers=headers)
    assert fragment in error_of(response, 401)
    assert response.headers["www-authenticate"] == "Bearer"


async def test_a_remembered_authorization_header_names_the_same_caller_and_no_other(
    api: Api, token_for: Callable[[str], str], sandbox_app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Known `Authorization` values are remembered as sent: variants of one token's header
    are each the same caller, an unknown token is never remembered, the table stays bounded."""
    from docdeck.server.http import context

    monkeypatch.setattr(context, "MAX_KNOWN_HEADERS", 3)
    sandbox = sandbox_app.state.sandbox
    token = token_for(ADMIN)
    variants = [f"Bearer {token}", f"bearer {token}", f"BEARER   {token}  ", f"Bearer {token} "]
    for _ in range(2):
        for header in variants:
            response = await api(None).get("/v1/user", headers={"Authorization": header})
            assert response.json()["email"] == ADMIN, header
        for header in ("Bearer nope", f"Bearer {token}x", f"Basic {token}"):
            response = await api(None).get("/v1/user", headers={"Authorization": header})
            assert response.status_code == 401, header
        assert 1 <= len(sandbox.by_header) <= 3
        assert all(raw.endswith((token.encode(), b" ")) for raw in sandbox.by_header)
    reader = await api(READER).get("/v1/user")
    assert reader.json()["email"] == READER


async def test_update_organization(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    path = f"/v1/orgs/{ids.northwind}"
    response = await admin.patch(
        path,
        json={
            "title": "Northwind",
            "emailDomains": ["Northwind.dev", "nw.example.com", "northwind.dev"],
            "hostname": "nw-docs",
            "defaultRole": None,
            "logo": "https://cdn.example.com/logo.png",
            "sso": True,
            "ai": True,
            "inviteLinks": False,
            "defaultContent": None,
        },
    )
    assert response.status_code == 200, response.text
    org = response.json()
    assert org["title"] == "Northwind"
    assert org["emailDomains"] == ["northwind.dev", "nw.example.com"]
    assert org["hostname"] == "nw-docs"
    assert org["defaultRole"] is None
    assert org["urls"]["logo"] == "https://cdn.example.com/logo.png"
    assert (org["sso"], org["ai"], org["inviteLinks"]) == (True, True, False)
    again = (await admin.get(path)).json()
    assert again == org
    unchanged = (await admin.patch(path, json={})).json()
    assert unchanged == org
    cleared = (await admin.patch(path, json={"logo": None})).json()
    assert "logo" not in cleared["urls"]


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"title": "N"}, "title: must be at least 2 characters"),
        ({"title": "N" * 256}, "title: must be at most 255 characters"),
        ({"title": None}, "title: must not be null"),
        ({"hostname": "ab"}, "hostname: must be at least 3 characters"),
        ({"hostname": "a" * 33}, "hostname: must be at most 32 characters"),
        ({"hostname": "Not_Valid"}, "hostname: use 3 to 32 lowercase"),
        ({"hostname": "lumen"}, "hostname: 'lumen' is used by another organization"),
        ({"emailDomains": ["not a domain"]}, "emailDomains[0]"),
        ({"emailDomains": "northwind.dev"}, "emailDomains: must be an array"),
        ({"defaultRole": "owner"}, "defaultRole: must be one of admin"),
        ({"defaultContent": {"type": "site", "site": "x"}}, "defaultContent.site"),
        ({"logo": "ftp://x"}, "logo: must be an http(s) URL"),
        ({"sso": "maybe"}, "sso: must be true or false"),
        ({"plan": "pro"}, "plan: is not a known field"),
    ],
)
async def test_update_organization_rejects_bad_input(
    admin: httpx.AsyncClient, ids: DemoIds, body: dict[str, object], fragment: str
) -> None:
    path = f"/v1/orgs/{ids.northwind}"
    before = (await admin.get(path)).json()
    assert fragment in error_of(await admin.patch(path, json=body), 400)
    assert (await admin.get(path)).json() == before


async def test_update_organization_needs_admin(api: Api, ids: DemoIds) -> None:
    response = await api(CREATOR).patch(f"/v1/orgs/{ids.northwind}", json={"title": "Mine"})
    assert "admin" in error_of(response, 403)
    error_of(await api(EDITOR).patch(f"/v1/orgs/{ids.lumen}", json={"title": "Mine"}), 403)


async def test_delete_link_invite(api: Api, ids: DemoIds, sandbox_db) -> None:  # type: ignore[no-untyped-def]
    import sqlite3

    conn = sqlite3.connect(sandbox_db)
    (invite,) = conn.execute(
        "SELECT id FROM link_invites WHERE organization_id = ?", (ids.northwind,)
    ).fetchone()
    conn.close()
    path = f"/v1/orgs/{ids.northwind}/link-invites/{invite}"
    error_of(await api(EDITOR).delete(path), 403)
    assert (await api(ADMIN).delete(path)).status_code == 204
    assert (await api(ADMIN).delete(path)).status_code == 204  # already gone: still 204
    conn = sqlite3.connect(sandbox_db)
    assert (
        conn.execute("SELECT COUNT(*) FROM link_invites WHERE id = ?", (invite,)).fetchone()[0] == 0
    )
    conn.close()


async def test_search_matches_space_titles(api: Api, ids: DemoIds) -> None:
    path = f"/v1/orgs/{ids.northwind}/search"
    body = (await api(READER).get(path, params={"query": "DECISIONS"})).json()
    assert [(i["title"], i["pages"]) for i in body["items"]] == [("Architecture Decisions", [])]
    assert body["count"] == 1


async def test_search_matches_page_content(api: Api, ids: DemoIds) -> None:
    path = f"/v1/orgs/{ids.northwind}/search"
    body = (await api(READER).get(path, params={"query": "idempotency"})).json()
    titles = [i["title"] for i in body["items"]]
    assert titles == ["Public API Reference", "Release Notes"]  # v2.6.0 mentions it
    pages = body["items"][0]["pages"]
    assert pages[0]["title"] == "Idempotency" and pages[0]["path"] == "reference/idempotency"
    assert len(pages) <= 5
    guest = (await api(GUEST).get(path, params={"query": "signature"})).json()
    assert {i["title"] for i in guest["items"]} <= {"Webhooks Guide", "Public API Reference"}
    hits = (await api(READER).get(path, params={"query": "e"})).json()
    assert "Q3 Launch Plan" not in {i["title"] for i in hits["items"]}  # deleted
    guest = (await api(GUEST).get(path, params={"query": "e"})).json()
    assert {i["title"] for i in guest["items"]} == {"Webhooks Guide", "Public API Reference"}


@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        ({}, "query: is required"),
        ({"query": ""}, "query: must not be empty"),
        ({"query": "x" * 513}, "query: must be at most 512 characters"),
        ({"query": "a", "limit": "1001"}, "limit: must be at most 1000"),
    ],
)
async def test_search_rejects_bad_queries(
    admin: httpx.AsyncClient, ids: DemoIds, params: dict[str, str], fragment: str
) -> None:
    response = await admin.get(f"/v1/orgs/{ids.northwind}/search", params=params)
    assert fragment in error_of(response, 400)


async def test_email_domain_lookup(api: Api, ids: DemoIds) -> None:
    body = (await api(LUMEN_ADMIN).get("/v1/email-domains/NorthWind.dev/orgs")).json()
    assert [o["id"] for o in body["organizations"]] == [ids.northwind]
    assert body["organizations"][0]["permissions"]["view"] is False  # not a member
    empty = (await api(ADMIN).get("/v1/email-domains/example.org/orgs")).json()
    assert empty == {"organizations": []}


async def test_ping_sets_last_seen(api: Api, ids: DemoIds, clock) -> None:  # type: ignore[no-untyped-def]
    reader = api(READER)
    member_path = f"/v1/orgs/{ids.northwind}/members/{ids.users[READER]}"
    assert "lastSeenAt" not in (await reader.get(member_path)).json()
    response = await reader.post(f"/v1/orgs/{ids.northwind}/ping")
    assert response.status_code == 200 and response.json() == {}
    seen = (await reader.get(member_path)).json()["lastSeenAt"]
    assert seen == clock().isoformat().replace("+00:00", "Z")
    error_of(await api(LUMEN_ADMIN).post(f"/v1/orgs/{ids.northwind}/ping"), 404)
