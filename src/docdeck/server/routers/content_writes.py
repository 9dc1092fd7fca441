"""Writing space content: templates (and, later, import)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Response

from docdeck.models import ApplySpaceTemplate
from docdeck.server.errors import bad_request
from docdeck.server.openapi import errors
from docdeck.server.permissions import at_least
from docdeck.server.routers._common import CtxDep
from docdeck.server.services.access import load_space, require, require_live
from docdeck.server.services.content.templates import apply_template
from docdeck.server.wire import no_content

router = APIRouter(tags=["space content"])


@router.post(
    "/v1/spaces/{spaceId}/content/template",
    status_code=201,
    operation_id="applyTemplateToSpace",
    responses=errors(403, 404),
)
def apply_template_to_space(
    ctx: CtxDep, spaceId: str, body: Annotated[ApplySpaceTemplate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        access = load_space(conn, ctx, spaceId)
        require_live(access)
        require(at_least(access.role, "edit"), "applying a template needs the edit role")
        if access.row["edit_mode"] == "locked":
            raise bad_request("the space is locked (editMode: locked); unlock it to change it")
        apply_template(conn, spaceId, body.id, ctx.now())
    response = no_content()
    response.status_code = 201
    return response
