"""Space comments: posting on a space, a page or a block, reading back, updating, deleting,
replies, list filters and the space's counter."""

from __future__ import annotations

from ._comments import blocks, guide, page_blocks
from ._support import ADMIN, COMMENTER, EDITOR, READER, Api, DemoIds, error_of


async def _open_count(api: Api, space: str) -> int:
    return int((await api(ADMIN).get(f"/v1/spaces/{space}")).json()["comments"])


async def test_post_on_a_block_and_read_back(api: Api, ids: DemoIds) -> None:
    space, page = guide(ids)
    commenter = api(COMMENTER)
    node = (await page_blocks(commenter, space, page))[0]
    before = await _open_count(api, space)
    posted = await commenter.post(
        f"/v1/spaces/{space}/comments",
        json={"page": page, "node": node["key"], "body": {"markdown": "Is **this** right?"}},
    )
    assert posted.status_code == 200, posted.text
    body = posted.json()
    assert body["object"] == "comment" and body["status"] == "open" and body["replies"] == 0
    assert body["postedBy"]["id"] == ids.users[COMMENTER]
    assert body["body"] == {"markdown": "Is **this** right?"}
    target = body["target"]
    assert target["space"] == space and target["revision"] == ids.content["current"]
    assert target["page"]["id"] == page and target["page"]["outdated"] is False
    assert target["page"]["path"] == ids.content["pagePath"]
    assert target["node"]["id"] == node["key"] and target["node"]["preview"]
    assert body["permissions"] == {"view": True, "edit": True, "reply": True, "delete": True}
    assert await _open_count(api, space) == before + 1
    url = f"/v1/spaces/{space}/comments/{body['id']}"
    assert body["urls"]["location"] == f"http://sandbox.test{url}"
    as_document = (await api(READER).get(url, params={"format": "document"})).json()
    assert as_document["body"]["document"]["object"] == "document"
    assert as_document["permissions"] == {
        "view": True,
        "edit": False,
        "reply": False,
        "delete": False,
    }
    assert (await api(ADMIN).get(url)).json()["permissions"]["delete"] is True


async def test_bad_targets_and_bodies_are_400_naming_the_field(api: Api, ids: DemoIds) -> None:
    space, page = guide(ids)
    client = api(EDITOR)
    url = f"/v1/spaces/{space}/comments"
    cases = [
        ({"body": {"markdown": "x"}, "page": "nope"}, "page"),
        ({"body": {"markdown": "x"}, "page": page, "node": "nope"}, "node"),
        ({"body": {"markdown": "x"}, "node": "abc"}, "node"),
        ({"body": {"markdown": "   "}}, "body.markdown"),
        ({"body": {}}, "body"),
        ({"body": {"markdown": 5}}, "body.markdown"),
        ({}, "body"),
        ({"body": {"markdown": "x"}, "extra": 1}, "extra"),
    ]
    for payload, field in cases:
        message = error_of(await client.post(url, json=payload), 400)
        assert message.startswith(field), (payload, message)


async def test_reader_cannot_comment_and_unknown_space_is_404(api: Api, ids: DemoIds) -> None:
    space, _ = guide(ids)
    message = error_of(
        await api(READER).post(f"/v1/spaces/{space}/comments", json={"body": {"markdown": "x"}}),
        403,
    )
    assert "comment role" in message
    error_of(await api(ADMIN).get("/v1/spaces/nope/comments"), 404)
    error_of(await api(ADMIN).get(f"/v1/spaces/{space}/comments/nope"), 404)


