"""Update and merge: three-way merges of pages and of bodies block by block; conflicts with
markers on update, the change request's side on merge; outdated; the state after merge."""

from __future__ import annotations

import httpx

from ._support import ADMIN, READER, Api, DemoIds, error_of

BODY = "# Guide\n\nFirst paragraph.\n\nSecond paragraph.\n\n```sh\necho hi\n```\n"


class Space:
    """A fresh space with one page `Guide` (BODY) and one `Other`, to merge against."""

    def __init__(self, client: httpx.AsyncClient, space: str) -> None:
        self.client, self.id = client, space

    async def main_change(self, changes: list[dict]) -> None:
        """Changes main through a change request merged at once (the API's only way)."""
        cr = await self.new_cr()
        await self.author(cr, changes)
        response = await self.client.post(f"{cr}/merge")
        assert response.status_code == 200 and response.json()["result"] == "merge", response.text

    async def new_cr(self) -> str:
        response = await self.client.post(f"/v1/spaces/{self.id}/change-requests", json={})
        assert response.status_code == 201, response.text
        return f"/v1/spaces/{self.id}/change-requests/{response.json()['number']}"

    async def author(self, cr: str, changes: list[dict]) -> dict:
        response = await self.client.post(f"{cr}/content?compat=false", json={"changes": changes})
        assert response.status_code == 200, response.text
        return dict(response.json())

    async def pages(self, cr: str | None = None) -> dict[str, dict]:
        root = f"{cr}/content" if cr else f"/v1/spaces/{self.id}/content"
        found: dict[str, dict] = {}
        stack = list((await self.client.get(f"{root}/pages")).json()["pages"])
        while stack:
            page = stack.pop()
            found[page["title"]] = page
            stack += page.get("pages", [])
        return found

    async def markdown(self, page: str, cr: str | None = None) -> str:
        root = f"{cr}/content" if cr else f"/v1/spaces/{self.id}/content"
        response = await self.client.get(f"{root}/page/{page}", params={"format": "markdown"})
        assert response.status_code == 200, response.text
        return str(response.json()["markdown"])


async def _space(admin: httpx.AsyncClient, ids: DemoIds) -> tuple[Space, str, str]:
    created = await admin.post(f"/v1/orgs/{ids.northwind}/spaces", json={"title": "Merges"})
    space = Space(admin, created.json()["id"])
    cr = await space.new_cr()
    body = await space.author(
        cr,
        [
            {"operation": "insert_page", "title": "Guide", "document": {"markdown": BODY}},
            {"operation": "insert_page", "title": "Other", "document": {"markdown": "Other.\n"}},
        ],
    )
    await admin.post(f"{cr}/merge")
    guide, other = (c["page"]["id"] for c in body["changes"])
    return space, guide, other


def _edit(page: str, markdown: str) -> dict:
    return {"operation": "update_page", "page": page, "document": {"markdown": markdown}}


