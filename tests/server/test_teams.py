"""Teams and team members: create, rename, delete, the add/remove rule, roles, filters."""

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
    error_of,
)


def teams_path(ids: DemoIds) -> str:
    return f"/v1/orgs/{ids.northwind}/teams"


async def team_members(client: httpx.AsyncClient, ids: DemoIds, team: str) -> dict[str, str]:
    body = (await client.get(f"{teams_path(ids)}/{team}/members")).json()
    return {item["organization"]["user"]["email"]: item["team"]["role"] for item in body["items"]}


async def test_list_teams_with_filters(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    body = (await admin.get(teams_path(ids))).json()
    assert [t["title"] for t in body["items"]] == ["Docs Guild", "Platform"]
    platform = body["items"][1]
    assert (platform["members"], platform["spaces"]) == (3, 2)
    assert platform["permissions"] == {"admin": True, "view": True}
    owned = (await admin.get(teams_path(ids), params={"owner": ids.users[CREATOR]})).json()
    assert [t["title"] for t in owned["items"]] == ["Docs Guild"]
    everything = (await admin.get(teams_path(ids), params={"owner": ids.users[ADMIN]})).json()
    assert everything["count"] == 2  # an admin can manage every team
    nobody = (await admin.get(teams_path(ids), params={"owner": ids.users[READER]})).json()
    assert nobody == {"items": [], "count": 0}
    titled = (await admin.get(teams_path(ids), params={"title": "PLAT"})).json()
    assert [t["title"] for t in titled["items"]] == ["Platform"]
    as_owner = (await api(EDITOR).get(teams_path(ids))).json()["items"]
    assert {t["title"]: t["permissions"]["admin"] for t in as_owner} == {
        "Docs Guild": False,
        "Platform": True,
    }
    error_of(await api(GUEST).get(teams_path(ids)), 403)
    error_of(await api(LUMEN_ADMIN).get(teams_path(ids)), 404)


async def test_create_team(api: Api, ids: DemoIds) -> None:
    response = await api(ADMIN).put(
        teams_path(ids), json={"title": "Writers", "members": [ids.users[READER], COMMENTER]}
    )
    assert response.status_code == 201, response.text
    assert "location" not in response.headers
    team = response.json()
    assert (team["object"], team["title"], team["members"], team["spaces"]) == (
        "team",
        "Writers",
        2,
        0,
    )
    members = await team_members(api(ADMIN), ids, team["id"])
    assert members == {READER: "member", COMMENTER: "member"}
    fetched = (await api(READER).get(f"{teams_path(ids)}/{team['id']}")).json()
    assert fetched["id"] == team["id"] and fetched["permissions"]["admin"] is False


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({}, "title: is required"),
        ({"title": ""}, "title: must not be empty"),
        ({"title": "x" * 65}, "title: must be at most 64 characters"),
        (
            {"title": "Ok", "members": ["nobody"]},
            "members: no member of this organization has the user id or email 'nobody'",
        ),
        ({"title": "Ok", "members": "abc"}, "members: must be an array"),
        ({"title": "Ok", "owner": "x"}, "owner: is not a known field"),
    ],
)
async def test_create_team_rejects_bad_input(
    admin: httpx.AsyncClient, ids: DemoIds, body: dict[str, object], fragment: str
) -> None:
    assert fragment in error_of(await admin.put(teams_path(ids), json=body), 400)
    assert (await admin.get(teams_path(ids))).json()["count"] == 2


async def test_create_needs_admin_rename_and_delete_need_admin_or_owner(
    api: Api, ids: DemoIds
) -> None:
    """A team owner's `permissions.admin` is true, so they may rename and delete their team."""
    platform = f"{teams_path(ids)}/{ids.teams['Platform']}"
    guild = f"{teams_path(ids)}/{ids.teams['Docs Guild']}"
    error_of(await api(EDITOR).put(teams_path(ids), json={"title": "Mine"}), 403)
    assert (await api(EDITOR).get(platform)).json()["permissions"]["admin"] is True
    assert (await api(EDITOR).get(guild)).json()["permissions"]["admin"] is False
    assert "owner of the team" in error_of(await api(EDITOR).patch(guild, json={"title": "M"}), 403)
    assert "owner of the team" in error_of(await api(EDITOR).delete(guild), 403)
    renamed = await api(EDITOR).patch(platform, json={"title": "Platform Core"})
    assert renamed.status_code == 200 and renamed.json()["title"] == "Platform Core"
    assert (await api(EDITOR).delete(platform)).status_code == 204
    error_of(await api(ADMIN).get(platform), 404)