async def test_no_raw_html_reaches_a_client(api: Api, ids: DemoIds) -> None:
    space, _ = guide(ids)
    client = api(EDITOR)
    evil = (
        "Hi <script>alert(1)</script> and <img src=x onerror=alert(2)>\n\n"
        "<div onclick='x()'>\nblock\n</div>\n\n`<b>code</b>` stays code"
    )
    posted = (
        await client.post(f"/v1/spaces/{space}/comments", json={"body": {"markdown": evil}})
    ).json()
    markdown = posted["body"]["markdown"]
    for raw in ("<script", "<img", "<div", "</div"):
        assert raw not in markdown
    assert "&lt;script&gt;" in markdown and "`<b>code</b>`" in markdown
    from docdeck.server.content.markdown import parse

    kinds = {t.type for t in parse(markdown)} | {
        c.type for t in parse(markdown) for c in t.children or []
    }
    assert not kinds & {"html_block", "html_inline"}
    url = f"/v1/spaces/{space}/comments/{posted['id']}"
    document = (await client.get(url, params={"format": "document"})).json()["body"]["document"]
    # In a document the tag is the text of a leaf, shown as written, never a block of HTML.
    found = blocks(document)
    assert {b["type"] for b in found} <= {"paragraph"}
    assert "<script>alert(1)</script>" in str(document)


async def test_update_resolve_reopen_and_counter(api: Api, ids: DemoIds) -> None:
    space, _ = guide(ids)
    editor, commenter = api(EDITOR), api(COMMENTER)
    before = await _open_count(api, space)
    posted = (
        await editor.post(f"/v1/spaces/{space}/comments", json={"body": {"markdown": "one"}})
    ).json()
    url = f"/v1/spaces/{space}/comments/{posted['id']}"
    assert await _open_count(api, space) == before + 1
    error_of(await commenter.put(url, json={"body": {"markdown": "mine now"}}), 403)
    edited = (await editor.put(url, json={"body": {"markdown": "two"}})).json()
    assert edited["body"] == {"markdown": "two"} and "editedAt" in edited
    resolved = (await commenter.put(url, json={"resolved": True})).json()
    assert resolved["status"] == "resolved"
    assert resolved["resolvedBy"]["id"] == ids.users[COMMENTER] and resolved["resolvedAt"]
    assert await _open_count(api, space) == before
    again = (await editor.put(url, json={"resolved": True})).json()
    assert again["resolvedBy"]["id"] == ids.users[COMMENTER]  # already resolved: kept
    reopened = (await editor.put(url, json={"resolved": False})).json()
    assert reopened["status"] == "open" and "resolvedBy" not in reopened
    assert await _open_count(api, space) == before + 1
    error_of(await api(READER).put(url, json={"resolved": True}), 403)
    error_of(await editor.put(url, json={"resolved": "yes"}), 400)
    error_of(await commenter.delete(url), 403)
    assert (await editor.delete(url)).status_code == 204
    assert await _open_count(api, space) == before
    assert (await editor.delete(url)).status_code == 204  # gone: still 204
    error_of(await editor.get(url), 404)


async def test_replies_and_delete_cascades(api: Api, ids: DemoIds) -> None:
    space, _ = guide(ids)
    editor, commenter, admin = api(EDITOR), api(COMMENTER), api(ADMIN)
    posted = (
        await editor.post(f"/v1/spaces/{space}/comments", json={"body": {"markdown": "q"}})
    ).json()
    url = f"/v1/spaces/{space}/comments/{posted['id']}"
    replies = []
    for who, text in ((commenter, "a1"), (editor, "a2"), (commenter, "a3")):
        reply = await who.post(f"{url}/replies", json={"body": {"markdown": text}})
        assert reply.status_code == 200, reply.text
        assert reply.json()["object"] == "comment-reply"
        replies.append(reply.json())
    assert (await editor.get(url)).json()["replies"] == 3
    listed = (await editor.get(f"{url}/replies", params={"limit": 2})).json()
    assert [r["body"]["markdown"] for r in listed["items"]] == ["a1", "a2"]
    rest = (await editor.get(f"{url}/replies", params={"page": listed["next"]["page"]})).json()
    assert [r["body"]["markdown"] for r in rest["items"]] == ["a3"]
    one = f"{url}/replies/{replies[0]['id']}"
    assert (await editor.get(one)).json()["permissions"]["edit"] is False
    error_of(await editor.put(one, json={"body": {"markdown": "no"}}), 403)
    changed = (await commenter.put(one, json={"body": {"markdown": "a1!"}})).json()
    assert changed["body"] == {"markdown": "a1!"} and "editedAt" in changed
    error_of(await commenter.put(one, json={"resolved": True}), 400)
    error_of(await api(READER).post(f"{url}/replies", json={"body": {"markdown": "r"}}), 403)
    assert (await admin.delete(one)).status_code == 204  # an admin may delete any reply
    assert (await admin.delete(one)).status_code == 204
    assert (await editor.get(url)).json()["replies"] == 2
    assert (await editor.delete(url)).status_code == 204
    error_of(await editor.get(f"{url}/replies/{replies[1]['id']}"), 404)
    error_of(await editor.get(f"{url}/replies"), 404)


