"""Spaces: read, list, create, update, delete and restore within 7 days, purge."""

from __future__ import annotations

from datetime import timedelta

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
    org_space_titles,
    top_level,
)


async def test_get_space(api: Api, ids: DemoIds) -> None:
    space_id = ids.spaces["Webhooks Guide"]
    response = await api(ADMIN).get(f"/v1/spaces/{space_id}", params={"shareKey": "ignored"})
    assert response.status_code == 200
    space = response.json()
    assert (space["object"], space["title"], space["emoji"]) == ("space", "Webhooks Guide", "🪝")
    assert space["parent"] == ids.collections["API"] and space["organization"] == ids.northwind
    assert space["visibility"] == "in-collection" and space["editMode"] == "live"
    assert space["revision"] and "deletedAt" not in space
    assert space["urls"]["location"] == f"http://sandbox.test/v1/spaces/{space_id}"
    app_page = await api(None).get(space["urls"]["app"])
    assert app_page.status_code == 200 and "Webhooks Guide" in app_page.text
    assert (space["comments"], space["changeRequests"]) == (1, 1)  # the demo's open thread, one CR
    error_of(await api(ADMIN).get("/v1/spaces/nope"), 404)
    error_of(await api(LUMEN_ADMIN).get(f"/v1/spaces/{space_id}"), 404)


@pytest.mark.parametrize(
    ("email", "expected"),
    [
        (ADMIN, {"admin", "edit", "comment", "review", "merge"}),
        (CREATOR, {"edit", "comment", "review", "merge"}),
        (EDITOR, {"edit", "comment", "review", "merge"}),
        (REVIEWER, {"comment", "review"}),
        (COMMENTER, {"comment"}),
        (READER, set()),
        (GUEST, {"edit", "comment", "review", "merge"}),  # granted edit on this space
    ],
)
async def test_space_permissions_per_role(
    api: Api, ids: DemoIds, email: str, expected: set[str]
) -> None:
    space = (await api(email).get(f"/v1/spaces/{ids.spaces['Webhooks Guide']}")).json()
    permissions = space["permissions"]
    assert permissions["view"] and permissions["access"]
    granted = {k for k in ("admin", "edit", "comment", "review", "merge") if permissions[k]}
    assert granted == expected
    assert permissions["triggerGitSync"] == permissions["edit"]
    assert permissions["viewInviteLinks"] == permissions["admin"]


async def test_team_grant_raises_a_space_role(api: Api, ids: DemoIds) -> None:
    # Dana reviews in Northwind, but Platform has admin on Architecture Decisions.
    space = (await api(REVIEWER).get(f"/v1/spaces/{ids.spaces['Architecture Decisions']}")).json()
    assert space["permissions"]["admin"] is True
    response = await api(REVIEWER).patch(
        f"/v1/spaces/{ids.spaces['Architecture Decisions']}", json={"title": "ADRs"}
    )
    assert response.status_code == 200 and response.json()["title"] == "ADRs"


async def test_list_org_spaces(api: Api, ids: DemoIds) -> None:
    titles = await org_space_titles(api(READER), ids.northwind)
    assert len(titles) == 7 and "Q3 Launch Plan" not in titles
    assert await top_level(api(READER), ids.northwind) == ["Release Notes", "Design System"]
    assert set(await org_space_titles(api(GUEST), ids.northwind)) == {
        "Public API Reference",
        "Webhooks Guide",
    }
    error_of(await api(LUMEN_ADMIN).get(f"/v1/orgs/{ids.northwind}/spaces"), 404)


async def test_list_deleted_spaces_is_for_admins(api: Api, ids: DemoIds) -> None:
    deleted = await api(ADMIN).get(f"/v1/orgs/{ids.northwind}/spaces", params={"deleted": "true"})
    (space,) = deleted.json()["items"]
    assert space["title"] == "Q3 Launch Plan" and space["deletedAt"]
    response = await api(CREATOR).get(
        f"/v1/orgs/{ids.northwind}/spaces", params={"deleted": "true"}
    )
    assert "admin" in error_of(response, 403)


