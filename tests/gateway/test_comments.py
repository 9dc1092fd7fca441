"""`client.comments` against the in-process sandbox: both scopes, typed bodies, the paginator,
replies, reactions, resolution and the errors a caller sees."""

from __future__ import annotations

import pytest

from docdeck.gateway import BadRequestError, Client, NotFoundError, PermissionDeniedError
from docdeck.models.comments import Comment, CommentReply


async def _space(client: Client, title: str) -> str:
    orgs = await client.orgs.list()
    for org in orgs.items:
        async for space in client.spaces.list(org.id):
            if space.title == title:
                return space.id
    raise AssertionError(title)


async def test_space_thread_round_trip(client: Client, client_for) -> None:
    space = await _space(client, "Webhooks Guide")
    page = (await client.comments.list(space, target_page=None, limit=1)).items
    assert page and isinstance(page[0], Comment)
    posted = await client.comments.post(space, "Ship it?")
    assert posted.status == "open" and posted.body.markdown == "Ship it?"
    reply = await client.comments.replies.post(space, posted.id, "Yes")
    assert isinstance(reply, CommentReply) and reply.body.markdown == "Yes"
    reacted = await client.comments.update(space, posted.id, added_reactions=["👍"])
    assert [(r.emoji, r.count) for r in reacted.reactions] == [("👍", 1)]
    resolved = await client.comments.update(space, posted.id, resolved=True)
    assert resolved.status == "resolved" and resolved.resolvedBy is not None
    every = [c.id async for c in client.comments.list(space, status="resolved", limit=1)]
    assert posted.id in every
    as_document = await client.comments.get(space, posted.id, format="document")
    assert as_document.body.document is not None
    replies = await client.comments.replies.list(space, posted.id).all()
    assert [r.id for r in replies] == [reply.id]
    edited = await client.comments.replies.update(space, posted.id, reply.id, markdown="Yes!")
    assert edited.body.markdown == "Yes!" and edited.editedAt is not None
    commenters = await client.comments.commenters(space).all()
    assert any(m.user.email == "ada@northwind.dev" for m in commenters)
    async with client_for("freya@northwind.dev") as reader:
        with pytest.raises(PermissionDeniedError):
            await reader.comments.post(space, "nope")
    with pytest.raises(BadRequestError, match="addedReactions"):
        await client.comments.update(space, posted.id, added_reactions=["not-an-emoji"])
    await client.comments.replies.delete(space, posted.id, reply.id)
    await client.comments.delete(space, posted.id)
    await client.comments.delete(space, posted.id)  # gone already: not an error
    with pytest.raises(NotFoundError):
        await client.comments.get(space, posted.id)


async def test_change_request_thread_by_number(client: Client) -> None:
    space = await _space(client, "Webhooks Guide")
    listed = await client.comments.list(space, change_request=1, order="asc")
    assert listed.items and listed.items[0].target.changeRequest
    posted = await client.comments.post(space, "In the CR", change_request=1)
    assert posted.target.changeRequest == listed.items[0].target.changeRequest
    reply = await client.comments.replies.post(space, posted.id, "ok", change_request=1)
    got = await client.comments.replies.get(space, posted.id, reply.id, change_request=1)
    assert got.id == reply.id
    await client.comments.replies.delete(space, posted.id, reply.id, change_request=1)  # 205
    await client.comments.replies.delete(space, posted.id, reply.id, change_request=1)  # 204
    cr = await client.change_requests.get(space, 1)
    assert cr.comments >= 2
    await client.comments.delete(space, posted.id, change_request=1)
    assert (await client.change_requests.get(space, 1)).comments == cr.comments - 1


async def test_a_comment_on_a_table_cell(client: Client) -> None:
    """`table_cell` reaches the server as the platform's `tableCell` and comes back typed."""
    for title in ("Webhooks Guide", "Public API Reference", "Team Handbook"):
        try:
            space = await _space(client, title)
        except AssertionError:
            continue
        tree = await client.content.pages(space)
        for entry in tree.walk():
            if getattr(entry, "type", None) != "document":
                continue
            page = await client.content.page(space, entry.id, format="document")
            document = page.model_dump().get("document") or {}
            tables = [n for n in document.get("nodes", []) if n.get("type") == "table"]
            if not tables or not tables[0]["data"]["records"]:
                continue
            record = next(iter(tables[0]["data"]["records"]))
            column = next(iter(tables[0]["data"]["definition"]))
            posted = await client.comments.post(
                space, "cell", page=entry.id, node=tables[0]["key"], table_cell=(record, column)
            )
            assert posted.target.tableCell is not None
            assert (posted.target.tableCell.record, posted.target.tableCell.definition) == (
                record,
                column,
            )
            return
    raise AssertionError("no demo page with a table")
