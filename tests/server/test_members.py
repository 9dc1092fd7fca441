"""Organization members: filters, sorts, role changes, removal, SSO, spaces and teams."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx
import pytest

from ._support import (
    ADMIN,
    COMMENTER,
    CREATOR,
    EDITOR,
    GUEST,
    LUMEN_ADMIN,
    READER,
    Api,
    DemoIds,
    error_of,
)


async def all_members(client: httpx.AsyncClient, org: str, **params: str) -> list[dict]:
    body = (await client.get(f"/v1/orgs/{org}/members", params={"limit": 1000, **params})).json()
    return list(body["items"])


async def test_list_members_default_sort_is_newest_joined_first(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    members = await all_members(admin, ids.northwind)
    assert len(members) == 9
    joined = [m["joinedAt"] for m in members]
    assert joined == sorted(joined, reverse=True)
    oldest_first = await all_members(admin, ids.northwind, order="asc")
    assert [m["id"] for m in oldest_first] == [m["id"] for m in reversed(members)]
    ada = next(m for m in members if m["user"]["email"] == ADMIN)
    assert ada["role"] == "admin" and ada["object"] == "member"
    assert ada["spaces"] == 7 and ada["teams"] == 0
    assert ada["user"]["urls"]["location"].endswith(f"/v1/users/{ada['id']}")


@pytest.mark.parametrize(
    ("role", "emails"),
    [
        ("admin", {ADMIN}),
        ("create", {CREATOR}),
        ("edit", {EDITOR, "ines@northwind.dev"}),
        ("review", {"dana@northwind.dev"}),
        ("comment", {COMMENTER}),
        ("read", {READER, "kofi@northwind.dev"}),
        ("guest", {GUEST}),
    ],
)
async def test_filter_members_by_role(
    admin: httpx.AsyncClient, ids: DemoIds, role: str, emails: set[str]
) -> None:
    members = await all_members(admin, ids.northwind, role=role)
    assert {m["user"]["email"] for m in members} == emails


async def test_search_members_by_name_or_email(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    assert {m["user"]["email"] for m in await all_members(admin, ids.northwind, search="INÊS")} == {
        "ines@northwind.dev"
    }
    by_email = await all_members(admin, ids.northwind, search="fieldwork")
    assert [m["user"]["email"] for m in by_email] == [GUEST]
    assert await all_members(admin, ids.northwind, search="zzz") == []


async def test_sort_by_last_seen_lists_only_active_members(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    members = await all_members(admin, ids.northwind, sort="lastSeenAt")
    assert READER not in {m["user"]["email"] for m in members}  # never seen
    seen = [m["lastSeenAt"] for m in members]
    assert seen == sorted(seen, reverse=True) and len(seen) == 8
    asc = await all_members(admin, ids.northwind, sort="lastSeenAt", order="asc")
    assert [m["lastSeenAt"] for m in asc] == sorted(seen)


@pytest.mark.parametrize(
    ("params", "fragment"),
    [
        (
            {"role": "owner"},
            "role: must be one of admin, create, edit, review, comment, read, guest",
        ),
        ({"sort": "name"}, "sort: must be one of joinedAt, lastSeenAt"),
        ({"order": "up"}, "order: must be one of asc, desc"),
        ({"limit": "5000"}, "limit: must be at most 1000"),
        ({"limit": "-1"}, "limit: must be at least 0"),
        ({"limit": "ten"}, "limit: must be an integer"),
        ({"page": "not-a-cursor"}, "page: not a valid page cursor"),
    ],
)
async def test_list_members_rejects_bad_parameters(
    admin: httpx.AsyncClient, ids: DemoIds, params: dict[str, str], fragment: str
) -> None:
    response = await admin.get(f"/v1/orgs/{ids.northwind}/members", params=params)
    assert fragment in error_of(response, 400)


async def test_cursor_of_one_sort_is_refused_by_another(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    path = f"/v1/orgs/{ids.northwind}/members"
    first = (await admin.get(path, params={"limit": 2})).json()
    cursor = first["next"]["page"]
    response = await admin.get(path, params={"limit": 2, "page": cursor, "order": "asc"})
    assert "page:" in error_of(response, 400)


async def test_guests_cannot_list_members_but_see_themselves(api: Api, ids: DemoIds) -> None:
    guest = api(GUEST)
    assert "guests may not" in error_of(await guest.get(f"/v1/orgs/{ids.northwind}/members"), 403)
    me = await guest.get(f"/v1/orgs/{ids.northwind}/members/{ids.users[GUEST]}")
    assert me.status_code == 200 and me.json()["role"] is None
    assert me.json()["spaces"] == 2 and me.json()["teams"] == 1
    other = await guest.get(f"/v1/orgs/{ids.northwind}/members/{ids.users[ADMIN]}")
    error_of(other, 403)


async def test_get_member_unknown_or_foreign(api: Api, ids: DemoIds) -> None:
    error_of(await api(ADMIN).get(f"/v1/orgs/{ids.northwind}/members/nobody"), 404)
    path = f"/v1/orgs/{ids.northwind}/members/{ids.users[ADMIN]}"
    error_of(await api(LUMEN_ADMIN).get(path), 404)


async def test_update_member_role(api: Api, ids: DemoIds) -> None:
    path = f"/v1/orgs/{ids.northwind}/members/{ids.users[READER]}"
    response = await api(ADMIN).patch(path, json={"role": "edit"})
    assert response.status_code == 200 and response.json()["role"] == "edit"
    assert (await api(READER).get(f"/v1/orgs/{ids.northwind}")).json()["permissions"][
        "createContent"
    ] is False
    guest = (await api(ADMIN).patch(path, json={"role": None})).json()
    assert guest["role"] is None and guest["spaces"] == 1  # granted through Docs Guild


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        (
            {"role": "owner"},
            "role: must be one of admin, create, edit, review, comment, read, null",
        ),
        ({}, "role: is required"),
        ({"role": "read", "extra": 1}, "extra: is not a known field"),
    ],
)
async def test_update_member_rejects_bad_roles(
    admin: httpx.AsyncClient, ids: DemoIds, body: dict[str, object], fragment: str
) -> None:
    path = f"/v1/orgs/{ids.northwind}/members/{ids.users[READER]}"
    assert fragment in error_of(await admin.patch(path, json=body), 400)


async def test_update_member_needs_admin_and_keeps_an_admin(api: Api, ids: DemoIds) -> None:
    path = f"/v1/orgs/{ids.northwind}/members/{ids.users[ADMIN]}"
    error_of(await api(CREATOR).patch(path, json={"role": "read"}), 403)
    assert "last admin" in error_of(await api(ADMIN).patch(path, json={"role": "read"}), 400)
    error_of(
        await api(ADMIN).patch(f"/v1/orgs/{ids.northwind}/members/nobody", json={"role": "read"}),
        404,
    )


async def test_remove_member(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    path = f"/v1/orgs/{ids.northwind}/members/{ids.users[CREATOR]}"
    error_of(await api(EDITOR).delete(path), 403)
    assert (await admin.delete(path)).status_code == 204
    error_of(await admin.get(path), 404)
    assert (await admin.delete(path)).status_code == 204  # not a member any more: still 204
    team = (await admin.get(f"/v1/orgs/{ids.northwind}/teams/{ids.teams['Docs Guild']}")).json()
    assert team["members"] == 3  # the owner left the team with the organization
    error_of(await api(CREATOR).get(f"/v1/orgs/{ids.northwind}"), 404)
    last_admin = f"/v1/orgs/{ids.northwind}/members/{ids.users[ADMIN]}"
    assert "last admin" in error_of(await admin.delete(last_admin), 400)


async def test_set_sso_member(api: Api, ids: DemoIds) -> None:
    path = f"/v1/orgs/{ids.northwind}/members/{ids.users[EDITOR]}/sso"
    error_of(await api(EDITOR).post(path), 403)
    response = await api(ADMIN).post(path)
    assert response.status_code == 200 and response.json()["sso"] is True
    error_of(await api(ADMIN).post(f"/v1/orgs/{ids.northwind}/members/nobody/sso"), 404)


async def test_member_spaces_with_permission(api: Api, ids: DemoIds) -> None:
    path = f"/v1/orgs/{ids.northwind}/members/{ids.users[GUEST]}/spaces"
    body = (await api(ADMIN).get(path)).json()
    assert body["count"] == 2
    got = {item["space"]["title"]: item["permission"] for item in body["items"]}
    assert got == {"Webhooks Guide": "edit", "Public API Reference": "edit"}
    reader = f"/v1/orgs/{ids.northwind}/members/{ids.users[READER]}/spaces"
    items = (await api(ADMIN).get(reader, params={"order": "asc"})).json()["items"]
    assert len(items) == 7 and {i["permission"] for i in items} == {"read", "edit"}
    created = [i["space"]["createdAt"] for i in items]
    assert created == sorted(created)
    assert (await api(GUEST).get(path)).status_code == 200  # a guest may list their own
    error_of(await api(GUEST).get(reader), 403)
    error_of(await api(ADMIN).get(f"/v1/orgs/{ids.northwind}/members/nobody/spaces"), 404)


async def test_member_teams_with_title_filter(api: Api, ids: DemoIds) -> None:
    path = f"/v1/orgs/{ids.northwind}/members/{ids.users[CREATOR]}/teams"
    body = (await api(ADMIN).get(path)).json()
    got = {item["team"]["title"]: item["member"]["role"] for item in body["items"]}
    assert got == {"Docs Guild": "owner", "Platform": "member"}
    filtered = (await api(ADMIN).get(path, params={"title": "GUILD"})).json()
    assert [i["team"]["title"] for i in filtered["items"]] == ["Docs Guild"]
    assert filtered["count"] == 1
    error_of(await api(ADMIN).get(f"/v1/orgs/{ids.northwind}/members/nobody/teams"), 404)


async def test_user_urls_resolve(api: Api, ids: DemoIds) -> None:
    member = (await api(READER).get(f"/v1/orgs/{ids.northwind}/members/{ids.users[ADMIN]}")).json()
    user = await api(READER).get(member["user"]["urls"]["location"])
    assert user.status_code == 200 and user.json()["email"] == ADMIN
    error_of(await api(LUMEN_ADMIN).get(f"/v1/users/{ids.users[READER]}"), 404)


@pytest.mark.parametrize("sort", ["joinedAt", "lastSeenAt"])
@pytest.mark.parametrize("order", ["desc", "asc"])
@pytest.mark.parametrize("role", [None, "guest", "read"])
async def test_paging_through_ties_on_the_sort_key_skips_and_repeats_no_member(
    admin: httpx.AsyncClient,
    ids: DemoIds,
    sandbox_db: Path,
    sort: str,
    order: str,
    role: str | None,
) -> None:
    """Many members share one `joinedAt` and one `lastSeenAt`: pages of two, which end in the
    middle of a tie, still list every member once, in the order of (time, id)."""
    raw = sqlite3.connect(sandbox_db)
    with raw:
        for index in range(7):
            user = f"u-tie-{index}"
            raw.execute(
                "INSERT INTO users (id, email, display_name) VALUES (?, ?, ?)",
                (user, f"tie{index}@example.test", f"Tie {index}"),
            )
            raw.execute(
                "INSERT INTO members (organization_id, user_id, role, joined_at, last_seen_at)"
                " VALUES (?, ?, ?, '2024-03-03T00:00:00.000000Z', '2025-03-03T00:00:00.000000Z')",
                (ids.northwind, user, None if index % 2 else "read"),
            )
    raw.close()
    params = {"sort": sort, "order": order} | ({"role": role} if role else {})
    everyone = await all_members(admin, ids.northwind, **params)
    field = "joinedAt" if sort == "joinedAt" else "lastSeenAt"
    expected = sorted(everyone, key=lambda m: (m[field], m["id"]), reverse=order == "desc")
    assert [m["id"] for m in everyone] == [m["id"] for m in expected]
    assert sum(1 for m in everyone if m["id"].startswith("u-tie-")) >= 3
    paged: list[str] = []
    page: str | None = None
    while True:
        body = (
            await admin.get(
                f"/v1/orgs/{ids.northwind}/members",
                params=params | {"limit": "2"} | ({"page": page} if page else {}),
            )
        ).json()
        assert len(body["items"]) <= 2 and body["count"] == len(everyone)
        paged += [m["id"] for m in body["items"]]
        page = (body.get("next") or {}).get("page")
        if page is None:
            break
    assert paged == [m["id"] for m in everyone]
