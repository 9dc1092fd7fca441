"""Comments in change requests, `outdated` after an edit, reactions (also 50 at once),
concurrent replies, and permissions that agree with what the server allows for every role."""

from __future__ import annotations

import asyncio

import pytest

from ._comments import guide, page_blocks
from ._support import (
    ADMIN,
    COMMENTER,
    CREATOR,
    EDITOR,
    GUEST,
    READER,
    REVIEWER,
    Api,
    DemoIds,
    error_of,
)

ROLES = [ADMIN, CREATOR, EDITOR, REVIEWER, COMMENTER, READER, GUEST]


async def _new_cr(api: Api, space: str) -> str:
    made = await api(EDITOR).post(f"/v1/spaces/{space}/change-requests", json={})
    assert made.status_code == 201, made.text
    return f"/v1/spaces/{space}/change-requests/{made.json()['id']}"


async def test_change_request_comments_counter_and_outdated_after_an_edit(
    api: Api, ids: DemoIds
) -> None:
    space, page = guide(ids)
    cr = await _new_cr(api, space)
    editor, commenter = api(EDITOR), api(COMMENTER)
    [first, second, *_] = await page_blocks(editor, space, page, base=f"{cr}/content")
    on_first = (
        await commenter.post(
            f"{cr}/comments",
            json={"page": page, "node": first["key"], "body": {"markdown": "first?"}},
        )
    ).json()
    on_second = (
        await commenter.post(
            f"{cr}/comments",
            json={"page": page, "node": second["key"], "body": {"markdown": "second?"}},
        )
    ).json()
    assert on_first["target"]["changeRequest"] == cr.rsplit("/", 1)[1]
    assert (await editor.get(cr)).json()["comments"] == 2
    space_count = (await editor.get(f"/v1/spaces/{space}")).json()["comments"]
    listed = (await editor.get(f"{cr}/comments", params={"limit": 1000})).json()
    assert {c["id"] for c in listed["items"]} == {on_first["id"], on_second["id"]}
    space_list = (await editor.get(f"/v1/spaces/{space}/comments", params={"limit": 1000})).json()
    assert on_first["id"] not in {c["id"] for c in space_list["items"]}
    error_of(await editor.get(f"/v1/spaces/{space}/comments/{on_first['id']}"), 404)

    markdown = (
        await editor.get(f"{cr}/content/page/{page}", params={"format": "markdown"})
    ).json()["markdown"]
    first_text = "".join(leaf["text"] for node in first["nodes"] for leaf in node.get("leaves", []))
    assert first_text and first_text in markdown
    edited = markdown.replace(first_text, first_text + " (edited)", 1)
    change = {"operation": "update_page", "page": page, "document": {"markdown": edited}}
    response = await editor.post(f"{cr}/content", json={"changes": [change]})
    assert response.status_code == 200, response.text
    after_first = (await editor.get(f"{cr}/comments/{on_first['id']}")).json()
    after_second = (await editor.get(f"{cr}/comments/{on_second['id']}")).json()
    assert after_first["target"]["page"]["outdated"] is True
    assert after_second["target"]["page"]["outdated"] is False

    await commenter.put(f"{cr}/comments/{on_first['id']}", json={"resolved": True})
    assert (await editor.get(cr)).json()["comments"] == 1
    assert (await editor.get(f"/v1/spaces/{space}")).json()["comments"] == space_count
    reply = (
        await editor.post(
            f"{cr}/comments/{on_second['id']}/replies", json={"body": {"markdown": "r"}}
        )
    ).json()
    reply_url = f"{cr}/comments/{on_second['id']}/replies/{reply['id']}"
    assert (await editor.delete(reply_url)).status_code == 205  # deleted
    assert (await editor.delete(reply_url)).status_code == 204  # was not there
    error_of(await editor.delete(f"{cr}/comments/{on_second['id']}"), 403)  # not the editor's
    assert (await commenter.delete(f"{cr}/comments/{on_second['id']}")).status_code == 204
    assert (await editor.get(cr)).json()["comments"] == 0
    commenters = (await editor.get(f"{cr}/commenters")).json()
    assert [m["id"] for m in commenters["items"]] == [ids.users[COMMENTER]]


async def test_reactions_are_idempotent_and_only_emoji(api: Api, ids: DemoIds) -> None:
    space, _ = guide(ids)
    url = f"/v1/spaces/{space}/comments/{ids.comments['comment']}"
    editor, reader = api(EDITOR), api(READER)
    before = {r["emoji"]: r["count"] for r in (await editor.get(url)).json()["reactions"]}
    once = (await editor.put(url, json={"addedReactions": ["🚀"]})).json()
    twice = (await editor.put(url, json={"addedReactions": ["🚀"]})).json()
    assert once["reactions"] == twice["reactions"]
    rocket = next(r for r in twice["reactions"] if r["emoji"] == "🚀")
    assert rocket["count"] == 1 and rocket["users"][0]["user"]["id"] == ids.users[EDITOR]
    assert rocket["users"][0]["reactedAt"]
    removed = (await editor.put(url, json={"removedReactions": ["🚀", "🦄"]})).json()
    assert {r["emoji"]: r["count"] for r in removed["reactions"]} == before
    message = error_of(await editor.put(url, json={"addedReactions": ["👍", "nope"]}), 400)
    assert message.startswith("addedReactions[1]") or "addedReactions" in message
    assert "nope" in message or "emoji" in message
    error_of(
        await editor.put(url, json={"addedReactions": ["👍"], "removedReactions": ["👍"]}), 400
    )
    error_of(await reader.put(url, json={"addedReactions": ["👍"]}), 403)
    reply = f"{url}/replies/{ids.comments['reply']}"
    on_reply = (await editor.put(reply, json={"addedReactions": ["1f389"]})).json()
    assert any(r["emoji"] == "1f389" and r["count"] == 1 for r in on_reply["reactions"])


