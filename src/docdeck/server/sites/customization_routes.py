"""Site customization (platform operations): the site's settings, replaced as a whole, and
per-site-space overrides, patched (null resets a setting to the site's)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import Body, Query, Response

from docdeck.models import SiteCustomizationSettings
from docdeck.server.http.openapi import Router, errors
from docdeck.server.http.params import CtxDep
from docdeck.server.sites import customization
from docdeck.server.sites.common import ST
from docdeck.server.sites.service import load_site, load_site_editor
from docdeck.server.sites.structure import load_item
from docdeck.server.wire import no_content, respond

router = Router(tags=["site-customization"])
SSC = f"{ST}/site-spaces/{{siteSpaceId}}/customization"
Unmasked = Annotated[bool, Query(description="Deprecated by the platform; ignored")]


@router.get(f"{ST}/customization", "getSiteCustomizationById", SiteCustomizationSettings, 403, 404)
async def get_customization(
    ctx: CtxDep, organizationId: str, siteId: str, unmasked: Unmasked = False
) -> Response:
    with ctx.db.read() as conn:
        row = load_site(conn, ctx, organizationId, siteId).row
        return respond(customization.site_customization(row))


@router.put(
    f"{ST}/customization", "updateSiteCustomizationById", SiteCustomizationSettings, 403, 404
)
def put_customization(
    ctx: CtxDep, organizationId: str, siteId: str, body: Annotated[dict[str, Any], Body()]
) -> Response:
    """A full replacement: every required group of settings must be given."""
    with ctx.db.write() as conn:
        load_site_editor(conn, ctx, organizationId, siteId, "customize a site")
        customization.check(body)
        conn.execute("UPDATE sites SET customization = ? WHERE id = ?", (json.dumps(body), siteId))
    return respond(body)


def _effective(ctx: CtxDep, org_id: str, site_id: str, site_space_id: str) -> dict[str, Any]:
    with ctx.db.read() as conn:
        row = load_site(conn, ctx, org_id, site_id).row
        load_item(conn, site_id, "site-space", site_space_id)
        override = customization.site_space_override(conn, site_space_id) or {}
        return customization.merge_override(customization.site_customization(row), override)


@router.get(SSC, "getSiteSpaceCustomizationById", SiteCustomizationSettings, 403, 404)
async def get_site_space_customization(
    ctx: CtxDep, organizationId: str, siteId: str, siteSpaceId: str, unmasked: Unmasked = False
) -> Response:
    """The site's settings with the site space's override applied."""
    return respond(_effective(ctx, organizationId, siteId, siteSpaceId))


@router.patch(SSC, "overrideSiteSpaceCustomizationById", SiteCustomizationSettings, 403, 404)
def override_site_space_customization(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    siteSpaceId: str,
    body: Annotated[dict[str, Any], Body()],
) -> Response:
    with ctx.db.write() as conn:
        access = load_site_editor(conn, ctx, organizationId, siteId, "customize a site")
        load_item(conn, siteId, "site-space", siteSpaceId)
        customization.check(body, "SiteSpaceCustomizationOverride")
        current = customization.site_space_override(conn, siteSpaceId) or {}
        override = customization.merge_override(current, body)
        effective = customization.merge_override(
            customization.site_customization(access.row), override
        )
        customization.check(effective)
        conn.execute(
            "UPDATE site_spaces SET customization = ? WHERE id = ?",
            (json.dumps(override) if override else None, siteSpaceId),
        )
    return respond(effective)


@router.delete(
    SSC,
    "deleteSiteSpaceCustomizationById",
    status=204,
    responses={**errors(403, 404), 205: {"description": "The override was removed"}},
)
def delete_site_space_customization(
    ctx: CtxDep, organizationId: str, siteId: str, siteSpaceId: str
) -> Response:
    """205 when an override was removed, 204 when there was none (as the platform)."""
    with ctx.db.write() as conn:
        load_site_editor(conn, ctx, organizationId, siteId, "customize a site")
        load_item(conn, siteId, "site-space", siteSpaceId)
        had = customization.site_space_override(conn, siteSpaceId) is not None
        conn.execute("UPDATE site_spaces SET customization = NULL WHERE id = ?", (siteSpaceId,))
    return Response(status_code=205) if had else no_content()
