"""Writing space content: templates and imports. Writes are plain `def` handlers (one thread
hop); an import is `async`: it fetches the website in the outbound pool (never a thread other
writes need), cancelled if the client goes away, then writes in one thread hop."""

from __future__ import annotations

import sqlite3
from typing import Annotated

from fastapi import Body, Request, Response
from starlette.concurrency import run_in_threadpool

from docdeck.models import ApplySpaceTemplate, ImportContent, ImportContentResult
from docdeck.server.access import load_space, require, require_live
from docdeck.server.content.edits import Draft
from docdeck.server.content.importer import crawl_requested, imported, write_pages
from docdeck.server.content.templates import apply_template
from docdeck.server.errors import bad_request
from docdeck.server.http.context import Ctx
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep
from docdeck.server.permissions import at_least
from docdeck.server.wire import no_content

router = Router(tags=["space content"])


def _may_edit(conn: sqlite3.Connection, ctx: Ctx, space_id: str, action: str) -> None:
    access = load_space(conn, ctx, space_id)
    require_live(access)
    require(at_least(access.role, "edit"), f"{action} needs the edit role")
    if access.row["edit_mode"] == "locked":
        raise bad_request("the space is locked (editMode: locked); unlock it to change it")


@router.post(
    "/v1/spaces/{spaceId}/content/template",
    "applyTemplateToSpace",
    None,
    403,
    404,
    status=201,
    response_class=Response,
)
def apply_template_to_space(
    ctx: CtxDep, spaceId: str, body: Annotated[ApplySpaceTemplate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        _may_edit(conn, ctx, spaceId, "applying a template")
        apply_template(conn, spaceId, body.id, ctx.now())
    response = no_content()
    response.status_code = 201
    return response


@router.post(
    "/v1/spaces/{spaceId}/content/import",
    "importContent",
    ImportContentResult,
    403,
    404,
    status=201,
)
async def import_content(
    request: Request, ctx: CtxDep, spaceId: str, body: Annotated[ImportContent, Body()]
) -> Response:
    with ctx.db.read() as conn:  # before fetching anything for a caller who may not import
        _may_edit(conn, ctx, spaceId, "importing content")
    result = await crawl_requested(request, body)

    def write() -> str:
        with ctx.db.write() as conn:
            _may_edit(conn, ctx, spaceId, "importing content")
            draft = Draft(conn, spaceId, ctx.now())
            write_pages(draft, result)
            return draft.commit(message=f"Imported {body.url}")

    revision = await run_in_threadpool(write)
    return imported(ctx, spaceId, revision, result)
