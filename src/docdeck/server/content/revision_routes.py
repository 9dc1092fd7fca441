"""Any revision of a space: its content, pages, files and the changes it made."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from docdeck.models import ListPage, PageList, RevisionFile, RevisionSemanticChanges
from docdeck.models.content import Revision, RevisionPage
from docdeck.server.content import views
from docdeck.server.content.changes import semantic_changes
from docdeck.server.content.reading import content_of, view_of
from docdeck.server.http.openapi import errors
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.wire import respond

router = APIRouter(tags=["revisions"])

_R = "/v1/spaces/{spaceId}/revisions/{revisionId}"


@router.get(
    _R,
    response_model=Revision,
    operation_id="getRevisionById",
    responses=errors(404),
)
async def get_revision(
    ctx: CtxDep,
    spaceId: str,
    revisionId: str,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    return views.revision(ctx, spaceId, revisionId)


@router.get(
    f"{_R}/pages",
    response_model=PageList,
    operation_id="listPagesInRevisionById",
    responses=errors(404),
)
async def list_revision_pages(
    ctx: CtxDep,
    spaceId: str,
    revisionId: str,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    return views.pages(ctx, spaceId, revisionId)


@router.get(
    f"{_R}/files",
    response_model=ListPage[RevisionFile],
    operation_id="listFilesInRevisionById",
    responses=errors(404),
)
async def list_revision_files(
    ctx: CtxDep,
    spaceId: str,
    revisionId: str,
    page: PageDep,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    return views.files(ctx, spaceId, revisionId, page)


@router.get(
    f"{_R}/files/{{fileId}}",
    response_model=RevisionFile,
    operation_id="getFileInRevisionById",
    responses=errors(404),
)
async def get_revision_file(
    ctx: CtxDep,
    spaceId: str,
    revisionId: str,
    fileId: str,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    return views.file(ctx, spaceId, revisionId, fileId)


@router.get(
    f"{_R}/page/{{pageId}}",
    response_model=RevisionPage,
    operation_id="getPageInRevisionById",
    responses=errors(404),
)
async def get_revision_page(
    ctx: CtxDep,
    spaceId: str,
    revisionId: str,
    pageId: str,
    format: views.FormatQuery = None,
    evaluated: views.EvaluatedQuery = False,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    return views.page(
        ctx, spaceId, revisionId, page_id=pageId, body_format=format, evaluated=evaluated
    )


@router.get(
    f"{_R}/path/{{pagePath:path}}",
    response_model=RevisionPage,
    operation_id="getPageInRevisionByPath",
    responses=errors(404),
)
async def get_revision_page_by_path(
    ctx: CtxDep,
    spaceId: str,
    revisionId: str,
    pagePath: str,
    format: views.FormatQuery = None,
    evaluated: views.EvaluatedQuery = False,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    return views.page(
        ctx, spaceId, revisionId, path=pagePath, body_format=format, evaluated=evaluated
    )


@router.get(
    f"{_R}/changes",
    response_model=RevisionSemanticChanges,
    operation_id="getRevisionSemanticChanges",
    responses=errors(404),
)
async def get_revision_changes(
    ctx: CtxDep,
    spaceId: str,
    revisionId: str,
    limit: Annotated[int, Query(ge=0, le=1000, description="Changes to return")] = 10,
    metadata: views.MetadataQuery = True,
    computed: views.ComputedQuery = True,
) -> Response:
    with ctx.db.read() as conn:
        content = content_of(conn, ctx, spaceId, revisionId)
        data = semantic_changes(conn, view_of(ctx), content.snapshot, limit)
    return respond(data)
