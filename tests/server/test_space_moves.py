"""Spaces: duplicate, move within an organization, transfer to another one."""

from __future__ import annotations

import httpx

from ._support import (
    ADMIN,
    CREATOR,
    EDITOR,
    LUMEN_ADMIN,
    Api,
    DemoIds,
    error_of,
    org_space_titles,
    top_level,
)


async def test_duplicate_space(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    original = (await admin.get(f"/v1/spaces/{ids.spaces['Public API Reference']}")).json()
    response = await api(CREATOR).post(f"/v1/spaces/{original['id']}/duplicate")
    assert response.status_code == 201, response.text
    copy = response.json()
    assert response.headers["location"] == copy["urls"]["location"]
    assert copy["id"] != original["id"] and copy["revision"] != original["revision"]
    assert copy["title"] == "Public API Reference (copy)"
    for field in ("emoji", "parent", "visibility", "editMode", "defaultLevel", "organization"):
        assert copy[field] == original[field], field
    siblings = (await admin.get(f"/v1/collections/{ids.collections['API']}/spaces")).json()
    assert [s["title"] for s in siblings["items"]] == [
        "Public API Reference",
        "Public API Reference (copy)",
        "Webhooks Guide",
    ]
    long_title = "x" * 50
    await admin.patch(f"/v1/spaces/{original['id']}", json={"title": long_title})
    long_copy = (await admin.post(f"/v1/spaces/{original['id']}/duplicate")).json()
    assert long_copy["title"] == "x" * 43 + " (copy)" and len(long_copy["title"]) == 50
    error_of(await admin.post("/v1/spaces/nope/duplicate"), 404)


async def test_move_space_between_collections_and_positions(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space = ids.spaces["Release Notes"]
    into = await admin.post(f"/v1/spaces/{space}/move", json={"parent": ids.collections["API"]})
    assert into.status_code == 200 and into.json()["parent"] == ids.collections["API"]
    siblings = (await admin.get(f"/v1/collections/{ids.collections['API']}/spaces")).json()
    assert [s["title"] for s in siblings["items"]][-1] == "Release Notes"
    first = await admin.post(
        f"/v1/spaces/{space}/move",
        json={
            "position": {"before": {"type": "space", "space": ids.spaces["Public API Reference"]}}
        },
    )
    assert first.status_code == 200
    siblings = (await admin.get(f"/v1/collections/{ids.collections['API']}/spaces")).json()
    assert [s["title"] for s in siblings["items"]] == [
        "Release Notes",
        "Public API Reference",
        "Webhooks Guide",
    ]
    back = await admin.post(
        f"/v1/spaces/{space}/move",
        json={
            "parent": None,
            "position": {"after": {"type": "space", "space": ids.spaces["Design System"]}},
        },
    )
    assert back.status_code == 200 and "parent" not in back.json()
    assert await top_level(admin, ids.northwind) == ["Design System", "Release Notes"]


async def test_move_space_conflicts_and_bad_input(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    path = f"/v1/spaces/{ids.spaces['Release Notes']}/move"
    design = ids.spaces["Design System"]
    assert "already" in error_of(
        await admin.post(path, json={"position": {"before": {"type": "space", "space": design}}}),
        409,
    )
    assert "give `parent`, `position`" in error_of(await admin.post(path, json={}), 400)
    assert "parent: no collection" in error_of(await admin.post(path, json={"parent": "nope"}), 400)
    not_sibling = {"position": {"after": {"type": "space", "space": ids.spaces["Onboarding"]}}}
    assert "is not a space next to the destination" in error_of(
        await admin.post(path, json=not_sibling), 400
    )
    itself = {"position": {"after": {"type": "space", "space": ids.spaces["Release Notes"]}}}
    error_of(await admin.post(path, json=itself), 400)
    bad_type = {"position": {"after": {"type": "page", "space": design}}}
    assert "position.after.type: must be one of space, collection" in error_of(
        await admin.post(path, json=bad_type), 400
    )
    error_of(await admin.post("/v1/spaces/nope/move", json={"parent": None}), 404)


async def test_transfer_space(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    space = ids.spaces["Webhooks Guide"]
    response = await admin.post(f"/v1/spaces/{space}/transfer", json={"organization": ids.lumen})
    assert response.status_code == 200, response.text
    moved = response.json()
    assert moved["organization"] == ids.lumen and "parent" not in moved
    assert "Webhooks Guide" in await top_level(admin, ids.lumen)
    assert "Webhooks Guide" not in await org_space_titles(admin, ids.northwind)
    assert (await api(LUMEN_ADMIN).get(f"/v1/spaces/{space}")).status_code == 200
    again = await admin.post(f"/v1/spaces/{space}/transfer", json={"organization": ids.lumen})
    assert "already belongs" in error_of(again, 409)


async def test_transfer_space_rejects_bad_targets(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    path = f"/v1/spaces/{ids.spaces['Release Notes']}/transfer"
    assert "organization: is required" in error_of(await admin.post(path, json={}), 400)
    assert "organization: no organization" in error_of(
        await admin.post(path, json={"organization": "nope"}), 400
    )
    await admin.patch(
        f"/v1/orgs/{ids.northwind}/members/{ids.users[EDITOR]}", json={"role": "admin"}
    )
    response = await api(EDITOR).post(path, json={"organization": ids.lumen})
    assert "admin role in the target" in error_of(response, 403)


async def test_a_space_leaving_its_collection_is_not_left_in_collection(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    """`in-collection` is only for spaces in a collection; at the top level such a space
    becomes `private` (never more open than before). Other visibilities are kept."""

    async def visibility(title: str) -> str:
        return str((await admin.get(f"/v1/spaces/{ids.spaces[title]}")).json()["visibility"])

    assert await visibility("Webhooks Guide") == "in-collection"
    into_handbook = {"parent": ids.collections["Company Handbook"]}
    moved = await admin.post(f"/v1/spaces/{ids.spaces['Webhooks Guide']}/move", json=into_handbook)
    assert moved.json()["visibility"] == "in-collection"  # still in a collection
    moved = await admin.post(
        f"/v1/spaces/{ids.spaces['Webhooks Guide']}/move", json={"parent": None}
    )
    assert moved.json()["visibility"] == "private"
    moved = await admin.post(
        f"/v1/spaces/{ids.spaces['Public API Reference']}/move", json={"parent": None}
    )
    assert moved.json()["visibility"] == "public"


async def test_a_transferred_in_collection_space_becomes_private(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    transferred = await admin.post(
        f"/v1/spaces/{ids.spaces['Webhooks Guide']}/transfer", json={"organization": ids.lumen}
    )
    assert transferred.json()["visibility"] == "private"


async def test_a_space_restored_after_its_collection_went_is_not_left_in_collection(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    assert (
        await admin.delete(f"/v1/collections/{ids.collections['Engineering']}")
    ).status_code == 204
    restored = (await admin.post(f"/v1/spaces/{ids.spaces['Webhooks Guide']}/restore")).json()
    assert "parent" not in restored and restored["visibility"] == "private"
    other = (await admin.post(f"/v1/spaces/{ids.spaces['Public API Reference']}/restore")).json()
    assert "parent" not in other and other["visibility"] == "public"