async def test_create_space(api: Api, ids: DemoIds) -> None:
    response = await api(CREATOR).post(
        f"/v1/orgs/{ids.northwind}/spaces",
        json={
            "title": "Security Policies",
            "emoji": "🔐",
            "parent": ids.collections["Company Handbook"],
            "editMode": "locked",
        },
    )
    assert response.status_code == 201, response.text
    space = response.json()
    assert response.headers["location"] == space["urls"]["location"]
    assert (space["title"], space["emoji"], space["editMode"]) == (
        "Security Policies",
        "🔐",
        "locked",
    )
    assert space["parent"] == ids.collections["Company Handbook"]
    assert space["visibility"] == "private" and space["revision"]
    assert space["createdAt"] == space["updatedAt"]
    fetched = (await api(ADMIN).get(space["urls"]["location"])).json()
    assert fetched["revision"] == space["revision"]
    handbook = (
        await api(ADMIN).get(f"/v1/collections/{ids.collections['Company Handbook']}/spaces")
    ).json()
    assert [s["title"] for s in handbook["items"]] == ["Onboarding", "Security Policies"]
    bare = await api(ADMIN).post(f"/v1/orgs/{ids.northwind}/spaces")
    assert bare.status_code == 201 and bare.json()["title"] == "Untitled"
    assert bare.json()["emoji"] == "" and "parent" not in bare.json()


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"title": "x" * 51}, "title: must be at most 50 characters"),
        ({"title": "   "}, "title: must not be empty"),
        ({"emoji": "x" * 51}, "emoji: must be at most 50 characters"),
        ({"editMode": "frozen"}, "editMode: must be one of live, locked"),
        ({"parent": "nope"}, "parent: no collection 'nope'"),
        ({"template": {"id": "blank"}}, "template.id: no template 'blank'"),
        ({"template": {}}, "template.id: is required"),
        ({"visibility": "public"}, "visibility: is not a known field"),
        ([], "body: must be a JSON object"),
    ],
)
async def test_create_space_rejects_bad_input(
    admin: httpx.AsyncClient, ids: DemoIds, body: object, fragment: str
) -> None:
    response = await admin.post(f"/v1/orgs/{ids.northwind}/spaces", json=body)
    assert fragment in error_of(response, 400)
    assert len(await org_space_titles(admin, ids.northwind)) == 7


async def test_malformed_json_is_a_400(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    response = await admin.post(
        f"/v1/orgs/{ids.northwind}/spaces",
        content=b'{"title": ',
        headers={"Content-Type": "application/json"},
    )
    assert error_of(response, 400).startswith("body: malformed JSON")


async def test_create_space_needs_create_role(api: Api, ids: DemoIds) -> None:
    path = f"/v1/orgs/{ids.northwind}/spaces"
    assert "create role" in error_of(await api(EDITOR).post(path, json={"title": "X"}), 403)
    error_of(await api(GUEST).post(path, json={"title": "X"}), 403)


async def test_update_space(admin: httpx.AsyncClient, ids: DemoIds, clock) -> None:  # type: ignore[no-untyped-def]
    path = f"/v1/spaces/{ids.spaces['Release Notes']}"
    before = (await admin.get(path)).json()
    clock.advance(timedelta(minutes=5))
    response = await admin.patch(
        path, json={"title": "Changelog", "editMode": "locked", "defaultLevel": "comment"}
    )
    assert response.status_code == 200
    space = response.json()
    assert (space["title"], space["editMode"], space["defaultLevel"]) == (
        "Changelog",
        "locked",
        "comment",
    )
    assert space["emoji"] == "📣" and space["updatedAt"] > before["updatedAt"]
    icon = (await admin.patch(path, json={"icon": "https://cdn.example.com/i.png"})).json()
    assert icon["urls"]["icon"] == "https://cdn.example.com/i.png" and icon["emoji"] == ""
    emoji = (await admin.patch(path, json={"emoji": "🗞️"})).json()
    assert emoji["emoji"] == "🗞️" and "icon" not in emoji["urls"]
    removed = (await admin.patch(path, json={"emoji": None, "icon": None})).json()
    assert removed["emoji"] == "" and "icon" not in removed["urls"]
    inherit = (await admin.patch(path, json={"defaultLevel": None})).json()
    assert inherit["defaultLevel"] is None


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"title": "x" * 51}, "title: must be at most 50 characters"),
        ({"title": None}, "title: must be a string"),
        ({"emoji": "x" * 51}, "emoji: must be at most 50 characters"),
        ({"emoji": "🎉", "icon": "https://x.example/i.png"}, "emoji, icon: give only one"),
        ({"icon": "not a url"}, "icon: must be an http(s) URL"),
        ({"icon": "https://x.example/" + "a" * 2048}, "icon: must be at most 2048 characters"),
        ({"editMode": None}, "editMode: must be one of live, locked"),
        ({"defaultLevel": "owner"}, "defaultLevel: must be one of admin, create, edit, review"),
        ({"parent": None}, "parent: is not a known field"),
    ],
)
async def test_update_space_rejects_bad_input(
    admin: httpx.AsyncClient, ids: DemoIds, body: dict[str, object], fragment: str
) -> None:
    path = f"/v1/spaces/{ids.spaces['Release Notes']}"
    before = (await admin.get(path)).json()
    assert fragment in error_of(await admin.patch(path, json=body), 400)
    assert (await admin.get(path)).json() == before


async def test_space_writes_need_admin(api: Api, ids: DemoIds) -> None:
    path = f"/v1/spaces/{ids.spaces['Release Notes']}"
    creator = api(CREATOR)
    assert "admin role" in error_of(await creator.patch(path, json={"title": "X"}), 403)
    error_of(await creator.delete(path), 403)
    error_of(await creator.post(f"{path}/move", json={"parent": None}), 403)
    error_of(await creator.post(f"{path}/transfer", json={"organization": ids.lumen}), 403)
    error_of(await api(READER).post(f"{path}/duplicate"), 403)


