"""A site's adaptive-content schema, publishing, preview and published view."""

from __future__ import annotations

import secrets
from datetime import timedelta
from typing import Annotated

from fastapi import Body, Query, Response

from docdeck.models import (
    PublishedContentSite,
    PublishResult,
    Site,
    SiteAdaptiveSchema,
    SiteAdaptiveSchemaUpdate,
    SitePreview,
    TemplateConditions,
)
from docdeck.server.errors import bad_request, not_found
from docdeck.server.http.context import Ctx
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep
from docdeck.server.ids import to_db
from docdeck.server.sites import adaptive
from docdeck.server.sites.common import ST, ShareKey, site_reply, tree_for
from docdeck.server.sites.customization import (
    merge_override,
    site_customization,
    site_space_customizations,
)
from docdeck.server.sites.service import (
    checkout_session,
    load_site,
    load_site_admin,
    load_site_editor,
    preview_digest,
    publish_blocker,
    set_published,
)
from docdeck.server.sites.wire import site_json, site_root_url
from docdeck.server.wire import respond, wire_time

router = Router(tags=["sites"])
PREVIEW_LIFETIME = timedelta(hours=1)


@router.get(f"{ST}/adaptive-schema", "getSiteAdaptiveSchema", SiteAdaptiveSchema, 403, 404)
async def get_adaptive_schema(ctx: CtxDep, organizationId: str, siteId: str) -> Response:
    return _schema_reply(ctx, organizationId, siteId)


def _schema_reply(ctx: Ctx, org_id: str, site_id: str) -> Response:
    with ctx.db.read() as conn:
        row = load_site(conn, ctx, org_id, site_id).row
    schema = adaptive.site_schema(row)
    if schema is None:
        raise not_found(f"site {site_id!r} has no adaptive schema yet; set one with PUT")
    return respond(
        {
            "object": "site-adaptive-schema",
            "jsonSchema": schema,
            "updatedAt": wire_time(row["adaptive_schema_updated_at"]),
        }
    )


@router.put(f"{ST}/adaptive-schema", "updateSiteAdaptiveSchema", SiteAdaptiveSchema, 403, 404)
def put_adaptive_schema(
    ctx: CtxDep, organizationId: str, siteId: str, body: Annotated[SiteAdaptiveSchemaUpdate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        load_site_editor(conn, ctx, organizationId, siteId, "change a site's adaptive schema")
        adaptive.check_schema(body.jsonSchema)
        adaptive.store_schema(conn, siteId, body.jsonSchema, ctx.now())
    return _schema_reply(ctx, organizationId, siteId)


@router.get(
    f"{ST}/adaptive-schema/template-conditions",
    "listSiteAdaptiveTemplateConditions",
    TemplateConditions,
    403,
    404,
)
async def list_template_conditions(ctx: CtxDep, organizationId: str, siteId: str) -> Response:
    with ctx.db.read() as conn:
        row = load_site(conn, ctx, organizationId, siteId).row
    items = adaptive.template_conditions(adaptive.site_schema(row))
    return respond({"items": items})


@router.post(f"{ST}/publish", "publishSite", PublishResult, 403, 404)
def publish_site(ctx: CtxDep, organizationId: str, siteId: str) -> Response:
    """Publishes, or answers `{type: "checkout"}` when the site's plan lacks the feature its
    visibility needs (nothing changes then)."""
    with ctx.db.write() as conn:
        access = load_site_admin(conn, ctx, organizationId, siteId, "publish sites")
        if publish_blocker(access.row) is not None:
            return respond({"type": "checkout", "sessionId": checkout_session()})
        set_published(conn, siteId, True)
    return site_reply(ctx, organizationId, siteId)


@router.post(f"{ST}/unpublish", "unpublishSite", Site, 403, 404)
def unpublish_site(ctx: CtxDep, organizationId: str, siteId: str) -> Response:
    with ctx.db.write() as conn:
        load_site_admin(conn, ctx, organizationId, siteId, "unpublish sites")
        set_published(conn, siteId, False)
    return site_reply(ctx, organizationId, siteId)


@router.get(f"{ST}/publishing/preview", "getSitePublishingPreviewById", SitePreview, 403, 404)
def preview_site(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    siteSpace: Annotated[str | None, Query(description="Site space to open (default one)")] = None,
    claims: Annotated[str | None, Query(description="Visitor claims; not used")] = None,
) -> Response:
    """A URL the sandbox serves for an hour, published or not, whatever the visibility."""
    token = secrets.token_urlsafe(24)
    with ctx.db.write() as conn:
        load_site_editor(conn, ctx, organizationId, siteId, "preview a site")
        if siteSpace is not None:
            found = conn.execute(
                "SELECT 1 FROM site_spaces WHERE id = ? AND site_id = ?", (siteSpace, siteId)
            ).fetchone()
            if found is None:
                raise bad_request(f"siteSpace: no site space {siteSpace!r} in this site")
        conn.execute(
            "INSERT INTO site_previews (token, site_id, site_space_id, expires_at)"
            " VALUES (?, ?, ?, ?)",
            (preview_digest(token), siteId, siteSpace, to_db(ctx.now() + PREVIEW_LIFETIME)),
        )
        conn.execute("DELETE FROM site_previews WHERE expires_at < ?", (to_db(ctx.now()),))
    _, tree = tree_for(ctx, organizationId, siteId)
    url = site_root_url(ctx, tree.site)
    if siteSpace is not None:  # where it will be published: the site need not be, yet
        with ctx.db.read() as conn:
            found = tree.destination_url(conn, {"kind": "site-space", "siteSpaceId": siteSpace})
        url = found or url
    return respond({"url": f"{url.split('?')[0]}?preview={token}"})


@router.get(f"{ST}/published", "getPublishedContentSite", PublishedContentSite, 403, 404)
async def published_site(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    shareKey: ShareKey = None,
) -> Response:
    _, tree = tree_for(ctx, organizationId, siteId, shareKey)
    if not tree.site["published"]:
        raise not_found(f"site {siteId!r} is not published; publish it first")
    with ctx.db.read() as conn:
        overrides = site_space_customizations(conn, siteId)
    site_settings = site_customization(tree.site)
    # A visitor's site space shows the site's settings with its override applied: the
    # platform documents each entry as a whole customization, not the override alone.
    effective = {key: merge_override(site_settings, patch) for key, patch in overrides.items()}
    return respond(
        {
            "object": "published-content-site",
            "site": site_json(ctx, tree.site, share_key=tree.share_key),
            "structure": tree.structure(),
            "customizations": {"site": site_settings, "siteSpaces": effective},
            "scripts": [],
        }
    )