async def test_blank_team_titles_are_refused(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    platform = f"{teams_path(ids)}/{ids.teams['Platform']}"
    for body in ({"title": "   "}, {"title": "\t"}):
        assert "title: must not be empty" in error_of(
            await admin.put(teams_path(ids), json=body), 400
        )
        assert "title: must not be empty" in error_of(await admin.patch(platform, json=body), 400)
    assert (await admin.get(platform)).json()["title"] == "Platform"
    assert (await admin.get(teams_path(ids))).json()["count"] == 2


async def test_delete_of_a_team_the_caller_cannot_see_changes_nothing(
    api: Api, ids: DemoIds
) -> None:
    platform = f"{teams_path(ids)}/{ids.teams['Platform']}"
    error_of(await api(GUEST).get(platform), 404)
    assert (await api(GUEST).delete(platform)).status_code == 204
    assert (await api(ADMIN).get(platform)).status_code == 200


async def test_rename_team(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    path = f"{teams_path(ids)}/{ids.teams['Platform']}"
    response = await admin.patch(path, json={"title": "Platform Core"})
    assert response.status_code == 200 and response.json()["title"] == "Platform Core"
    assert (await admin.get(path)).json()["title"] == "Platform Core"
    assert "title: is required" in error_of(await admin.patch(path, json={}), 400)
    assert "at most 64" in error_of(await admin.patch(path, json={"title": "x" * 65}), 400)
    error_of(await admin.patch(f"{teams_path(ids)}/nope", json={"title": "X"}), 404)


async def test_delete_team(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    path = f"{teams_path(ids)}/{ids.teams['Platform']}"
    assert (await admin.delete(path)).status_code == 204
    error_of(await admin.get(path), 404)
    assert (await admin.delete(path)).status_code == 204
    chen = (await admin.get(f"/v1/orgs/{ids.northwind}/members/{ids.users[EDITOR]}")).json()
    assert chen["teams"] == 0


async def test_update_members_add_remove_rule(api: Api, ids: DemoIds) -> None:
    team = ids.teams["Platform"]
    path = f"{teams_path(ids)}/{team}/members"
    response = await api(EDITOR).put(  # Chen owns Platform
        path,
        json={
            "add": [READER, ids.users[COMMENTER], REVIEWER],
            "remove": [ids.users[READER], CREATOR],
            "memberships": {COMMENTER: {"role": "owner"}},
        },
    )
    assert response.status_code == 204 and response.content == b""
    assert await team_members(api(ADMIN), ids, team) == {
        EDITOR: "owner",
        REVIEWER: "member",
        COMMENTER: "owner",
    }


async def test_update_members_rejects_unknown_users(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    team = ids.teams["Platform"]
    path = f"{teams_path(ids)}/{team}/members"
    before = await team_members(admin, ids, team)
    response = await admin.put(path, json={"add": [READER, "ghost@nowhere.example"]})
    assert "'ghost@nowhere.example'" in error_of(response, 400)
    response = await admin.put(path, json={"memberships": {READER: {"role": "boss"}}})
    assert "must be one of owner, member" in error_of(response, 400)
    error_of(await admin.put(path, json={"remove": [LUMEN_ADMIN]}), 400)  # not in Northwind
    assert await team_members(admin, ids, team) == before


async def test_team_member_management_needs_admin_or_owner(api: Api, ids: DemoIds) -> None:
    path = f"{teams_path(ids)}/{ids.teams['Platform']}/members"
    error_of(await api(CREATOR).put(path, json={"add": [READER]}), 403)  # member, not owner
    error_of(await api(CREATOR).put(f"{path}/{ids.users[READER]}"), 403)
    error_of(await api(CREATOR).delete(f"{path}/{ids.users[REVIEWER]}"), 403)


async def test_add_update_and_remove_one_member(api: Api, ids: DemoIds) -> None:
    team = ids.teams["Platform"]
    admin = api(ADMIN)
    path = f"{teams_path(ids)}/{team}/members/{ids.users[READER]}"
    assert (await admin.put(path)).status_code == 204
    assert (await team_members(admin, ids, team))[READER] == "member"
    assert (await admin.put(path, json={"role": "owner"})).status_code == 204
    assert (await team_members(admin, ids, team))[READER] == "owner"
    assert (await admin.put(path, json={})).status_code == 204  # no role: unchanged
    assert (await team_members(admin, ids, team))[READER] == "owner"
    assert "role: must be one of owner, member" in error_of(
        await admin.put(path, json={"role": "admin"}), 400
    )
    assert (await admin.delete(path)).status_code == 204
    assert READER not in await team_members(admin, ids, team)
    assert (await admin.delete(path)).status_code == 204  # not a member: still 204
    error_of(await admin.put(f"{teams_path(ids)}/{team}/members/nobody"), 404)
    error_of(await admin.delete(f"{teams_path(ids)}/nope/members/{ids.users[READER]}"), 404)


async def test_team_members_list_shape(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    body = (await admin.get(f"{teams_path(ids)}/{ids.teams['Docs Guild']}/members")).json()
    assert body["count"] == 4
    names = [i["organization"]["user"]["displayName"] for i in body["items"]]
    assert names == sorted(names, key=str.casefold)
    assert all(i["permissions"] == {"view": True} for i in body["items"])
    guest = next(i for i in body["items"] if i["organization"]["user"]["email"] == GUEST)
    assert guest["organization"]["role"] is None


async def test_guest_sees_only_own_team(api: Api, ids: DemoIds) -> None:
    guest = api(GUEST)
    mine = await guest.get(f"{teams_path(ids)}/{ids.teams['Docs Guild']}")
    assert mine.status_code == 200 and mine.json()["permissions"] == {"admin": False, "view": True}
    error_of(await guest.get(f"{teams_path(ids)}/{ids.teams['Platform']}"), 404)
