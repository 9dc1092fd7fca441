"""Change requests: create, list, get by id and number, update; counters; roles; the
content rows under {CR} answering for the change request's own revision."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx

from ._support import ADMIN, COMMENTER, CREATOR, EDITOR, READER, REVIEWER, Api, DemoIds, error_of


def _cr(space: str, ref: object = "") -> str:
    base = f"/v1/spaces/{space}/change-requests"
    return f"{base}/{ref}" if ref != "" else base


async def _create(client: httpx.AsyncClient, space: str, subject: str = "Edits") -> dict:
    response = await client.post(_cr(space), json={"subject": subject})
    assert response.status_code == 201, response.text
    return dict(response.json())


async def test_create_gives_numbers_from_one_and_every_field(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space = ids.spaces["Onboarding"]
    before = (await admin.get(f"/v1/spaces/{space}")).json()
    first = await _create(admin, space, "Fix typos")
    second = await _create(admin, space, "More")
    assert second["number"] == first["number"] + 1
    assert first["object"] == "change-request"
    assert first["status"] == "open"
    assert first["subject"] == "Fix typos"
    assert first["revision"] == first["revisionInitial"] == before["revision"]
    assert first["outdated"] is False
    assert first["comments"] == 0
    assert first["createdBy"]["id"] == ids.users[ADMIN]
    assert "revisionMerged" not in first and "mergedBy" not in first
    assert first["urls"]["location"].endswith(f"/change-requests/{first['id']}")
    after = (await admin.get(f"/v1/spaces/{space}")).json()
    assert after["changeRequests"] == before["changeRequests"] + 2
    assert after["changeRequestsOpen"] == before["changeRequestsOpen"] + 2
    assert after["revision"] == before["revision"]  # creating one does not touch main


async def test_location_header_and_get_by_id_and_number(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space = ids.spaces["Onboarding"]
    response = await admin.post(_cr(space), json={})
    assert response.headers["Location"] == response.json()["urls"]["location"]
    created = response.json()
    assert created["subject"] == ""
    by_id = (await admin.get(_cr(space, created["id"]))).json()
    by_number = (await admin.get(_cr(space, created["number"]))).json()
    assert by_id == by_number == created


async def test_an_id_wins_over_a_number_and_a_number_is_the_spaces_own(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    """`changeRequestId` is an id or a number, looked up both ways in one statement: a
    change request whose id reads as another's number is the one that reference names."""
    space = ids.spaces["Onboarding"]
    first = await _create(admin, space, "First")
    second = await _create(admin, space, "Second")
    with sqlite3.connect(sandbox_db) as conn:
        conn.row_factory = sqlite3.Row
        row = dict(
            conn.execute("SELECT * FROM change_requests WHERE id = ?", (second["id"],)).fetchone()
        )
        row |= {"id": str(first["number"]), "number": 9999}
        columns = ", ".join(row)
        conn.execute(
            f"INSERT INTO change_requests ({columns}) VALUES ({', '.join('?' * len(row))})",
            tuple(row.values()),
        )
    named = (await admin.get(_cr(space, first["number"]))).json()
    assert (named["id"], named["number"]) == (str(first["number"]), 9999)
    assert (await admin.get(_cr(space, 9999))).json()["id"] == str(first["number"])
    assert (await admin.get(_cr(space, second["number"]))).json()["id"] == second["id"]
    other = next(s for title, s in ids.spaces.items() if s != space and title != "Onboarding")
    assert "not found" in error_of(await admin.get(_cr(other, 9999)), 404)


