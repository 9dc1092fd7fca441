"""Organizations: list, read, update, link invites, email-domain lookup, ping (search is in
`search/`: it reads space content, which the organization tree does not need)."""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from fastapi import Body, Response

from docdeck.models import (
    EmailDomainOrganizations,
    ListPage,
    Organization,
    OrganizationUpdate,
    PingResult,
)
from docdeck.server.access import load_admin, load_org
from docdeck.server.errors import bad_request
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.ids import to_db
from docdeck.server.orgs import service
from docdeck.server.orgs.wire import organization_json, organization_values
from docdeck.server.permissions import membership, owns_a_team
from docdeck.server.saml.service import require_active_provider
from docdeck.server.validation import check_http_url, check_not_null, check_title
from docdeck.server.wire import no_content, respond, respond_list

router = Router(tags=["organizations"])

_DOMAIN = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$")
_HOSTNAME = re.compile(r"^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$")


@router.get("/v1/orgs", "listOrganizationsForAuthenticatedUser", ListPage[Organization])
async def list_organizations(ctx: CtxDep, page: PageDep) -> Response:
    with ctx.db.read() as conn:
        result = service.page_of_organizations(conn, ctx.caller.user_id, page)
    base = ctx.sandbox.public_url
    # each row: the organization's columns, the caller's role, whether they own a team
    items = [organization_values(base, row, True, row[14], bool(row[15])) for row in result.rows]
    return respond_list(items, result, finite=True)


@router.get("/v1/orgs/{organizationId}", "getOrganizationById", Organization, 404)
async def get_organization(ctx: CtxDep, organizationId: str) -> Response:
    with ctx.db.read() as conn:
        row, member = load_org(conn, ctx, organizationId)
        return respond(organization_json(ctx, row, member, owns_a_team(conn, member)))


def _org_changes(body: OrganizationUpdate) -> dict[str, Any]:
    given = body.model_fields_set
    changes: dict[str, Any] = {}
    check_not_null(body, ("title", "emailDomains", "hostname", "sso", "ai", "inviteLinks"))
    if "title" in given:
        changes["title"] = check_title(body.title)
    if body.emailDomains is not None:
        domains: list[str] = []
        for index, domain in enumerate(body.emailDomains):
            clean = domain.strip().lower().lstrip("@")
            if not _DOMAIN.match(clean):
                raise bad_request(f"emailDomains[{index}]: {domain!r} is not a domain name")
            if clean not in domains:
                domains.append(clean)
        changes["email_domains"] = json.dumps(domains)
    if body.hostname is not None:
        if not _HOSTNAME.match(body.hostname):
            raise bad_request("hostname: use 3 to 32 lowercase letters, digits and inner hyphens")
        changes["hostname"] = body.hostname
    if "defaultRole" in given:
        changes["default_role"] = body.defaultRole
    if body.defaultContent is not None:
        raise bad_request(
            f"defaultContent.site: no site {body.defaultContent.site!r} in this organization"
        )
    if "logo" in given:
        changes["logo"] = None if body.logo is None else check_http_url(body.logo, "logo")
    for field in ("sso", "ai", "inviteLinks"):
        if field in given:
            changes["invite_links" if field == "inviteLinks" else field] = int(getattr(body, field))
    return changes


@router.patch("/v1/orgs/{organizationId}", "updateOrganizationById", Organization, 403, 404)
def update_organization(
    ctx: CtxDep, organizationId: str, body: Annotated[OrganizationUpdate, Body()]
) -> Response:
    changes = _org_changes(body)
    with ctx.db.write() as conn:
        member = load_admin(conn, ctx, organizationId, "update the organization")
        if changes.get("sso"):
            require_active_provider(conn, organizationId, "sso")
        service.update_organization(conn, organizationId, changes)
        row, _ = load_org(conn, ctx, organizationId)
        return respond(organization_json(ctx, row, member, owns_a_team(conn, member)))


@router.delete(
    "/v1/orgs/{organizationId}/link-invites/{inviteId}",
    "deleteOrganizationInviteById",
    None,
    403,
    404,
    status=204,
)
def delete_link_invite(ctx: CtxDep, organizationId: str, inviteId: str) -> Response:
    with ctx.db.write() as conn:
        load_admin(conn, ctx, organizationId, "delete invite links")
        service.delete_link_invite(conn, organizationId, inviteId)
    return no_content()


@router.get(
    "/v1/email-domains/{emailDomain}/orgs",
    "getOrganizationsForEmailDomain",
    EmailDomainOrganizations,
)
async def organizations_for_email_domain(ctx: CtxDep, emailDomain: str) -> Response:
    domain = emailDomain.strip().lower().lstrip("@")
    with ctx.db.read() as conn:
        rows = service.organizations_with_domain(conn, domain)
        organizations = []
        for row in rows:
            member = membership(conn, row["id"], ctx.caller.user_id)
            owns = member is not None and owns_a_team(conn, member)
            organizations.append(organization_json(ctx, row, member, owns))
    return respond({"organizations": organizations})


@router.post(
    "/v1/orgs/{organizationId}/ping", "updateOrganizationMemberLastSeenAt", PingResult, 404
)
def ping(ctx: CtxDep, organizationId: str) -> Response:
    with ctx.db.write() as conn:
        load_org(conn, ctx, organizationId)
        service.record_seen(conn, organizationId, ctx.caller.user_id, to_db(ctx.now()))
    # The sandbox has no visitor authentication, so there are no claims to return.
    return respond({})
