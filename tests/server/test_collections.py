"""Collections: create, read, update, list, delete with contents, move, transfer."""

from __future__ import annotations

import httpx
import pytest

from ._support import ADMIN, CREATOR, EDITOR, GUEST, LUMEN_ADMIN, Api, DemoIds, error_of


async def collection_titles(client: httpx.AsyncClient, org: str, **params: str) -> list[str]:
    body = (await client.get(f"/v1/orgs/{org}/collections", params=params)).json()
    return [c["title"] for c in body["items"]]


async def test_list_collections_nested_and_top_level(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    assert await collection_titles(admin, ids.northwind) == [
        "Engineering",
        "API",
        "Company Handbook",
    ]
    top = await collection_titles(admin, ids.northwind, nested="false")
    assert top == ["Engineering", "Company Handbook"]
    body = (await admin.get(f"/v1/orgs/{ids.northwind}/collections")).json()
    api_collection = body["items"][1]
    assert api_collection["parent"] == ids.collections["Engineering"]
    assert api_collection["permissions"] == {
        "view": True,
        "admin": True,
        "viewInviteLinks": True,
        "create": True,
    }
    assert "parent" not in body["items"][0]
    error_of(
        await admin.get(f"/v1/orgs/{ids.northwind}/collections", params={"nested": "maybe"}), 400
    )


async def test_guest_sees_collections_leading_to_granted_spaces(api: Api, ids: DemoIds) -> None:
    guest = api(GUEST)
    assert await collection_titles(guest, ids.northwind) == ["Engineering", "API"]
    error_of(await guest.get(f"/v1/collections/{ids.collections['Company Handbook']}"), 404)
    spaces = (await guest.get(f"/v1/collections/{ids.collections['API']}/spaces")).json()
    assert {s["title"] for s in spaces["items"]} == {"Public API Reference", "Webhooks Guide"}


async def test_create_collection(api: Api, ids: DemoIds) -> None:
    response = await api(CREATOR).post(
        f"/v1/orgs/{ids.northwind}/collections",
        json={"title": "Security", "parent": ids.collections["Engineering"]},
    )
    assert response.status_code == 201, response.text
    collection = response.json()
    assert response.headers["location"] == collection["urls"]["location"]
    assert collection["urls"]["location"].endswith(f"/v1/collections/{collection['id']}")
    assert (collection["title"], collection["parent"], collection["organization"]) == (
        "Security",
        ids.collections["Engineering"],
        ids.northwind,
    )
    assert collection["defaultLevel"] == "inherit"
    assert collection["permissions"]["admin"] is False  # created by a `create` member
    page = await api(ADMIN).get(collection["urls"]["app"])
    assert page.status_code == 200 and "Security" in page.text
    untitled = await api(ADMIN).post(f"/v1/orgs/{ids.northwind}/collections")
    assert untitled.status_code == 201 and untitled.json()["title"] == "Untitled collection"


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"title": "x" * 51}, "title: must be at most 50 characters"),
        ({"title": ""}, "title: must not be empty"),
        ({"title": "Ok", "parent": "nope"}, "parent: no collection 'nope'"),
        ({"title": "Ok", "description": "x"}, "description: is not a known field"),
    ],
)
async def test_create_collection_rejects_bad_input(
    admin: httpx.AsyncClient, ids: DemoIds, body: dict[str, object], fragment: str
) -> None:
    response = await admin.post(f"/v1/orgs/{ids.northwind}/collections", json=body)
    assert fragment in error_of(response, 400)
    assert len(await collection_titles(admin, ids.northwind)) == 3


async def test_create_collection_needs_create_role(api: Api, ids: DemoIds) -> None:
    path = f"/v1/orgs/{ids.northwind}/collections"
    assert "create role" in error_of(await api(EDITOR).post(path, json={"title": "X"}), 403)
    error_of(await api(LUMEN_ADMIN).post(path, json={"title": "X"}), 404)
    parent_elsewhere = {"title": "X", "parent": ids.collections["User Guide"]}
    assert "parent" in error_of(await api(ADMIN).post(path, json=parent_elsewhere), 400)


async def test_update_collection(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    path = f"/v1/collections/{ids.collections['API']}"
    response = await admin.patch(
        path, json={"title": "APIs", "description": "All of them", "defaultLevel": "read"}
    )
    assert response.status_code == 200
    body = response.json()
    assert (body["title"], body["description"], body["defaultLevel"]) == (
        "APIs",
        "All of them",
        "read",
    )
    cleared = (await admin.patch(path, json={"description": None, "defaultLevel": None})).json()
    assert "description" not in cleared and cleared["defaultLevel"] is None
    assert cleared["title"] == "APIs"


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"title": "x" * 51}, "title: must be at most 50 characters"),
        ({"description": "x" * 101}, "description: must be at most 100 characters"),
        ({"defaultLevel": "owner"}, "defaultLevel: must be one of admin"),
        ({"title": None}, "title: must be a string"),
        ({"parent": None}, "parent: is not a known field"),
    ],
)
async def test_update_collection_rejects_bad_input(
    admin: httpx.AsyncClient, ids: DemoIds, body: dict[str, object], fragment: str
) -> None:
    path = f"/v1/collections/{ids.collections['API']}"
    assert fragment in error_of(await admin.patch(path, json=body), 400)
    assert (await admin.get(path)).json()["title"] == "API"


async def test_collection_writes_need_admin(api: Api, ids: DemoIds) -> None:
    path = f"/v1/collections/{ids.collections['API']}"
    creator = api(CREATOR)
    error_of(await creator.patch(path, json={"title": "X"}), 403)
    error_of(await creator.delete(path), 403)
    error_of(await creator.post(f"{path}/move", json={"parent": None}), 403)
    error_of(await creator.post(f"{path}/transfer", json={"organization": ids.lumen}), 403)
    error_of(await api(LUMEN_ADMIN).get(path), 404)


