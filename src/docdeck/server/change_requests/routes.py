"""Change requests of a space: create, list, get (by id or number), update.

Anyone who can see the space reads its change requests; creating and changing one needs the
edit role (the space's `permissions.edit`), as authoring its content does.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Body, Query, Response
from starlette.concurrency import run_in_threadpool

from docdeck.models import (
    ChangeRequest,
    ChangeRequestCreate,
    ChangeRequestMergeResult,
    ChangeRequestPDF,
    ChangeRequestUpdate,
    ChangeRequestUpdateResult,
    ListPage,
)
from docdeck.models.change_requests import ChangeRequestStatus
from docdeck.server import outbound
from docdeck.server.access import load_space, require_live
from docdeck.server.change_requests import pull, service
from docdeck.server.change_requests.pdf_link import PdfSource, pdf_source, store_pdf
from docdeck.server.errors import bad_request
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.ids import to_db
from docdeck.server.wire import respond, respond_list, respond_resource

router = Router(tags=["change-requests"])

_S = "/v1/spaces/{spaceId}"
_CR = f"{_S}/change-requests/{{changeRequestId}}"


@router.get(f"{_S}/change-requests", "listChangeRequestsForSpace", ListPage[ChangeRequest], 404)
async def list_change_requests(
    ctx: CtxDep,
    spaceId: str,
    page: PageDep,
    status: Annotated[
        ChangeRequestStatus, Query(description="Only change requests with this status")
    ] = "open",
    contributor: Annotated[
        str | None,
        Query(description="Only change requests this user (id) created or authored in"),
    ] = None,
) -> Response:
    """Newest first (by number)."""
    with ctx.db.read() as conn:
        access = load_space(conn, ctx, spaceId)
        require_live(access)
        result = service.page_of_change_requests(conn, spaceId, status, contributor, page)
        users = service.users_by_id(
            conn, [u for r in result.rows for u in (r["created_by"], r["merged_by"])]
        )
        main = access.row["revision_id"]
        items = [service.change_request_json(ctx, r, main, users) for r in result.rows]
    return respond_list(items, result)


@router.post(f"{_S}/change-requests", "createChangeRequest", ChangeRequest, 403, 404, status=201)
def create_change_request(
    ctx: CtxDep, spaceId: str, body: Annotated[ChangeRequestCreate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        access = load_space(conn, ctx, spaceId)
        require_live(access)
        service.require_edit(access, "creating a change request")
        subject = (body.subject or "").strip()
        change_request_id = service.create(conn, access.row, ctx.caller.user_id, subject, ctx.now())
        data = service.one_json(conn, ctx, spaceId, change_request_id)
    return respond_resource(data, 201)


@router.get(_CR, "getChangeRequestById", ChangeRequest, 404)
async def get_change_request(ctx: CtxDep, spaceId: str, changeRequestId: str) -> Response:
    with ctx.db.read() as conn:
        cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
        users = service.users_by_id(conn, [cr.row["created_by"], cr.row["merged_by"]])
        data = service.change_request_json(ctx, cr.row, cr.space.row["revision_id"], users)
    return respond(data)


@router.patch(_CR, "updateChangeRequestById", ChangeRequest, 403, 404)
def update_change_request(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    body: Annotated[ChangeRequestUpdate, Body()],
) -> Response:
    with ctx.db.write() as conn:
        cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
        service.require_edit(cr.space, "changing a change request")
        updates: dict[str, str] = {}
        if "subject" in body.model_fields_set:
            if body.subject is None:
                raise bad_request("subject: must be a string, not null")
            updates["subject"] = body.subject.strip()
        if "status" in body.model_fields_set:
            if body.status is None:
                raise bad_request("status: must be one of draft, open, archived, not null")
            if cr.row["status"] == "merged":
                raise bad_request(
                    f"status: change request #{cr.row['number']} is merged; a merged change"
                    " request keeps that status"
                )
            updates["status"] = body.status
        if updates:
            updates["updated_at"] = to_db(ctx.now())
            service.update_columns(conn, cr.id, updates)
            service.recount(conn, spaceId)
        data = service.one_json(conn, ctx, spaceId, cr.id)
    return respond(data)


@router.post(f"{_CR}/update", "updateChangeRequest", ChangeRequestUpdateResult, 400, 403, 404)
def update_change_request_from_main(ctx: CtxDep, spaceId: str, changeRequestId: str) -> Response:
    """Pulls main into the change request; `result: "conflicts"` (still 200) when blocks
    changed on both sides, which the new revision holds between markers."""
    with ctx.db.write() as conn:
        cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
        outcome = pull.update(conn, ctx, cr)
    result = "conflicts" if outcome.conflicts else "update"
    return respond({"revision": outcome.revision, "result": result})


@router.post(f"{_CR}/merge", "mergeChangeRequest", ChangeRequestMergeResult, 400, 403, 404)
def merge_change_request(ctx: CtxDep, spaceId: str, changeRequestId: str) -> Response:
    """Merges into main; with `result: "conflicts"` the merge was still applied, each
    conflicting block keeping the change request's side (docs/change-requests.md)."""
    with ctx.db.write() as conn:
        cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
        outcome = pull.merge(conn, ctx, cr)
    result = "conflicts" if outcome.conflicts else "merge"
    return respond({"revision": outcome.revision, "result": result})


@router.get(f"{_CR}/pdf", "getChangeRequestPDF", ChangeRequestPDF, 404)
async def get_change_request_pdf(
    ctx: CtxDep,
    spaceId: str,
    changeRequestId: str,
    only: Annotated[bool, Query(description="Only the page given by `page`")] = False,
    page: Annotated[str | None, Query(description="A page id: that page (and subpages)")] = None,
) -> Response:
    """A plain `def`: the PDF is rendered and stored (as an object of the space) so the
    signed, expiring URL it answers is served by the sandbox's file route. Rendering holds
    no transaction: writes elsewhere go on while a large PDF is laid out."""
    # The text above is the operation's published description (kept byte-identical). The
    # handler is async now: reads and the write hop to a thread, and rendering runs in the
    # outbound pool, so large PDFs never hold the threads other writes need.

    def read() -> PdfSource:
        with ctx.db.read() as conn:
            cr = service.load_change_request(conn, ctx, spaceId, changeRequestId)
            return pdf_source(conn, cr, page, only)

    def store(source: PdfSource, data: bytes) -> str:
        with ctx.db.write() as conn:
            return store_pdf(conn, ctx, source, data)

    source = await run_in_threadpool(read)
    data = await outbound.run(source.render)
    return respond({"url": await run_in_threadpool(store, source, data)})
