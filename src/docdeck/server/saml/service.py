"""Providers in the store, what the sandbox derives for them, and the organization's `sso`
flag, which can be on only while a provider is active."""

from __future__ import annotations

import sqlite3

from docdeck.server.errors import bad_request, found
from docdeck.server.members.service import TEAM_SELECT
from docdeck.server.permissions import Membership
from docdeck.server.teams.wire import team_json
from docdeck.server.wire import Json, wire_time

ACTIVE = "entity_id IS NOT NULL AND certificate IS NOT NULL AND sso_url IS NOT NULL"
"""A provider is `active` once it has the identity provider's entity id, signing certificate
and login URL; `pending` until then (the platform: "not yet fully configured")."""


def load_provider(conn: sqlite3.Connection, org_id: str, provider_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM saml_providers WHERE id = ? AND organization_id = ?",
        (provider_id, org_id),
    ).fetchone()
    return found(row, f"SAML provider {provider_id!r} not found in organization {org_id!r}")


def has_active_provider(conn: sqlite3.Connection, org_id: str) -> bool:
    row = conn.execute(
        f"SELECT 1 FROM saml_providers WHERE organization_id = ? AND {ACTIVE} LIMIT 1",
        (org_id,),
    ).fetchone()
    return row is not None


def require_active_provider(conn: sqlite3.Connection, org_id: str, what: str) -> None:
    """For `PATCH {O}` with `sso: true` and `POST {O}/members/{id}/sso`: single sign-on
    needs a provider members can sign in with."""
    if not has_active_provider(conn, org_id):
        raise bad_request(
            f"{what}: the organization has no active SAML provider; add one with its entity id,"
            " certificate and SSO URL first (POST /v1/orgs/{organizationId}/saml)"
        )


def release_sso_if_no_provider(conn: sqlite3.Connection, org_id: str) -> None:
    """SSO enforced without an active provider would lock every member out: the flag goes
    off with the last active provider."""
    if not has_active_provider(conn, org_id):
        conn.execute("UPDATE organizations SET sso = 0 WHERE id = ? AND sso = 1", (org_id,))


def service_json(base: str, provider_id: str) -> Json:
    """Where the identity provider sends its answers, and who the service says it is."""
    root = f"{base}/sso/saml/{provider_id}"
    return {"acsURL": f"{root}/acs", "startURL": f"{root}/start", "entityID": f"{root}/metadata"}


def provider_json(
    conn: sqlite3.Connection, base: str, row: sqlite3.Row, caller: Membership
) -> Json:
    active = all(row[c] is not None for c in ("entity_id", "certificate", "sso_url"))
    data: Json = {
        "object": "saml-provider",
        "id": row["id"],
        "label": row["label"],
        "ssoURL": row["sso_url"] or "",
        "entityID": row["entity_id"] or "",
        "certificate": row["certificate"] or "",
    }
    if row["default_team_id"] is not None:
        team = conn.execute(
            f"{TEAM_SELECT} FROM teams t WHERE t.id = ?", (caller.user_id, row["default_team_id"])
        ).fetchone()
        if team is not None:
            data["defaultTeam"] = team_json(team, caller)
    data["defaultRole"] = row["default_role"]
    data["createdAt"] = wire_time(row["created_at"])
    data["status"] = "active" if active else "pending"
    data["service"] = service_json(base, row["id"])
    data["urls"] = {"location": f"{base}/v1/orgs/{row['organization_id']}/saml/{row['id']}"}
    return data