async def test_bad_input_is_400_naming_the_field(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    space = ids.spaces["Onboarding"]
    assert "subject" in error_of(await admin.post(_cr(space), json={"subject": "x" * 101}), 400)
    assert "subject" in error_of(await admin.post(_cr(space), json={"subject": 5}), 400)
    assert "title" in error_of(await admin.post(_cr(space), json={"title": "x"}), 400)
    created = await _create(admin, space)
    url = _cr(space, created["id"])
    assert "status" in error_of(await admin.patch(url, json={"status": "merged"}), 400)
    assert "status" in error_of(await admin.patch(url, json={"status": "closed"}), 400)
    assert "subject" in error_of(await admin.patch(url, json={"subject": None}), 400)
    assert "status" in error_of(await admin.get(_cr(space), params={"status": "nope"}), 400)
    assert "limit" in error_of(await admin.get(_cr(space), params={"limit": 1001}), 400)


async def test_status_changes_keep_counters_exact(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    space = ids.spaces["Onboarding"]
    start = (await admin.get(f"/v1/spaces/{space}")).json()
    created = await _create(admin, space)
    url = _cr(space, created["number"])

    async def counts() -> tuple[int, int, int]:
        body = (await admin.get(f"/v1/spaces/{space}")).json()
        return (
            body["changeRequests"] - start["changeRequests"],
            body["changeRequestsOpen"] - start["changeRequestsOpen"],
            body["changeRequestsDraft"] - start["changeRequestsDraft"],
        )

    assert await counts() == (1, 1, 0)
    patched = (await admin.patch(url, json={"status": "draft", "subject": "Renamed"})).json()
    assert (patched["status"], patched["subject"]) == ("draft", "Renamed")
    assert await counts() == (1, 0, 1)
    await admin.patch(url, json={"status": "archived"})
    assert await counts() == (1, 0, 0)
    await admin.patch(url, json={"status": "open"})
    assert await counts() == (1, 1, 0)
    assert (await admin.patch(url, json={})).json()["status"] == "open"


async def test_list_filters_by_status_and_contributor(api: Api, ids: DemoIds) -> None:
    admin, editor = api(ADMIN), api(EDITOR)
    space = ids.spaces["Onboarding"]
    mine = await _create(editor, space, "by chen")
    other = await _create(admin, space, "by ada")
    draft = await _create(admin, space, "a draft")
    await admin.patch(_cr(space, draft["id"]), json={"status": "draft"})
    listed = (await admin.get(_cr(space), params={"limit": 1000})).json()
    numbers = [item["number"] for item in listed["items"]]
    assert numbers == sorted(numbers, reverse=True)  # newest first
    assert {mine["id"], other["id"]} <= {i["id"] for i in listed["items"]}
    assert draft["id"] not in {i["id"] for i in listed["items"]}
    assert listed["count"] == len(listed["items"])
    drafts = (await admin.get(_cr(space), params={"status": "draft"})).json()
    assert [i["id"] for i in drafts["items"]] == [draft["id"]]
    by_chen = await admin.get(_cr(space), params={"contributor": ids.users[EDITOR]})
    assert [i["id"] for i in by_chen.json()["items"]] == [mine["id"]]
    page1 = (await admin.get(_cr(space), params={"limit": 1})).json()
    page2 = (await admin.get(_cr(space), params={"limit": 1, "page": page1["next"]["page"]})).json()
    assert page1["items"][0]["number"] > page2["items"][0]["number"]


async def test_roles(api: Api, ids: DemoIds) -> None:
    space = ids.spaces["Onboarding"]
    created = await _create(api(EDITOR), space)
    for email in (REVIEWER, COMMENTER, READER):
        client = api(email)
        assert "edit role" in error_of(await client.post(_cr(space), json={}), 403)
        url = _cr(space, created["id"])
        assert "edit role" in error_of(await client.patch(url, json={"subject": "x"}), 403)
        assert (await client.get(url)).status_code == 200
        assert (await client.get(_cr(space))).status_code == 200


async def test_unknown_ids_and_no_token(api: Api, ids: DemoIds) -> None:
    admin = api(ADMIN)
    space = ids.spaces["Onboarding"]
    assert "nope" in error_of(await admin.get(_cr(space, "nope")), 404)
    assert "999" in error_of(await admin.get(_cr(space, 999)), 404)
    assert "space" in error_of(await admin.get(_cr("nope")), 404)
    assert error_of(await admin.patch(_cr(space, "nope"), json={}), 404)
    created = await _create(admin, space)
    other_space = ids.spaces["Webhooks Guide"]
    error_of(await admin.get(_cr(other_space, created["id"])), 404)  # not in that space
    anonymous = api(None)
    error_of(await anonymous.get(_cr(space)), 401)
    error_of(await anonymous.post(_cr(space), json={}), 401)
    error_of(await anonymous.get(_cr(space, created["id"])), 401)


async def test_content_rows_answer_for_the_change_request_revision(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space = ids.spaces["Webhooks Guide"]
    created = await _create(admin, space)
    base = f"{_cr(space, created['number'])}/content"
    revision = (await admin.get(base)).json()
    assert revision["id"] == created["revision"]
    pages = (await admin.get(f"{base}/pages")).json()["pages"]
    assert pages == (await admin.get(f"/v1/spaces/{space}/content/pages")).json()["pages"]
    page = ids.content["page"]
    body = (await admin.get(f"{base}/page/{page}", params={"format": "markdown"})).json()
    assert body["id"] == page and "markdown" in body
    assert (await admin.get(f"{base}/page/{page}/links")).status_code == 200
    files = (await admin.get(f"{base}/files")).json()
    assert files["count"] >= 1
    file_id = ids.content["file"]
    assert (await admin.get(f"{base}/files/{file_id}")).json()["id"] == file_id
    assert (await admin.get(f"{base}/files/{file_id}/backlinks")).status_code == 200
    error_of(await admin.get(f"{base}/page/nope"), 404)
    error_of(await admin.get(f"{base}/files/nope"), 404)
    error_of(await admin.get(f"{_cr(space, 'nope')}/content"), 404)


async def test_the_demo_change_requests(admin: httpx.AsyncClient, ids: DemoIds) -> None:
    space = ids.spaces["Public API Reference"]
    by_number = {}
    for status in ("open", "draft", "merged", "archived"):
        listed = (await admin.get(_cr(space), params={"status": status})).json()["items"]
        by_number.update({item["number"]: item for item in listed})
    assert {n: by_number[n]["status"] for n in range(1, 7)} == {
        1: "merged",
        2: "open",
        3: "open",
        4: "open",
        5: "draft",
        6: "archived",
    }
    assert by_number[2]["outdated"] and by_number[3]["outdated"] and not by_number[4]["outdated"]
    main = (await admin.get(f"/v1/spaces/{space}/content")).json()
    assert main["type"] == "edits"
    changes = (await admin.get(f"{_cr(space, 4)}/changes", params={"limit": 50})).json()
    kinds = {c["type"] for c in changes["changes"]}
    assert {"page_created", "page_deleted", "page_moved", "page_edited"} <= kinds
    reviews = (await admin.get(f"{_cr(space, 4)}/reviews")).json()["items"]
    assert [(r["status"], r["outdated"]) for r in reviews] == [
        ("approved", False),  # Ines, of the same revision
        ("changes-requested", False),  # then Dana
    ]
    asked = (await admin.get(f"{_cr(space, 4)}/requested-reviewers")).json()["items"]
    assert [a["user"]["id"] for a in asked] == [ids.users[ADMIN], ids.users[CREATOR]]
    merged_reviews = (await admin.get(f"{_cr(space, 1)}/reviews")).json()["items"]
    assert [r["status"] for r in merged_reviews] == ["approved", "approved"]
    [bruno_review] = (await admin.get(f"{_cr(space, 2)}/reviews")).json()["items"]
    assert bruno_review["status"] == "approved" and not bruno_review["outdated"]
    assert (await admin.post(f"{_cr(space, 2)}/update")).json()["result"] == "update"
    [bruno_review] = (await admin.get(f"{_cr(space, 2)}/reviews")).json()["items"]
    assert bruno_review["outdated"]  # the change request moved past the revision reviewed
    assert (await admin.post(f"{_cr(space, 3)}/update")).json()["result"] == "conflicts"
    space_now = (await admin.get(f"/v1/spaces/{space}")).json()
    assert (space_now["changeRequests"], space_now["changeRequestsOpen"]) == (6, 3)
    assert space_now["changeRequestsDraft"] == 1
