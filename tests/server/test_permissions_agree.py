"""The `permissions` objects tell the truth: for every demo role, each write the server allows
is one the caller's `permissions` announce, and each write it refuses (403) is one they deny.

A client (the TUI) enables actions from these booleans, so a mismatch is a button that fails or
an action that is hidden although allowed."""

from __future__ import annotations

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
    REVIEWER,
    Api,
    DemoIds,
)

EVERYONE = [ADMIN, CREATOR, EDITOR, REVIEWER, COMMENTER, READER, GUEST, LUMEN_ADMIN]


def expect(allowed: bool | None, response: httpx.Response, *ok: int) -> None:
    """`allowed` None: the caller cannot see the resource, so it is a 404."""
    wanted: tuple[int, ...] = (404,) if allowed is None else ok if allowed else (403,)
    assert response.status_code in wanted, (response.request.url, response.text)


async def read(client: httpx.AsyncClient, path: str) -> dict[str, bool] | None:
    response = await client.get(path)
    if response.status_code == 404:
        return None
    assert response.status_code == 200, response.text
    permissions: dict[str, bool] = response.json()["permissions"]
    return permissions


@pytest.mark.parametrize("email", EVERYONE)
async def test_space_permissions_match_space_writes(api: Api, ids: DemoIds, email: str) -> None:
    client = api(email)
    org = await read(client, f"/v1/orgs/{ids.northwind}")
    for title, space_id in ids.spaces.items():
        path = f"/v1/spaces/{space_id}"
        response = await client.get(path)
        space = response.json() if response.status_code == 200 else None
        if title == "Q3 Launch Plan" or (space and space["organization"] != ids.northwind):
            continue  # deleted, or a space of Lumen
        admin = None if space is None else space["permissions"]["admin"]
        expect(admin, await client.patch(path, json={"title": title}), 200)
        parent = None if space is None else space.get("parent")
        expect(admin, await client.post(f"{path}/move", json={"parent": parent}), 200, 409)
        create = None if space is None else bool(org and org["createContent"])
        expect(create, await client.post(f"{path}/duplicate"), 201)
        deleted = await client.delete(path)
        assert deleted.status_code == (403 if admin is False else 204), deleted.text
        if admin:  # restore needs the same role as delete
            assert (await client.post(f"{path}/restore")).status_code == 200


@pytest.mark.parametrize("email", EVERYONE)
async def test_collection_permissions_match_collection_writes(
    api: Api, ids: DemoIds, email: str
) -> None:
    client = api(email)
    org = await read(client, f"/v1/orgs/{ids.northwind}")
    created = await client.post(f"/v1/orgs/{ids.northwind}/collections", json={"title": "New"})
    expect(None if org is None else org["createContent"], created, 201)
    for title in ("Engineering", "API", "Company Handbook"):
        path = f"/v1/collections/{ids.collections[title]}"
        permissions = await read(client, path)
        admin = None if permissions is None else permissions["admin"]
        if permissions is not None:
            assert org is not None and permissions["create"] == org["createContent"]
        expect(admin, await client.patch(path, json={"title": title}), 200)
        expect(admin, await client.post(f"{path}/move", json={"position": {}}), 200, 409)
        nested = await client.post(
            f"/v1/orgs/{ids.northwind}/collections", json={"parent": ids.collections[title]}
        )
        if permissions is not None:
            expect(permissions["create"], nested, 201)
        if title == "Company Handbook":  # a delete of what the caller cannot see changes nothing
            deleted = await client.delete(path)
            assert deleted.status_code == (403 if admin is False else 204), deleted.text


@pytest.mark.parametrize("email", EVERYONE)
async def test_team_permissions_match_team_writes(api: Api, ids: DemoIds, email: str) -> None:
    client = api(email)
    teams = f"/v1/orgs/{ids.northwind}/teams"
    org = await read(client, f"/v1/orgs/{ids.northwind}")
    expect(None if org is None else org["admin"], await client.put(teams, json={"title": "N"}), 201)
    expect(None if org is None else org["listTeams"], await client.get(teams), 200)
    kofi = ids.users["kofi@northwind.dev"]
    for title in ("Platform", "Docs Guild"):
        path = f"{teams}/{ids.teams[title]}"
        permissions = await read(client, path)
        admin = None if permissions is None else permissions["admin"]
        expect(admin, await client.patch(path, json={"title": title}), 200)
        expect(admin, await client.put(f"{path}/members", json={"add": [kofi]}), 204)
        expect(admin, await client.put(f"{path}/members/{kofi}", json={"role": "member"}), 204)
        expect(admin, await client.delete(f"{path}/members/{kofi}"), 204)
        deleted = await client.delete(path)
        wanted = 404 if org is None else 403 if admin is False else 204  # the org must exist
        assert deleted.status_code == wanted, deleted.text


@pytest.mark.parametrize("email", EVERYONE)
async def test_organization_permissions_match_organization_writes(
    api: Api, ids: DemoIds, email: str
) -> None:
    client = api(email)
    org_path = f"/v1/orgs/{ids.northwind}"
    org = await read(client, org_path)
    admin = None if org is None else org["admin"]
    expect(admin, await client.patch(org_path, json={"ai": False}), 200)
    freya = f"{org_path}/members/{ids.users[READER]}"
    expect(admin, await client.patch(freya, json={"role": "read"}), 200)
    expect(admin, await client.post(f"{freya}/sso"), 200)
    expect(admin, await client.get(f"{org_path}/spaces", params={"deleted": "true"}), 200)
    invite = await client.delete(f"{org_path}/link-invites/unknown")
    expect(admin, invite, 204)
    members = None if org is None else org["listMembers"]
    expect(members, await client.get(f"{org_path}/members"), 200)
    create = None if org is None else org["createContent"]
    expect(create, await client.post(f"{org_path}/spaces", json={"title": "New"}), 201)
    expect(None if org is None else org["view"], await client.post(f"{org_path}/ping"), 200)