async def test_list_filters_and_order(api: Api, ids: DemoIds) -> None:
    space, page = guide(ids)
    editor, commenter = api(EDITOR), api(COMMENTER)
    base = f"/v1/spaces/{space}/comments"
    mine = []
    for who, body in ((editor, {"page": page}), (commenter, {}), (editor, {})):
        made = await who.post(base, json={**body, "body": {"markdown": "f"}})
        mine.append(made.json()["id"])
    await editor.put(f"{base}/{mine[2]}", json={"resolved": True})
    every = (await editor.get(base, params={"limit": 1000})).json()["items"]
    ids_desc = [c["id"] for c in every]
    asc = (await editor.get(base, params={"limit": 1000, "order": "asc"})).json()["items"]
    assert [c["id"] for c in asc] == list(reversed(ids_desc))
    resolved = (await editor.get(base, params={"status": "resolved", "limit": 1000})).json()
    assert mine[2] in [c["id"] for c in resolved["items"]]
    assert all(c["status"] == "resolved" for c in resolved["items"])
    opened = (await editor.get(base, params={"status": "open", "limit": 1000})).json()
    assert mine[2] not in [c["id"] for c in opened["items"]]
    on_page = (await editor.get(base, params={"targetPage": page, "limit": 1000})).json()
    assert mine[0] in [c["id"] for c in on_page["items"]]
    assert all(c["target"]["page"]["id"] == page for c in on_page["items"])
    by = await editor.get(base, params={"authors": ids.users[COMMENTER], "limit": 1000})
    assert {c["postedBy"]["id"] for c in by.json()["items"]} == {ids.users[COMMENTER]}
    error_of(await editor.get(base, params={"status": "closed"}), 400)
    error_of(await editor.get(base, params={"order": "up"}), 400)
    error_of(await editor.get(base, params={"format": "html"}), 400)
    commenters = (await editor.get(f"/v1/spaces/{space}/commenters")).json()
    assert {ids.users[EDITOR], ids.users[COMMENTER]} <= {m["id"] for m in commenters["items"]}
    assert commenters["total"] == commenters["count"]


async def test_demo_threads(api: Api, ids: DemoIds) -> None:
    """The demo has threads with replies and reactions, a resolved one, and one on a block
    that a merged change request rewrote since (outdated)."""
    reference = ids.spaces["Public API Reference"]
    items = (await api(READER).get(f"/v1/spaces/{reference}/comments")).json()["items"]
    outdated = [c for c in items if c["target"].get("page", {}).get("outdated")]
    assert len(outdated) == 1 and outdated[0]["target"]["node"]["preview"]
    assert outdated[0]["status"] == "open"
    space, _ = guide(ids)
    thread = await api(READER).get(f"/v1/spaces/{space}/comments/{ids.comments['comment']}")
    body = thread.json()
    assert body["replies"] == 2 and {r["emoji"] for r in body["reactions"]} == {"👍", "🎉"}
    assert next(r for r in body["reactions"] if r["emoji"] == "👍")["count"] == 2
    resolved = await api(READER).get(f"/v1/spaces/{space}/comments", params={"status": "resolved"})
    assert [c["resolvedBy"]["displayName"] for c in resolved.json()["items"]] == ["Ada Okafor"]
    assert (await api(READER).get(f"/v1/spaces/{space}")).json()["comments"] == 1
