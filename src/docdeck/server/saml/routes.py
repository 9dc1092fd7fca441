"""SAML providers (5 endpoints) and the SSO login entry points (1)."""

from __future__ import annotations

import sqlite3
from typing import Annotated, Any

from fastapi import Body, Response

from docdeck.models import (
    ListPage,
    SAMLProvider,
    SAMLProviderCreate,
    SAMLProviderUpdate,
    SSOProviderLogins,
)
from docdeck.server.access import list_in_org, load_admin, load_membership, require_admin
from docdeck.server.errors import bad_request
from docdeck.server.http.context import Ctx
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.ids import new_id, to_db
from docdeck.server.pagination import Listing
from docdeck.server.saml.certificates import check_certificate
from docdeck.server.saml.service import (
    ACTIVE,
    load_provider,
    provider_json,
    release_sso_if_no_provider,
    service_json,
)
from docdeck.server.validation import check_http_url, check_title
from docdeck.server.wire import no_content, respond, respond_list, respond_resource

router = Router(tags=["saml"])

_O = "/v1/orgs/{organizationId}"

_PROVIDERS = Listing(
    "saml-providers",
    "p.*",
    "FROM saml_providers p WHERE p.organization_id = ?",
    ("p.created_at", "p.id"),
)
_COLUMNS = {
    "label": "label",
    "entityID": "entity_id",
    "certificate": "certificate",
    "ssoURL": "sso_url",
    "defaultTeam": "default_team_id",
    "defaultRole": "default_role",
}


def _changes(
    conn: sqlite3.Connection, ctx: Ctx, org_id: str, body: SAMLProviderCreate | SAMLProviderUpdate
) -> dict[str, Any]:
    """Column values for the fields sent, checked; `null` or an empty string clears an
    optional one (the provider then goes back to `pending`)."""
    changes: dict[str, Any] = {}
    for field in body.model_fields_set:
        value = getattr(body, field)
        if field == "label":
            changes["label"] = check_title(value, "label")
            continue
        if isinstance(value, str) and not value.strip() and field != "defaultRole":
            value = None
        if value is not None:
            if field == "entityID":
                value = value.strip()
            elif field == "ssoURL":
                value = check_http_url(value.strip(), "ssoURL")
            elif field == "certificate":
                value = check_certificate(value, ctx.now())
            elif field == "defaultTeam":
                found = conn.execute(
                    "SELECT 1 FROM teams WHERE id = ? AND organization_id = ?", (value, org_id)
                ).fetchone()
                if found is None:
                    raise bad_request(f"defaultTeam: no team {value!r} in this organization")
        changes[_COLUMNS[field]] = value
    return changes


@router.get(f"{_O}/saml", "listSAMLProvidersInOrganizationById", ListPage[SAMLProvider], 403, 404)
async def list_providers(ctx: CtxDep, organizationId: str, page: PageDep) -> Response:
    items, result = list_in_org(
        ctx,
        organizationId,
        page,
        _PROVIDERS,
        require_admin,
        "see the organization's SAML providers",
        lambda conn, row, caller: provider_json(conn, ctx.base_url, row, caller),
    )
    return respond_list(items, result)


@router.post(f"{_O}/saml", "createOrganizationSAMLProvider", SAMLProvider, 403, 404, status=201)
def create_provider(
    ctx: CtxDep, organizationId: str, body: Annotated[SAMLProviderCreate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        caller = load_admin(conn, ctx, organizationId, "add SAML providers")
        changes = _changes(conn, ctx, organizationId, body)
        provider_id = new_id()
        names = ", ".join(changes)
        marks = ", ".join("?" for _ in changes)
        conn.execute(
            f"INSERT INTO saml_providers (id, organization_id, created_at, {names})"
            f" VALUES (?, ?, ?, {marks})",
            (provider_id, organizationId, to_db(ctx.now()), *changes.values()),
        )
        row = load_provider(conn, organizationId, provider_id)
        data = provider_json(conn, ctx.base_url, row, caller)
    return respond_resource(data, 201)


@router.get(
    f"{_O}/saml/{{samlProviderId}}", "getOrganizationSAMLProviderById", SAMLProvider, 403, 404
)
async def get_provider(ctx: CtxDep, organizationId: str, samlProviderId: str) -> Response:
    with ctx.db.read() as conn:
        caller = load_admin(conn, ctx, organizationId, "see the organization's SAML providers")
        row = load_provider(conn, organizationId, samlProviderId)
        return respond(provider_json(conn, ctx.base_url, row, caller))


@router.patch(
    f"{_O}/saml/{{samlProviderId}}", "updateOrganizationSAMLProvider", SAMLProvider, 403, 404
)
def update_provider(
    ctx: CtxDep,
    organizationId: str,
    samlProviderId: str,
    body: Annotated[SAMLProviderUpdate, Body()],
) -> Response:
    with ctx.db.write() as conn:
        caller = load_admin(conn, ctx, organizationId, "change SAML providers")
        load_provider(conn, organizationId, samlProviderId)
        if "label" in body.model_fields_set and body.label is None:
            raise bad_request("label: must not be null")
        changes = _changes(conn, ctx, organizationId, body)
        if changes:
            assignments = ", ".join(f"{column} = ?" for column in changes)
            conn.execute(
                f"UPDATE saml_providers SET {assignments} WHERE id = ?",
                (*changes.values(), samlProviderId),
            )
            release_sso_if_no_provider(conn, organizationId)
        row = load_provider(conn, organizationId, samlProviderId)
        return respond(provider_json(conn, ctx.base_url, row, caller))


@router.delete(
    f"{_O}/saml/{{samlProviderId}}", "deleteOrganizationSAMLProvider", None, 403, 404, status=204
)
def delete_provider(ctx: CtxDep, organizationId: str, samlProviderId: str) -> Response:
    with ctx.db.write() as conn:
        load_admin(conn, ctx, organizationId, "remove SAML providers")
        conn.execute(
            "DELETE FROM saml_providers WHERE id = ? AND organization_id = ?",
            (samlProviderId, organizationId),
        )
        release_sso_if_no_provider(conn, organizationId)
    return no_content()


@router.get(f"{_O}/sso", "listSSOProviderLoginsInOrganization", SSOProviderLogins, 404)
async def list_sso_logins(ctx: CtxDep, organizationId: str) -> Response:
    """The login entry points of the active providers (a sign-in page lists these)."""
    with ctx.db.read() as conn:
        load_membership(conn, ctx, organizationId)
        rows = conn.execute(
            f"SELECT id, label FROM saml_providers WHERE organization_id = ? AND {ACTIVE}"
            " ORDER BY created_at, id",
            (organizationId,),
        ).fetchall()
    items = [
        {
            "id": row["id"],
            "label": row["label"],
            "startURL": service_json(ctx.base_url, row["id"])["startURL"],
        }
        for row in rows
    ]
    return respond({"items": items})
