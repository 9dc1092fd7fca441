"""client.content against the sandbox: typed revisions, the page tree with its helpers, page
bodies by explicit format, files, links, search, changes, documents and templates; unknown
variants from a newer platform parse as generic models."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from docdeck.gateway import BadRequestError, Client, NotFoundError
from docdeck.models import (
    ContentLocationPage,
    ContentLocationUnknown,
    ContentRefUnknown,
    ContentRefUrl,
    PageCreated,
    Revision,
    RevisionEdits,
    RevisionPage,
    RevisionPageDocument,
    RevisionPageGroup,
    RevisionPageLink,
    RevisionPageUnknown,
    RevisionUnknown,
    SemanticChange,
    SemanticChangeUnknown,
)
from docdeck.models.links import ContentLocation


async def _space(client: Client, title: str) -> str:
    orgs = await client.orgs.list()
    for org in orgs.items:
        async for space in client.spaces.list(org.id):
            if space.title == title:
                return space.id
    raise AssertionError(title)


async def test_revision_and_page_tree(client: Client) -> None:
    space = await _space(client, "Public API Reference")
    revision = await client.content.revision(space)
    assert isinstance(revision, RevisionEdits)
    pages = await client.content.pages(space)
    assert len(list(pages.walk())) >= 30
    refunds = pages.by_path("guides/orders/refunds")
    assert isinstance(refunds, RevisionPageDocument)
    assert pages.find(refunds.id) is refunds
    assert refunds.markdown is None and refunds.document is None
    older = await client.content.pages(space, revision.parents[0])
    assert older.by_path("guides/orders/refunds") is not None
    assert revision.find_page(refunds.id) is not None


async def test_page_bodies_by_explicit_format(client: Client) -> None:
    space = await _space(client, "Public API Reference")
    page = await client.content.page_by_path(space, "reference/errors", format="markdown")
    assert isinstance(page, RevisionPageDocument) and page.markdown
    assert page.markdown.startswith("# Errors")
    document = await client.content.page(space, page.id, format="document")
    assert isinstance(document, RevisionPageDocument) and document.document
    assert document.document.nodes[0]["type"] == "heading-1"
    plain = await client.content.page(space, page.id, format=None)
    assert isinstance(plain, RevisionPageDocument) and plain.markdown is None
    assert page.documentId is not None
    whole = await client.content.document(space, page.documentId)
    assert whole.nodes == document.document.nodes
    with pytest.raises(NotFoundError, match="no page at path"):
        await client.content.page_by_path(space, "reference/nothing", format=None)


async def test_a_pages_markdown_alone_at_each_place_its_content_lives(client: Client) -> None:
    """`page_markdown`: the text `page(..., format="markdown")` gives, read without the page
    models, at the current revision, an older one and in a change request; None where a
    page has no body."""
    space = await _space(client, "Public API Reference")
    page = await client.content.page_by_path(space, "reference/errors", format="markdown")
    alone = await client.content.page_markdown(space, page.id)
    assert alone.id == page.id and alone.title == page.title
    assert alone.markdown == getattr(page, "markdown", None) and alone.markdown
    assert client.content.page_of(alone) == page  # the same answer, parsed as its page type
    revision = await client.content.revision(space)
    older = await client.content.page(
        space, page.id, format="markdown", revision=revision.parents[0]
    )
    at_older = await client.content.page_markdown(space, page.id, revision=revision.parents[0])
    assert at_older.markdown == getattr(older, "markdown", None)
    created = await client.change_requests.create(space, subject="Edit the errors page")
    in_cr = await client.content.page_markdown(space, page.id, change_request=created.number)
    assert in_cr.markdown == alone.markdown
    in_cr_group = client.change_requests.content.page_markdown
    assert (await in_cr_group(space, created.number, page.id)).markdown == alone.markdown
    pages = await client.content.pages(await _space(client, "Getting Started"))
    group = next(p for p in pages.walk() if isinstance(p, RevisionPageGroup))
    bodiless = await client.content.page_markdown(await _space(client, "Getting Started"), group.id)
    assert bodiless.markdown is None and bodiless.title == group.title
    as_group = client.content.page_of(bodiless)
    assert isinstance(as_group, RevisionPageGroup) and as_group.id == group.id
    assert not hasattr(as_group, "markdown")  # not added where the answer had none
    with pytest.raises(NotFoundError):
        await client.content.page_markdown(space, "no-such-page")


async def test_group_and_link_pages(client: Client) -> None:
    space = await _space(client, "Getting Started")
    pages = await client.content.pages(space)
    kinds = {type(p) for p in pages.walk()}
    assert {RevisionPageDocument, RevisionPageGroup, RevisionPageLink} <= kinds
    link = next(p for p in pages.walk() if isinstance(p, RevisionPageLink))
    assert isinstance(link.target, ContentRefUrl)


async def test_files_links_search_changes(client: Client) -> None:
    space = await _space(client, "Public API Reference")
    files = await client.content.files(space).all()
    assert {f.name for f in files} >= {"request-flow.png"}
    image = await client.content.file(space, files[0].id)
    assert image.downloadURL
    broken = await client.content.links.space(space, status="broken")
    assert broken.items and all(i.status == "broken" for i in broken.items)
    assert broken.stats.broken.total == len(broken.items)
    backlinks = await client.content.links.file_backlinks(space, image.id).all()
    assert backlinks and isinstance(backlinks[0], ContentLocationPage)
    hits = await client.content.search(space, "signature").all()
    assert hits[0].title == "Verifying signatures"
    revision = await client.content.revision(space)
    changes = await client.content.changes(space, revision.id)
    assert changes.changes
    with pytest.raises(BadRequestError, match="query"):
        await client.content.search(space, "x" * 513)


async def test_templates(client: Client) -> None:
    space = await _space(client, "Design System")
    await client.content.apply_template(space, "handbook")
    pages = await client.content.pages(space)
    assert [p.title for p in pages.pages] == ["Welcome", "How we work", "Time off"]
    with pytest.raises(BadRequestError, match="getting-started"):
        await client.content.apply_template(space, "nope")


def test_unknown_variants_parse_as_generic_models() -> None:
    page = TypeAdapter(RevisionPage).validate_python(
        {"id": "p", "title": "Spec", "type": "openapi-reference", "spec": "pets"}
    )
    assert isinstance(page, RevisionPageUnknown) and page.model_extra == {"spec": "pets"}
    revision = TypeAdapter(Revision).validate_python(
        {
            "object": "revision",
            "id": "r",
            "type": "branch-merge",
            "parents": [],
            "pages": [
                {
                    "id": "g",
                    "title": "G",
                    "type": "group",
                    "kind": "group",
                    "slug": "g",
                    "path": "g",
                    "pages": [],
                }
            ],
            "files": [],
            "createdAt": "2024-01-01T00:00:00Z",
            "urls": {"app": "x"},
        }
    )
    assert isinstance(revision, RevisionUnknown)
    assert isinstance(revision.pages[0], RevisionPageGroup)
    location = TypeAdapter(ContentLocation).validate_python({"kind": "openapi", "x": 1})
    assert isinstance(location, ContentLocationUnknown)
    change = TypeAdapter(SemanticChange).validate_python({"type": "page_archived"})
    assert isinstance(change, SemanticChangeUnknown)
    known = TypeAdapter(SemanticChange).validate_python(
        {"type": "page_created", "page": {"id": "p", "type": "document", "title": "T"}}
    )
    assert isinstance(known, PageCreated)
    link = TypeAdapter(RevisionPage).validate_python(
        {
            "id": "l",
            "title": "L",
            "type": "link",
            "kind": "link",
            "target": {"kind": "openapi", "spec": "pets"},
        }
    )
    assert isinstance(link, RevisionPageLink) and isinstance(link.target, ContentRefUnknown)


async def test_revision_in_steps_is_the_same_revision(client: Client) -> None:
    """Parsed a top-level page at a time (for a UI's event loop), with the same result."""
    space = await _space(client, "Public API Reference")
    whole = await client.content.revision(space)
    in_steps = await client.content.revision_in_steps(space)
    assert in_steps == whole
    older = whole.parents[0]
    assert await client.content.revision_in_steps(space, older) == await client.content.revision(
        space, older
    )
