"""Specs and versions in the store, and who may do what with them."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from docdeck.server.access import load_membership, require
from docdeck.server.errors import not_found
from docdeck.server.http.context import Ctx
from docdeck.server.permissions import Membership, at_least


@dataclass(frozen=True)
class SpecRights:
    view: bool
    edit: bool


def rights(member: Membership) -> SpecRights:
    """Every member sees the organization's specs; `permissions.createOpenAPISpec` (create
    and above) decides who may create, and the same people edit and delete."""
    return SpecRights(view=True, edit=may_create(member))


def may_create(member: Membership) -> bool:
    return at_least(member.role, "create")


def require_create(member: Membership, action: str) -> None:
    require(
        may_create(member),
        f"only members with the create role or above (permissions.createOpenAPISpec) may {action}",
    )


def find_spec(conn: sqlite3.Connection, org_id: str, slug: str) -> sqlite3.Row | None:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM openapi_specs WHERE organization_id = ? AND slug = ?", (org_id, slug)
    ).fetchone()
    return row


def load_spec(
    conn: sqlite3.Connection, ctx: Ctx, org_id: str, slug: str
) -> tuple[sqlite3.Row, Membership]:
    member = load_membership(conn, ctx, org_id)
    row = find_spec(conn, org_id, slug)
    if row is None:
        raise not_found(f"OpenAPI spec {slug!r} not found in organization {org_id!r}")
    return row, member


def load_version(conn: sqlite3.Connection, spec: sqlite3.Row, version_id: str) -> sqlite3.Row:
    """A version of the spec; `latest` is the newest one."""
    if version_id == "latest":
        row = conn.execute(
            "SELECT * FROM openapi_spec_versions WHERE spec_id = ? ORDER BY seq DESC LIMIT 1",
            (spec["id"],),
        ).fetchone()
        if row is None:
            raise not_found(f"OpenAPI spec {spec['slug']!r} has no version yet")
    else:
        row = conn.execute(
            "SELECT * FROM openapi_spec_versions WHERE spec_id = ? AND id = ?",
            (spec["id"], version_id),
        ).fetchone()
        if row is None:
            raise not_found(f"version {version_id!r} of OpenAPI spec {spec['slug']!r} not found")
    result: sqlite3.Row = row
    return result
