"""Space content: the current revision, its pages, files, links, search and documents."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response

from docdeck.models import JSONDocument, LinkList, ListPage, PageList, RevisionFile
from docdeck.models.content import Revision, RevisionPage
from docdeck.models.links import ContentLocation
from docdeck.models.organizations import SearchPageResult
from docdeck.server.content import views
from docdeck.server.content.document import to_document
from docdeck.server.content.links import resolver_for
from docdeck.server.content.reading import content_of, view_of
from docdeck.server.content.snapshots import get_text, space_owns
from docdeck.server.errors import not_found
from docdeck.server.http.openapi import errors
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.search import index as full_text
from docdeck.server.wire import respond

router = APIRouter(tags=["space content"])

_S = "/v1/spaces/{spaceId}"


@router.get(
    f"{_S}/content",
    response_model=Revision,
    operation_id="getCurrentRevision",
    responses=errors(404),
)
async def get_current_revision(
    ctx: CtxDep,
    spaceId: str,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    return views.revision(ctx, spaceId, None)


@router.get(
    f"{_S}/content/pages",
    response_model=PageList,
    operation_id="listPages",
    responses=errors(404),
)
async def list_pages(
    ctx: CtxDep,
    spaceId: str,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    return views.pages(ctx, spaceId, None)


@router.get(
    f"{_S}/content/files",
    response_model=ListPage[RevisionFile],
    operation_id="listFiles",
    responses=errors(404),
)
async def list_files(
    ctx: CtxDep,
    spaceId: str,
    page: PageDep,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    return views.files(ctx, spaceId, None, page)


@router.get(
    f"{_S}/content/files/{{fileId}}",
    response_model=RevisionFile,
    operation_id="getFileById",
    responses=errors(404),
)
async def get_file(
    ctx: CtxDep,
    spaceId: str,
    fileId: str,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    return views.file(ctx, spaceId, None, fileId)


@router.get(
    f"{_S}/content/files/{{fileId}}/backlinks",
    response_model=ListPage[ContentLocation],
    operation_id="listSpaceFileBacklinks",
    responses=errors(404),
)
async def list_file_backlinks(ctx: CtxDep, spaceId: str, fileId: str, page: PageDep) -> Response:
    return views.file_backlinks(ctx, spaceId, fileId, page)


@router.get(
    f"{_S}/content/page/{{pageId}}",
    response_model=RevisionPage,
    operation_id="getPageById",
    responses=errors(404),
)
async def get_page(
    ctx: CtxDep,
    spaceId: str,
    pageId: str,
    format: views.FormatQuery = None,
    evaluated: views.EvaluatedQuery = False,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    return views.page(ctx, spaceId, None, page_id=pageId, body_format=format, evaluated=evaluated)


@router.get(
    f"{_S}/content/path/{{pagePath:path}}",
    response_model=RevisionPage,
    operation_id="getPageByPath",
    responses=errors(404),
)
async def get_page_by_path(
    ctx: CtxDep,
    spaceId: str,
    pagePath: str,
    format: views.FormatQuery = None,
    evaluated: views.EvaluatedQuery = False,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    return views.page(ctx, spaceId, None, path=pagePath, body_format=format, evaluated=evaluated)


@router.get(
    f"{_S}/content/page/{{pageId}}/links",
    response_model=LinkList,
    operation_id="listPageLinksInSpace",
    responses=errors(404),
)
async def list_page_links(
    ctx: CtxDep, spaceId: str, pageId: str, page: PageDep, status: views.StatusQuery = None
) -> Response:
    return views.links(ctx, spaceId, page, status, page_id=pageId)


@router.get(
    f"{_S}/links",
    response_model=LinkList,
    operation_id="listSpaceLinks",
    responses=errors(404),
)
async def list_space_links(
    ctx: CtxDep, spaceId: str, page: PageDep, status: views.StatusQuery = None
) -> Response:
    return views.links(ctx, spaceId, page, status)


@router.get(
    f"{_S}/search",
    response_model=ListPage[SearchPageResult],
    operation_id="searchSpaceContent",
    responses=errors(404),
)
async def search_space(
    ctx: CtxDep,
    spaceId: str,
    page: PageDep,
    query: Annotated[str, Query(max_length=full_text.QUERY_MAX, description="What to find")],
) -> Response:
    return views.search(ctx, spaceId, page, query)


@router.get(
    f"{_S}/documents/{{documentId}}",
    response_model=JSONDocument,
    operation_id="getDocumentById",
    responses=errors(404),
)
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
        if not space_owns(conn, spaceId, documentId):
            raise not_found(f"document {documentId!r} not found in space {spaceId!r}")
        page_id = next(
            (p for p, e in content.snapshot.pages.items() if e.get("body") == documentId), ""
        )
        resolve = resolver_for(conn, content.snapshot, page_id, view_of(ctx).app_host)
        document = to_document(get_text(conn, documentId), resolve)
    return respond(document)
