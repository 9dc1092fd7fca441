"""A change request's content: the same reads as a space's (declared in
`content/scoped_routes.py`), answering for the change request's own revision, and importing
a website into it (a new revision of the change request, never of main)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Body, Query, Request, Response
from starlette.concurrency import run_in_threadpool

from docdeck.models import (
    ChangeRequest,
    ImportContent,
    ImportContentResult,
    RevisionSemanticChanges,
)
from docdeck.models.change_request_content import (
    ChangeRequestContentUpdate,
    ChangeRequestContentUpdateBody,
)
from docdeck.server.change_requests import authoring, service
from docdeck.server.change_requests.apply import apply_changes
from docdeck.server.content import views
from docdeck.server.content.changes import semantic_changes
from docdeck.server.content.importer import crawl_requested, imported, write_pages
from docdeck.server.content.reading import view_of
from docdeck.server.content.scoped_routes import CHANGE_REQUEST, content_reads
from docdeck.server.content.snapshots import load_snapshot
from docdeck.server.content.wire import file_dict
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep
from docdeck.server.wire import respond

_CR = "/v1/spaces/{spaceId}/change-requests/{changeRequestId}"


router = Router(tags=["change-request content"])
router.routes.extend(content_reads(CHANGE_REQUEST))


@router.post(
    f"{_CR}/content/import",
    "importContentInChangeRequest",
    ImportContentResult,
    403,
    404,
    status=201,
)
async def import_content_in_change_request(
    request: Request,
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    body: Annotated[ImportContent, Body()],
) -> Response:
    with ctx.db.read() as conn:  # before fetching anything for a caller who may not import
        authoring.may_author(service.load_change_request(conn, ctx, spaceId, changeRequestId))
    result = await crawl_requested(request, body)

    def write() -> str:
        with ctx.db.write() as conn:
            cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
            authoring.may_author(cr)
            draft = authoring.draft_of(conn, ctx, cr)
            write_pages(draft, result)
            return authoring.commit(conn, ctx, cr, draft, f"Imported {body.url}")

    revision = await run_in_threadpool(write)
    return imported(ctx, spaceId, revision, result)


@router.post(
    f"{_CR}/content",
    "updateChangeRequestContent",
    ChangeRequest | ChangeRequestContentUpdate,
    403,
    404,
)
def update_change_request_content(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    body: Annotated[ChangeRequestContentUpdateBody, Body()],
    compat: Annotated[
        bool,
        Query(description="true (default): answer the ChangeRequest; false: what changed"),
    ] = True,
) -> Response:
    """1..50 changes applied in order as one new revision of the change request."""
    with ctx.db.write() as conn:
        cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
        authoring.may_author(cr)
        draft = authoring.draft_of(conn, ctx, cr)
        outcome = apply_changes(conn, cr, draft, body.changes)
        count = len(body.changes)
        authoring.commit(conn, ctx, cr, draft, f"{count} change{'s' * (count != 1)} authored")
        data = service.one_json(conn, ctx, spaceId, cr.id)
        if compat:
            return respond(data)
        view = view_of(ctx)
        files = [file_dict(conn, view, spaceId, draft.files[file_id]) for file_id in outcome.files]
    base = f"/v1/spaces/{spaceId}/change-requests/{cr.id}/content/page"
    changes = []
    for item in outcome.changes:
        if item["object"] == "deleted_page":
            changes.append({"object": "deleted_page", "page": item["page"]})
            continue
        ref = {
            "object": "page",
            "id": item["page"],
            "urls": {"location": ctx.url(f"{base}/{item['page']}")},
        }
        entry = {"object": item["object"], "page": ref}
        if "ref" in item:
            entry["ref"] = item["ref"]
        changes.append(entry)
    out = {"changeRequest": data, "changes": changes}
    if files:
        out["insertedFiles"] = files
    return respond(out)


@router.get(f"{_CR}/changes", "getChangeRequestChanges", RevisionSemanticChanges, 404)
async def get_change_request_changes(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    limit: views.ChangesLimitQuery = 10,
) -> Response:
    """What the change request changed relative to its base (`revisionMergedAncestor` or
    `revisionInitial`): main's changes pulled in by an update are not listed; `more` counts
    the changes past `limit` (default 10, as the platform's)."""
    with ctx.db.read() as conn:
        cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
        ours = load_snapshot(conn, cr.row["revision_id"])
        base = load_snapshot(conn, cr.base)
        data = semantic_changes(conn, view_of(ctx), ours, limit, old=base)
    return respond(data)