async def test_non_overlapping_edits_to_one_page_merge_cleanly(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space, guide, _ = await _space(admin, ids)
    cr = await space.new_cr()
    await space.author(cr, [_edit(guide, BODY.replace("First paragraph.", "First, edited."))])
    assert (await admin.get(cr)).json()["outdated"] is False
    await space.main_change([_edit(guide, BODY.replace("Second paragraph.", "Second, edited."))])
    state = (await admin.get(cr)).json()
    assert state["outdated"] is True
    response = await admin.post(f"{cr}/update")
    assert response.json()["result"] == "update", response.text
    both = BODY.replace("First paragraph.", "First, edited.").replace(
        "Second paragraph.", "Second, edited."
    )
    assert await space.markdown(guide, cr) == both
    state = (await admin.get(cr)).json()
    assert state["outdated"] is False
    assert (
        state["revisionMergedAncestor"]
        == (await admin.get(f"/v1/spaces/{space.id}")).json()["revision"]
    )
    revision = (await admin.get(f"/v1/spaces/{space.id}/revisions/{state['revision']}")).json()
    assert revision["type"] == "update" and len(revision["parents"]) == 2
    merged = await admin.post(f"{cr}/merge")
    assert merged.json()["result"] == "merge"
    assert await space.markdown(guide) == both


async def test_a_block_changed_on_both_sides_gets_markers_on_update_then_resolves(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space, guide, _ = await _space(admin, ids)
    cr = await space.new_cr()
    await space.author(cr, [_edit(guide, BODY.replace("echo hi", "echo from the change request"))])
    await space.main_change([_edit(guide, BODY.replace("echo hi", "echo from main"))])
    response = await admin.post(f"{cr}/update")
    assert response.status_code == 200 and response.json()["result"] == "conflicts"
    text = await space.markdown(guide, cr)
    assert "<<<<<<< main" in text and ">>>>>>> change request" in text
    assert "echo from main" in text and "echo from the change request" in text  # nothing lost
    assert "First paragraph." in text
    blocked = error_of(await admin.post(f"{cr}/merge"), 400)
    assert "conflict markers" in blocked and "Guide" in blocked
    main_text = await space.markdown(guide)
    assert "<<<<<<<" not in main_text
    await space.author(cr, [_edit(guide, BODY.replace("echo hi", "echo resolved"))])
    merged = await admin.post(f"{cr}/merge")
    assert merged.json()["result"] == "merge", merged.text
    assert await space.markdown(guide) == BODY.replace("echo hi", "echo resolved")


async def test_edit_against_delete_conflicts_both_ways(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space, guide, other = await _space(admin, ids)
    cr = await space.new_cr()
    await space.author(
        cr,
        [
            _edit(guide, BODY.replace("First paragraph.", "Kept by the change request.")),
            {"operation": "delete_page", "page": other},
        ],
    )
    await space.main_change(
        [
            {"operation": "delete_page", "page": guide},
            _edit(other, "Other, edited in main.\n"),
        ]
    )
    response = await admin.post(f"{cr}/update")
    assert response.json()["result"] == "conflicts"
    guide_text = await space.markdown(guide, cr)
    assert "Kept by the change request." in guide_text and "deleted in main" in guide_text
    other_text = await space.markdown(other, cr)
    assert "Other, edited in main." in other_text and "deleted in the change request" in other_text


async def test_merge_of_an_outdated_change_request_keeps_the_change_request_side(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space, guide, other = await _space(admin, ids)
    cr = await space.new_cr()
    await space.author(
        cr,
        [
            _edit(guide, BODY.replace("echo hi", "echo cr")),
            {"operation": "insert_page", "title": "Added", "document": {"markdown": "New.\n"}},
            {"operation": "update_page", "page": other, "into": guide, "title": "Moved"},
        ],
    )
    await space.main_change(
        [
            _edit(
                guide,
                BODY.replace("echo hi", "echo main").replace(
                    "First paragraph.", "First from main."
                ),
            )
        ]
    )
    assert (await admin.get(cr)).json()["outdated"] is True
    response = await admin.post(f"{cr}/merge")
    assert response.status_code == 200 and response.json()["result"] == "conflicts"
    text = await space.markdown(guide)
    assert "echo cr" in text and "First from main." in text and "<<<<<<<" not in text
    pages = await space.pages()
    assert "Added" in pages and pages["Moved"]["path"].startswith(pages["Guide"]["path"] + "/")
    state = (await admin.get(cr)).json()
    assert state["status"] == "merged" and state["outdated"] is False
    assert state["mergedBy"]["id"] == ids.users[ADMIN] and "mergedAt" in state
    space_now = (await admin.get(f"/v1/spaces/{space.id}")).json()
    assert space_now["revision"] == state["revisionMerged"] == response.json()["revision"]
    revision = (await admin.get(f"/v1/spaces/{space.id}/content")).json()
    assert revision["type"] == "merge" and revision["mergedFrom"]["id"] == state["id"]
    hits = (await admin.get(f"/v1/spaces/{space.id}/search", params={"query": "echo cr"})).json()
    assert hits["count"] >= 1  # the search index follows the merge
    assert "merged" in error_of(await admin.post(f"{cr}/merge"), 400)
    assert "merged" in error_of(await admin.post(f"{cr}/update"), 400)
    assert "merged" in error_of(await admin.patch(cr, json={"status": "open"}), 400)


async def test_counters_after_merge_and_roles(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    space, guide, _ = await _space(admin, ids)
    before = (await admin.get(f"/v1/spaces/{space.id}")).json()
    cr = await space.new_cr()
    await space.author(cr, [_edit(guide, "Changed.\n")])
    assert "edit role" in error_of(await api(READER).post(f"{cr}/merge"), 403)
    assert "edit role" in error_of(await api(READER).post(f"{cr}/update"), 403)
    await admin.post(f"{cr}/merge")
    after = (await admin.get(f"/v1/spaces/{space.id}")).json()
    assert after["changeRequests"] == before["changeRequests"] + 1
    assert after["changeRequestsOpen"] == before["changeRequestsOpen"]
    error_of(await api(None).post(f"{cr}/merge"), 401)
    error_of(await admin.post(f"/v1/spaces/{space.id}/change-requests/nope/merge"), 404)


async def test_update_with_nothing_new_in_main_is_a_no_op(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space, guide, _ = await _space(admin, ids)
    cr = await space.new_cr()
    await space.author(cr, [_edit(guide, "Mine.\n")])
    revision = (await admin.get(cr)).json()["revision"]
    response = await admin.post(f"{cr}/update")
    assert response.json() == {"revision": revision, "result": "update"}


async def test_changes_of_a_change_request_relative_to_its_base(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space, guide, other = await _space(admin, ids)
    cr = await space.new_cr()
    inserts = [
        {"operation": "insert_page", "title": f"New {i}", "document": {"markdown": "x\n"}}
        for i in range(11)
    ]
    await space.author(
        cr,
        [
            *inserts,
            _edit(guide, "Rewritten.\n"),
            {"operation": "update_page", "page": other, "into": guide, "title": "Renamed"},
        ],
    )
    body = (await admin.get(f"{cr}/changes")).json()
    assert len(body["changes"]) == 10 and body["more"] == 4  # 11 created, 1 edited, 1 moved+edited
    every = (await admin.get(f"{cr}/changes", params={"limit": 100})).json()
    kinds = [(c["type"], c["page"]["title"]) for c in every["changes"]]
    assert ("page_edited", "Guide") in kinds and ("page_moved", "Renamed") in kinds
    edited = next(
        c for c in every["changes"] if c["type"] == "page_edited" and c["page"]["title"] == "Guide"
    )
    assert "document" in edited["attributes"]
    assert "more" not in every
    await space.main_change([_edit(guide, BODY.replace("echo hi", "echo main"))])
    await admin.post(f"{cr}/update")  # main's change is not listed as the change request's
    again = (await admin.get(f"{cr}/changes", params={"limit": 100})).json()
    assert len(again["changes"]) == len(every["changes"])
    await space.author(cr, [{"operation": "delete_page", "page": other}])
    last = (await admin.get(f"{cr}/changes", params={"limit": 100})).json()
    assert ("page_deleted", "Other") in [(c["type"], c["page"]["title"]) for c in last["changes"]]
    assert "limit" in error_of(await admin.get(f"{cr}/changes", params={"limit": -1}), 400)