async def test_list_spaces_in_collection(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    body = (await admin.get(f"/v1/collections/{ids.collections['API']}/spaces")).json()
    assert [s["title"] for s in body["items"]] == ["Public API Reference", "Webhooks Guide"]
    assert body["count"] == 2
    one = (
        await admin.get(f"/v1/collections/{ids.collections['API']}/spaces", params={"limit": 1})
    ).json()
    assert len(one["items"]) == 1 and "next" in one
    error_of(await admin.get("/v1/collections/nope/spaces"), 404)


async def test_delete_collection_soft_deletes_its_spaces(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    engineering = ids.collections["Engineering"]
    assert (await admin.delete(f"/v1/collections/{engineering}")).status_code == 204
    error_of(await admin.get(f"/v1/collections/{engineering}"), 404)
    error_of(await admin.get(f"/v1/collections/{ids.collections['API']}"), 404)  # nested: gone
    assert await collection_titles(admin, ids.northwind) == ["Company Handbook"]
    deleted = (
        await admin.get(f"/v1/orgs/{ids.northwind}/spaces", params={"deleted": "true"})
    ).json()
    assert {s["title"] for s in deleted["items"]} >= {
        "Public API Reference",
        "Webhooks Guide",
        "Architecture Decisions",
        "Incident Runbooks",
    }
    restored = (await admin.post(f"/v1/spaces/{ids.spaces['Webhooks Guide']}/restore")).json()
    assert restored["title"] == "Webhooks Guide" and "parent" not in restored  # top level now
    assert (await admin.delete(f"/v1/collections/{engineering}")).status_code == 204
    assert (await admin.delete("/v1/collections/never-existed")).status_code == 204


async def test_move_collection(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    api_id, handbook = ids.collections["API"], ids.collections["Company Handbook"]
    moved = await admin.post(f"/v1/collections/{api_id}/move", json={"parent": None})
    assert moved.status_code == 200 and "parent" not in moved.json()
    assert await collection_titles(admin, ids.northwind, nested="false") == [
        "Engineering",
        "Company Handbook",
        "API",
    ]
    before = await admin.post(
        f"/v1/collections/{api_id}/move",
        json={"position": {"before": {"type": "collection", "collection": handbook}}},
    )
    assert before.status_code == 200
    assert await collection_titles(admin, ids.northwind, nested="false") == [
        "Engineering",
        "API",
        "Company Handbook",
    ]
    into = await admin.post(f"/v1/collections/{api_id}/move", json={"parent": handbook})
    assert into.json()["parent"] == handbook


async def test_move_collection_conflicts_and_bad_input(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    engineering, api_id = ids.collections["Engineering"], ids.collections["API"]
    path = f"/v1/collections/{engineering}/move"
    assert "itself" in error_of(await admin.post(path, json={"parent": engineering}), 400)
    assert "inside it" in error_of(await admin.post(path, json={"parent": api_id}), 400)
    assert "give `parent`, `position`" in error_of(await admin.post(path, json={}), 400)
    handbook = ids.collections["Company Handbook"]
    same = {"position": {"before": {"type": "collection", "collection": handbook}}}
    assert "already" in error_of(await admin.post(path, json=same), 409)
    not_sibling = {"position": {"after": {"type": "space", "space": ids.spaces["Webhooks Guide"]}}}
    assert "position.after.space" in error_of(await admin.post(path, json=not_sibling), 400)
    both = {
        "position": {
            "before": {"type": "collection", "collection": handbook},
            "after": {"type": "collection", "collection": handbook},
        }
    }
    assert "either before or after" in error_of(await admin.post(path, json=both), 400)
    error_of(await admin.post("/v1/collections/nope/move", json={"parent": None}), 404)


async def test_transfer_collection_with_contents(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    engineering = ids.collections["Engineering"]
    response = await admin.post(
        f"/v1/collections/{engineering}/transfer", json={"organization": ids.lumen}
    )
    assert response.status_code == 200, response.text
    assert response.json()["organization"] == ids.lumen and "parent" not in response.json()
    nested = (await admin.get(f"/v1/collections/{ids.collections['API']}")).json()
    assert nested["organization"] == ids.lumen and nested["parent"] == engineering
    space = (await admin.get(f"/v1/spaces/{ids.spaces['Webhooks Guide']}")).json()
    assert space["organization"] == ids.lumen
    assert "Engineering" in await collection_titles(admin, ids.lumen)
    # A Lumen member now sees it; the Northwind-only guest does not.
    assert (await api(LUMEN_ADMIN).get(f"/v1/collections/{engineering}")).status_code == 200
    error_of(await api(GUEST).get(f"/v1/spaces/{ids.spaces['Webhooks Guide']}"), 404)
    again = await admin.post(
        f"/v1/collections/{engineering}/transfer", json={"organization": ids.lumen}
    )
    assert "already belongs" in error_of(again, 409)


async def test_transfer_collection_rejects_bad_targets(api: Api, ids: DemoIds) -> None:
    path = f"/v1/collections/{ids.collections['Engineering']}/transfer"
    admin = api(ADMIN)
    assert "organization: is required" in error_of(await admin.post(path, json={}), 400)
    assert "organization: no organization 'nope'" in error_of(
        await admin.post(path, json={"organization": "nope"}), 400
    )
    # Chen is promoted to admin of Northwind but only edits in Lumen.
    await admin.patch(
        f"/v1/orgs/{ids.northwind}/members/{ids.users[EDITOR]}", json={"role": "admin"}
    )
    response = await api(EDITOR).post(path, json={"organization": ids.lumen})
    assert "admin role in the target" in error_of(response, 403)
