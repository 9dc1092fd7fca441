"""Organizations: the SQL behind their routes (`routes.py`)."""

from __future__ import annotations

import sqlite3
from typing import Any

from docdeck.server.errors import bad_request
from docdeck.server.pagination import Listing, PageRequest, PageResult

ORGANIZATION_COLUMNS = (
    "id",
    "logo",
    "title",
    "created_at",
    "email_domains",
    "type",
    "default_role",
    "sso",
    "ai",
    "invite_links",
    "plan",
    "hostname",
    "use_case",
    "community_type",
)
"""The columns an organization is written from (`wire.organization_values`), in this order."""

# The caller's role and team ownership come with each row, not two queries per row; the row
# is the written columns alone, by position (plain tuples: no `sqlite3.Row`, no name lookups),
# and the sort keys are read from them (created_at, id) rather than selected again.
_ORGANIZATIONS = Listing(
    "orgs",
    ", ".join(f"o.{column}" for column in ORGANIZATION_COLUMNS)
    + ", m.role, EXISTS (SELECT 1 FROM team_members tm"
    " JOIN teams t ON t.id = tm.team_id WHERE t.organization_id = o.id"
    " AND tm.user_id = m.user_id AND tm.role = 'owner')",
    "FROM organizations o JOIN members m ON m.organization_id = o.id"
    " WHERE m.user_id = ? AND m.disabled = 0",
    ("o.created_at", "o.id"),
)
_KEY_COLUMNS = (ORGANIZATION_COLUMNS.index("created_at"), ORGANIZATION_COLUMNS.index("id"))


def page_of_organizations(conn: sqlite3.Connection, user_id: str, page: PageRequest) -> PageResult:
    """A page of the organizations `user_id` is an active member of: plain tuples of
    `ORGANIZATION_COLUMNS`, then the caller's role and whether they own a team in it."""
    return _ORGANIZATIONS.page(conn, [user_id], page, key_columns=_KEY_COLUMNS, plain_rows=True)


def update_organization(
    conn: sqlite3.Connection, organization_id: str, changes: dict[str, Any]
) -> None:
    """Sets `changes` (column names the route chose, never input); a hostname must be free."""
    if "hostname" in changes:
        taken = conn.execute(
            "SELECT 1 FROM organizations WHERE hostname = ? AND id != ?",
            (changes["hostname"], organization_id),
        ).fetchone()
        if taken:
            raise bad_request(f"hostname: {changes['hostname']!r} is used by another organization")
    if changes:
        assignments = ", ".join(f"{column} = ?" for column in changes)
        conn.execute(
            f"UPDATE organizations SET {assignments} WHERE id = ?",
            [*changes.values(), organization_id],
        )


def delete_link_invite(conn: sqlite3.Connection, organization_id: str, invite_id: str) -> None:
    conn.execute(
        "DELETE FROM link_invites WHERE id = ? AND organization_id = ?",
        (invite_id, organization_id),
    )


def organizations_with_domain(conn: sqlite3.Connection, domain: str) -> list[sqlite3.Row]:
    rows: list[sqlite3.Row] = conn.execute(
        "SELECT o.* FROM organizations o WHERE EXISTS"
        " (SELECT 1 FROM json_each(o.email_domains) WHERE value = ?)"
        " ORDER BY o.created_at, o.id",
        (domain,),
    ).fetchall()
    return rows


def record_seen(conn: sqlite3.Connection, organization_id: str, user_id: str, stamp: str) -> None:
    conn.execute(
        "UPDATE members SET last_seen_at = ? WHERE organization_id = ? AND user_id = ?",
        (stamp, organization_id, user_id),
    )