async def test_fifty_concurrent_reactions_and_replies(api: Api, ids: DemoIds) -> None:
    """Fifty writes at once on one thread, each user reacting or replying several times:
    nothing lost, nothing doubled, counts exact."""
    space, _ = guide(ids)
    made = await api(EDITOR).post(
        f"/v1/spaces/{space}/comments", json={"body": {"markdown": "busy thread"}}
    )
    url = f"/v1/spaces/{space}/comments/{made.json()['id']}"
    who = [ADMIN, CREATOR, EDITOR, REVIEWER, COMMENTER, GUEST]
    emojis = ["👍", "🎉", "🚀", "👀", "❤️"]
    clients = {email: api(email) for email in who}

    async def react(i: int) -> int:
        email, emoji = who[i % len(who)], emojis[i % len(emojis)]
        response = await clients[email].put(url, json={"addedReactions": [emoji]})
        return response.status_code

    async def reply(i: int) -> int:
        email = who[i % len(who)]
        response = await clients[email].post(
            f"{url}/replies", json={"body": {"markdown": f"reply {i}"}}
        )
        return response.status_code

    statuses = await asyncio.gather(*(react(i) for i in range(50)), *(reply(i) for i in range(50)))
    assert set(statuses) == {200}
    expected: dict[str, set[str]] = {}
    for i in range(50):
        expected.setdefault(emojis[i % len(emojis)], set()).add(ids.users[who[i % len(who)]])
    body = (await clients[ADMIN].get(url)).json()
    got = {r["emoji"]: {u["user"]["id"] for u in r["users"]} for r in body["reactions"]}
    assert got == expected
    assert all(r["count"] == len(r["users"]) for r in body["reactions"])
    assert body["replies"] == 50
    replies = (await clients[ADMIN].get(f"{url}/replies", params={"limit": 1000})).json()
    assert replies["count"] == 50
    assert sorted(r["body"]["markdown"] for r in replies["items"]) == sorted(
        f"reply {i}" for i in range(50)
    )


@pytest.mark.parametrize("email", ROLES)
async def test_permissions_agree_with_the_server(api: Api, ids: DemoIds, email: str) -> None:
    """What `permissions` says a caller may do is exactly what the server lets them do, on
    someone else's comment and reply and on their own."""
    space, _ = guide(ids)
    base = f"/v1/spaces/{space}/comments"
    owner, caller = api(EDITOR if email != EDITOR else ADMIN), api(email)
    comment = (await owner.post(base, json={"body": {"markdown": "theirs"}})).json()
    url = f"{base}/{comment['id']}"
    reply = (await owner.post(f"{url}/replies", json={"body": {"markdown": "r"}})).json()
    reply_url = f"{url}/replies/{reply['id']}"
    seen = (await caller.get(url)).json()["permissions"]
    seen_reply = (await caller.get(reply_url)).json()["permissions"]
    assert seen["view"] is True and seen_reply["view"] is True

    async def allowed(method: str, path: str, body: object = None) -> bool:
        response = await caller.request(method, path, json=body)
        assert response.status_code in (200, 204, 205, 403), response.text
        return response.status_code != 403

    assert await allowed("PUT", url, {"body": {"markdown": "edit"}}) == seen["edit"]
    assert await allowed("PUT", reply_url, {"body": {"markdown": "edit"}}) == seen_reply["edit"]
    assert await allowed("POST", f"{url}/replies", {"body": {"markdown": "x"}}) == seen["reply"]
    assert await allowed("PUT", url, {"addedReactions": ["👍"]}) == seen["reply"]
    assert await allowed("PUT", url, {"resolved": True}) == seen["reply"]
    assert await allowed("DELETE", reply_url) == seen_reply["delete"]
    assert await allowed("DELETE", url) == seen["delete"]

    mine = await caller.post(base, json={"body": {"markdown": "mine"}})
    if mine.status_code == 403:
        assert seen["reply"] is False
        return
    own = mine.json()["permissions"]
    assert own == {"view": True, "edit": True, "reply": True, "delete": True}
    own_url = f"{base}/{mine.json()['id']}"
    assert await allowed("PUT", own_url, {"body": {"markdown": "edited"}})
    assert await allowed("DELETE", own_url)
