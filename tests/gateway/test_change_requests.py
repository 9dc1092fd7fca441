"""client.change_requests against the sandbox: create, list (status and contributor
filters, every page), get by id and number, update, and the content of a change request."""

from __future__ import annotations

import pytest

from docdeck.gateway import BadRequestError, Client, NotFoundError, PermissionDeniedError
from docdeck.models import ChangeRequest, RevisionEdits, RevisionPageDocument


async def _space(client: Client, title: str) -> str:
    orgs = await client.orgs.list()
    for org in orgs.items:
        async for space in client.spaces.list(org.id):
            if space.title == title:
                return space.id
    raise AssertionError(title)


async def test_create_get_update_list(client: Client) -> None:
    """The demo holds change requests of its own (a draft among them), so the lists are
    compared with what they held before, not with a fixed order or length."""
    space = await _space(client, "Public API Reference")

    async def ids(**filters: str) -> list[str]:
        return [cr.id async for cr in client.change_requests.list(space, **filters)]

    drafts_before = await ids(status="draft")
    created = await client.change_requests.create(space, subject="Document refunds")
    assert isinstance(created, ChangeRequest)
    assert created.status == "open" and created.number >= 1 and not created.outdated
    assert (await client.change_requests.get(space, created.number)).id == created.id
    me = created.createdBy.id
    mine_before = await ids(status="draft", contributor=me)
    drafted = await client.change_requests.update(space, created.id, status="draft")
    assert drafted.status == "draft" and drafted.subject == "Document refunds"
    drafts = await ids(status="draft")
    assert sorted(drafts) == sorted([*drafts_before, created.id])
    assert drafts[0] == created.id  # newest first: it has the highest number
    assert created.id not in await ids()
    mine = await ids(status="draft", contributor=me)
    assert sorted(mine) == sorted([*mine_before, created.id])
    assert (await client.spaces.get(space)).changeRequestsDraft == len(drafts)


async def test_every_page_of_the_list(client: Client) -> None:
    space = await _space(client, "Release Notes")
    made = [(await client.change_requests.create(space, subject=f"cr {i}")).id for i in range(5)]
    listed = [cr.id async for cr in client.change_requests.list(space, limit=2)]
    assert listed == list(reversed(made))


async def test_errors_are_typed(client: Client, client_for) -> None:
    space = await _space(client, "Public API Reference")
    with pytest.raises(NotFoundError):
        await client.change_requests.get(space, 9999)
    with pytest.raises(BadRequestError, match="subject"):
        await client.change_requests.create(space, subject="x" * 101)
    async with client_for("freya@northwind.dev") as reader:
        with pytest.raises(PermissionDeniedError, match="edit role"):
            await reader.change_requests.create(await _space(client, "Onboarding"))


async def test_content_of_a_change_request(client: Client) -> None:
    space = await _space(client, "Public API Reference")
    cr = await client.change_requests.create(space)
    revision = await client.change_requests.content.revision(space, cr.number)
    assert isinstance(revision, RevisionEdits) and revision.id == cr.revision
    pages = await client.change_requests.content.pages(space, cr.id)
    refunds = pages.by_path("guides/orders/refunds")
    assert isinstance(refunds, RevisionPageDocument)
    page = await client.change_requests.content.page(space, cr.id, refunds.id, format="markdown")
    assert page.markdown
    links = await client.change_requests.content.page_links(space, cr.id, refunds.id)
    assert links.count is not None
    files = [f async for f in client.change_requests.content.files(space, cr.id)]
    assert files
    one = await client.change_requests.content.file(space, cr.id, files[0].id)
    assert one.id == files[0].id
    backlinks = [
        b async for b in client.change_requests.content.file_backlinks(space, cr.id, files[0].id)
    ]
    assert isinstance(backlinks, list)


async def test_authoring_through_the_gateway(client: Client) -> None:
    space = await _space(client, "Public API Reference")
    cr = await client.change_requests.create(space, subject="New guide")
    result = await client.change_requests.content.update(
        space,
        cr.number,
        [
            {
                "operation": "insert_page",
                "ref": "g",
                "title": "Guide",
                "document": {"markdown": "# Guide\n\nHello.\n"},
            }
        ],
    )
    assert result.changeRequest.revision != cr.revision
    assert [c["object"] for c in result.changes] == ["created_page"]
    page_id = result.changes[0]["page"]["id"]
    page = await client.change_requests.content.page(space, cr.id, page_id, format="markdown")
    assert page.title == "Guide" and page.markdown == "# Guide\n\nHello.\n"
    with pytest.raises(BadRequestError, match=r"changes\[0\]\.page"):
        await client.change_requests.content.update(
            space, cr.id, [{"operation": "delete_page", "page": "nope"}]
        )


async def test_update_and_merge_through_the_gateway(client: Client) -> None:
    space = await _space(client, "Release Notes")
    cr = await client.change_requests.create(space, subject="Notes")
    await client.change_requests.content.update(
        space,
        cr.id,
        [
            {
                "operation": "insert_page",
                "title": "Merged notes",
                "document": {"markdown": "Text.\n"},
            }
        ],
    )
    updated = await client.change_requests.update_from_main(space, cr.id)
    assert updated.result == "update"
    merged = await client.change_requests.merge(space, cr.id)
    assert merged.result == "merge"
    assert (await client.spaces.get(space)).revision == merged.revision
    assert (await client.change_requests.get(space, cr.id)).status == "merged"


async def test_reviews_through_the_gateway(client: Client, client_for) -> None:
    space = await _space(client, "Public API Reference")
    cr = await client.change_requests.create(space, subject="Review me")
    org = next(o.id for o in (await client.orgs.list()).items if o.title == "Northwind Labs")
    reviewers = [m async for m in client.members.list(org, role="review")]
    reviewer = reviewers[0]
    asked = await client.change_requests.requested_reviewers.request(space, cr.id, [reviewer.id])
    assert asked.users and asked.users[0].user is not None
    listed = [r async for r in client.change_requests.requested_reviewers.list(space, cr.id)]
    assert [r.user.id for r in listed if r.user] == [reviewer.id]
    async with client_for("dana@northwind.dev") as dana:
        review = await dana.change_requests.reviews.submit(
            space, cr.id, status="approved", comment="Looks good"
        )
    assert review.status == "approved" and review.outdated is False
    assert [r.id async for r in client.change_requests.reviews.list(space, cr.id)] == [review.id]
    await client.change_requests.requested_reviewers.remove(space, cr.id, reviewer.id)
    with pytest.raises(PermissionDeniedError, match="author"):
        await client.change_requests.reviews.submit(space, cr.id, status="approved")


async def test_pdf_link_through_the_gateway(client: Client) -> None:
    space = await _space(client, "Public API Reference")
    cr = await client.change_requests.create(space)
    result = await client.change_requests.pdf(space, cr.number)
    assert "/files/" in result.url and "signature=" in result.url