async def test_delete_and_restore_within_seven_days(api: Api, ids: DemoIds, clock) -> None:  # type: ignore[no-untyped-def]
    admin = api(ADMIN)
    space_id = ids.spaces["Webhooks Guide"]
    assert (await admin.delete(f"/v1/spaces/{space_id}")).status_code == 204
    deleted = (await admin.get(f"/v1/spaces/{space_id}")).json()
    assert deleted["deletedAt"] == clock().isoformat().replace("+00:00", "Z")
    assert "Webhooks Guide" not in await org_space_titles(admin, ids.northwind)
    in_collection = (await admin.get(f"/v1/collections/{ids.collections['API']}/spaces")).json()
    assert [s["title"] for s in in_collection["items"]] == ["Public API Reference"]
    guest_spaces = (
        await admin.get(f"/v1/orgs/{ids.northwind}/members/{ids.users[GUEST]}/spaces")
    ).json()
    assert [i["space"]["title"] for i in guest_spaces["items"]] == ["Public API Reference"]
    assert (await admin.delete(f"/v1/spaces/{space_id}")).status_code == 204  # again: no-op
    error_of(await admin.patch(f"/v1/spaces/{space_id}", json={"title": "X"}), 404)
    error_of(await admin.post(f"/v1/spaces/{space_id}/duplicate"), 404)
    clock.advance(timedelta(days=6, hours=23))
    restored = await admin.post(f"/v1/spaces/{space_id}/restore")
    assert restored.status_code == 200
    assert "deletedAt" not in restored.json()
    assert restored.json()["parent"] == ids.collections["API"]  # back where it was
    assert "Webhooks Guide" in await org_space_titles(admin, ids.northwind)
    again = await admin.post(f"/v1/spaces/{space_id}/restore")  # not deleted: unchanged
    assert again.status_code == 200 and "deletedAt" not in again.json()


async def test_spaces_deleted_over_seven_days_ago_are_gone(
    api: Api,
    ids: DemoIds,
    clock,
    sandbox_db,  # type: ignore[no-untyped-def]
) -> None:
    import sqlite3

    admin = api(ADMIN)
    old = ids.spaces["Q3 Launch Plan"]  # deleted two days before the session started
    assert (await admin.get(f"/v1/spaces/{old}")).status_code == 200
    clock.advance(timedelta(days=5, hours=1))
    error_of(await admin.get(f"/v1/spaces/{old}"), 404)
    error_of(await admin.post(f"/v1/spaces/{old}/restore"), 404)
    listed = (
        await admin.get(f"/v1/orgs/{ids.northwind}/spaces", params={"deleted": "true"})
    ).json()
    assert listed["items"] == []
    conn = sqlite3.connect(sandbox_db)
    try:
        assert conn.execute("SELECT COUNT(*) FROM spaces WHERE id = ?", (old,)).fetchone()[0] == 0
        assert (
            conn.execute("SELECT COUNT(*) FROM revisions WHERE space_id = ?", (old,)).fetchone()[0]
            == 0
        )
    finally:
        conn.close()


async def test_purge_runs_when_the_app_starts(sandbox_db, clock) -> None:  # type: ignore[no-untyped-def]
    import sqlite3

    from docdeck.server import create_app

    clock.advance(timedelta(days=8))
    create_app(sandbox_db, clock=clock)
    conn = sqlite3.connect(sandbox_db)
    try:
        assert (
            conn.execute("SELECT COUNT(*) FROM spaces WHERE deleted_at IS NOT NULL").fetchone()[0]
            == 0
        )
    finally:
        conn.close()


async def test_org_space_list_is_in_tree_order(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    """Depth-first: a collection's spaces come where the collection sits among its siblings."""
    assert await org_space_titles(admin, ids.northwind) == [
        "Public API Reference",  # Engineering › API
        "Webhooks Guide",
        "Architecture Decisions",  # Engineering
        "Incident Runbooks",
        "Onboarding",  # Company Handbook
        "Release Notes",  # top level
        "Design System",
    ]
    await admin.post(
        f"/v1/collections/{ids.collections['Company Handbook']}/move",
        json={
            "position": {
                "before": {"type": "collection", "collection": ids.collections["Engineering"]}
            }
        },
    )
    assert (await org_space_titles(admin, ids.northwind))[0] == "Onboarding"


async def test_purge_notices_deletions_made_by_another_process(
    admin: httpx.AsyncClient,
    ids: DemoIds,
    sandbox_app,
    sandbox_db,
    clock,  # type: ignore[no-untyped-def]
) -> None:
    import sqlite3

    from docdeck.server.ids import to_db

    conn = sqlite3.connect(sandbox_db)
    with conn:
        conn.execute(
            "UPDATE spaces SET deleted_at = ? WHERE id = ?",
            (to_db(clock() - timedelta(days=10)), ids.spaces["Design System"]),
        )
    sandbox_app.state.sandbox.purger.RECHECK_SECONDS = 0.0
    await admin.get("/v1/orgs")
    remaining = conn.execute(
        "SELECT COUNT(*) FROM spaces WHERE id = ?", (ids.spaces["Design System"],)
    ).fetchone()[0]
    conn.close()
    assert remaining == 0
