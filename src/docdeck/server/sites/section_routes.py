"""Site sections and section groups: listed, added, updated, deleted and moved as every item
of a site's structure (`item_routes`), and a group's own sections."""

from typing import Annotated

from fastapi import APIRouter, Body, Response

from docdeck.models import (
    SiteSection,
    SiteSectionCreate,
    SiteSectionGroup,
    SiteSectionGroupAddSection,
    SiteSectionGroupCreate,
    SiteSectionGroupMove,
    SiteSectionGroupUpdate,
    SiteSectionMove,
    SiteSectionUpdate,
)
from docdeck.server.http.openapi import errors
from docdeck.server.http.params import CtxDep
from docdeck.server.sites import structure
from docdeck.server.sites.common import ST, editing, item_reply
from docdeck.server.sites.item_routes import ItemKind, item_routes
from docdeck.server.wire import no_content

GRP = f"{ST}/section-groups/{{siteSectionGroupId}}"

SECTIONS = ItemKind(
    kind="site-section",
    path="/sections",
    id_param="siteSectionId",
    singular="Section",
    plural="Sections",
    cursor="site-sections",
    operations=(
        "listSiteSections",
        "addSectionToSite",
        "updateSiteSectionById",
        "deleteSiteSectionById",
        "moveSiteSection",
    ),
    model=SiteSection,
    create=SiteSectionCreate,
    update=SiteSectionUpdate,
    move=SiteSectionMove,
    add=structure.add_section,
    change=structure.update_section,
    neighbour=lambda ref: ("site-section", ref.siteSection),
    keyed=lambda tree: tree.keyed_sections(),
    item=lambda tree: tree.section,
)
GROUPS = ItemKind(
    kind="site-section-group",
    path="/section-groups",
    id_param="siteSectionGroupId",
    singular="Group",
    plural="Groups",
    cursor="site-section-groups",
    operations=(
        "listSiteSectionGroups",
        "addSectionGroupToSite",
        "updateSiteSectionGroupById",
        "deleteSiteSectionGroupById",
        "moveSiteSectionGroup",
    ),
    model=SiteSectionGroup,
    create=SiteSectionGroupCreate,
    update=SiteSectionGroupUpdate,
    move=SiteSectionGroupMove,
    add=structure.add_group,
    change=lambda conn, site, row, body: structure.update_group(conn, row, body),
    neighbour=lambda ref: (ref.type, ref.id),
    keyed=lambda tree: tree.keyed_groups(),
    item=lambda tree: tree.group,
    shared=False,
)

group_routes = APIRouter(tags=["site-sections"])
"""A group's own sections, listed before the group's move."""


@group_routes.post(
    f"{GRP}/sections",
    status_code=201,
    response_model=SiteSectionGroup,
    operation_id="addSectionToGroup",
    responses=errors(403, 404),
)
def add_section_to_group(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    siteSectionGroupId: str,
    body: Annotated[SiteSectionGroupAddSection, Body()],
) -> Response:
    with ctx.db.write() as conn:
        editing(ctx, conn, organizationId, siteId)
        structure.load_item(conn, siteId, "site-section-group", siteSectionGroupId)
        structure.add_section_to_group(conn, siteId, siteSectionGroupId, body.sectionId)
    return item_reply(
        ctx, organizationId, siteId, "site-section-group", siteSectionGroupId, status=201
    )


@group_routes.delete(
    f"{GRP}/sections/{{siteSectionId}}",
    status_code=204,
    operation_id="removeSectionFromGroup",
    responses={**errors(403, 404), 205: {"description": "Removed from the group"}},
)
def remove_section_from_group(
    ctx: CtxDep, organizationId: str, siteId: str, siteSectionGroupId: str, siteSectionId: str
) -> Response:
    """205 when the section left the group, 204 when it was not in it (as the platform)."""
    with ctx.db.write() as conn:
        editing(ctx, conn, organizationId, siteId)
        structure.load_item(conn, siteId, "site-section-group", siteSectionGroupId)
        removed = structure.remove_section_from_group(
            conn, siteId, siteSectionGroupId, siteSectionId
        )
    return Response(status_code=205) if removed else no_content()


router = APIRouter(tags=["site-sections"])
router.routes.extend(item_routes(SECTIONS, "site-sections"))
router.routes.extend(item_routes(GROUPS, "site-sections", before_move=group_routes.routes))
