"""Space content: the current revision, its pages, files, links, search and documents (the
reads every scope has are declared in `scoped_routes`)."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Query, Response

from docdeck.models import JSONDocument, LinkList, ListPage
from docdeck.models.organizations import SearchPageResult
from docdeck.server.content import views
from docdeck.server.content.document import to_document
from docdeck.server.content.links import resolver_for
from docdeck.server.content.reading import content_of, view_of
from docdeck.server.content.scoped_routes import CURRENT, content_reads
from docdeck.server.content.snapshots import get_object, space_owns
from docdeck.server.errors import not_found
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.search import index as full_text
from docdeck.server.wire import respond

_S = "/v1/spaces/{spaceId}"

router = Router(tags=["space content"])
router.routes.extend(content_reads(CURRENT))


@router.get(f"{_S}/links", "listSpaceLinks", LinkList, 404)
async def list_space_links(
    ctx: CtxDep, spaceId: str, page: PageDep, status: views.StatusQuery = None
) -> Response:
    return views.links(ctx, spaceId, page, status)


@router.get(f"{_S}/search", "searchSpaceContent", ListPage[SearchPageResult], 404)
async def search_space(
    ctx: CtxDep,
    spaceId: str,
    page: PageDep,
    query: Annotated[str, Query(max_length=full_text.QUERY_MAX, description="What to find")],
) -> Response:
    return views.search(ctx, spaceId, page, query)


@router.get(f"{_S}/documents/{{documentId}}", "getDocumentById", JSONDocument, 404)
async def get_document(
    ctx: CtxDep,
    spaceId: str,
    documentId: str,
    schema: Annotated[
        Literal["current", "next"] | None, Query(description="Document schema version")
    ] = None,
) -> Response:
    with ctx.db.read() as conn:
        content = content_of(conn, ctx, spaceId)
        data = get_object(conn, documentId) if space_owns(conn, spaceId, documentId) else None
        try:
            # The space's objects hold its files' bytes too: one that is not UTF-8 text is
            # a file (an image, say), not a document (it raised, a 500).
            markdown = None if data is None else data.decode("utf-8")
        except UnicodeDecodeError:
            markdown = None
        if markdown is None:
            raise not_found(f"document {documentId!r} not found in space {spaceId!r}")
        page_id = next(
            (p for p, e in content.snapshot.pages.items() if e.get("body") == documentId), ""
        )
        resolve = resolver_for(conn, content.snapshot, page_id, view_of(ctx).app_host)
        document = to_document(markdown, resolve)
    return respond(document)
