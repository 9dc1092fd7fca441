"""The `tableCell` and `review` targets of a comment, as the platform's OpenAPI documents them."""

from __future__ import annotations

from typing import Any

from ._comments import guide, page_blocks
from ._support import EDITOR, REVIEWER, Api, DemoIds, error_of


async def _a_table(api: Api, ids: DemoIds) -> tuple[str, str, dict[str, Any]]:
    """A demo space, its first page with a table block, and that block."""
    for space in ids.spaces.values():
        found = await _table_in(api, space)
        if found is not None:
            return space, *found
    raise AssertionError("the demo has a table")


async def _table_in(api: Api, space: str) -> tuple[str, dict[str, Any]] | None:
    client = api(EDITOR)
    listed = await client.get(f"/v1/spaces/{space}/content/pages")
    if listed.status_code != 200:
        return None
    pages = listed.json()["pages"]
    stack = list(pages)
    while stack:
        page = stack.pop(0)
        stack.extend(page.get("pages", []))
        if page.get("type") != "document":
            continue
        for block in await page_blocks(client, space, page["id"]):
            if block["type"] == "table" and block["data"]["records"]:
                return page["id"], block
    raise AssertionError("the demo space has a table")


async def test_a_comment_on_a_table_cell(api: Api, ids: DemoIds) -> None:
    space, page, table = await _a_table(api, ids)
    record = next(iter(table["data"]["records"]))
    column = next(iter(table["data"]["definition"]))
    url = f"/v1/spaces/{space}/comments"
    cell = {"record": record, "definition": column}
    body = {"page": page, "node": table["key"], "tableCell": cell, "body": {"markdown": "typo"}}
    posted = await api(EDITOR).post(url, json=body)
    assert posted.status_code == 200, posted.text
    target = posted.json()["target"]
    assert target["tableCell"] == cell and target["node"]["id"] == table["key"]
    assert target["page"]["outdated"] is False
    read = (await api(EDITOR).get(f"{url}/{posted.json()['id']}")).json()
    assert read["target"]["tableCell"] == cell
    plain = (await api(EDITOR).post(url, json={"body": {"markdown": "x"}})).json()
    assert "tableCell" not in plain["target"] and "review" not in plain["target"]
    other = next(b for b in await page_blocks(api(EDITOR), space, page) if b["type"] != "table")
    bad = [
        ({**body, "tableCell": {**cell, "record": "nope"}}, "tableCell.record"),
        ({**body, "tableCell": {**cell, "definition": "nope"}}, "tableCell.definition"),
        ({**body, "node": other["key"]}, "tableCell"),
        ({"tableCell": cell, "body": {"markdown": "x"}}, "tableCell"),
        ({**body, "tableCell": {"record": record}}, "tableCell.definition"),
    ]
    for wrong, field in bad:
        message = error_of(await api(EDITOR).post(url, json=wrong), 400)
        assert message.startswith(field), (field, message)


async def test_a_review_comment_is_a_thread_naming_its_review(api: Api, ids: DemoIds) -> None:
    space, _ = guide(ids)
    made = await api(EDITOR).post(f"/v1/spaces/{space}/change-requests", json={})
    cr = f"/v1/spaces/{space}/change-requests/{made.json()['id']}"
    before = (await api(EDITOR).get(cr)).json()["comments"]
    document = {
        "nodes": [
            {
                "object": "block",
                "type": "paragraph",
                "nodes": [
                    {
                        "object": "text",
                        "leaves": [
                            {"text": "Please fix ", "marks": []},
                            {"text": "this", "marks": [{"type": "bold"}]},
                        ],
                    }
                ],
            }
        ]
    }
    review = await api(REVIEWER).post(
        f"{cr}/reviews", json={"status": "changes-requested", "comment": document}
    )
    assert review.status_code == 201, review.text
    threads = (await api(EDITOR).get(f"{cr}/comments")).json()["items"]
    [thread] = [t for t in threads if t["target"].get("review") == review.json()["id"]]
    assert thread["body"] == {"markdown": "Please fix **this**"}
    assert thread["postedBy"]["id"] == ids.users[REVIEWER]
    assert thread["target"]["changeRequest"] == made.json()["id"]
    assert (await api(EDITOR).get(cr)).json()["comments"] == before + 1
    plain = await api(REVIEWER).post(f"{cr}/reviews", json={"status": "approved"})
    assert plain.status_code in (201, 403), plain.text
    assert len((await api(EDITOR).get(f"{cr}/comments")).json()["items"]) == len(threads)
    for wrong, field in (({"markdown": "  "}, "comment.markdown"), ({"x": 1}, "comment")):
        response = await api(REVIEWER).post(
            f"{cr}/reviews", json={"status": "changes-requested", "comment": wrong}
        )
        assert error_of(response, 400).startswith(field)
