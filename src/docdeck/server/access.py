"""Loading a resource for the caller: 404 when it is missing or the caller may not see it.

A caller who is not a member of a resource's organization gets the same 404 as for an unknown
id, so ids of other organizations' resources cannot be probed.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from docdeck.server.errors import ApiError, forbidden, not_found
from docdeck.server.http.context import RETENTION, Ctx
from docdeck.server.ids import to_db
from docdeck.server.pagination import Listing, PageRequest, PageResult
from docdeck.server.permissions import (
    Membership,
    grants_that_raise,
    membership,
    space_grants,
    space_role,
)

T = TypeVar("T")


def require(allowed: bool, message: str) -> None:
    if not allowed:
        raise forbidden(message)


def unless_missing(load: Callable[[], T]) -> T | None:
    """`load()`, or None where it answers 404: a delete answers 204 whether or not the thing
    existed (a 403 still stands)."""
    try:
        return load()
    except ApiError as error:
        if error.status == 404:
            return None
        raise


# The caller's membership comes with the organization or space row, in the same statement:
# every route under an organization or a space loads one of them first, so a second statement
# there was paid by every such request.
@cache
def _with_my_membership_sql(table: str, org: str, columns: str = "", joins: str = "") -> str:
    """The statement for `table` (aliased `t`; `org` names its organization's id), built
    once per table; `columns` and `joins` add to it (`space_statement`)."""
    return (
        f"SELECT t.*, my.role AS my_role, my.user_id IS NOT NULL AS is_member{columns}"
        f" FROM {table} t LEFT JOIN members my ON my.organization_id = {org}"
        f" AND my.user_id = ? AND my.disabled = 0{joins} WHERE t.id = ?"
    )


def space_statement(columns: str, joins: str) -> str:
    """`load_space`'s statement with more `columns` (each after a comma) and `joins`, for a
    route that reads something beside the space in the same statement; its parameters are
    the caller's id, those of `joins`, then the space's id. `space_access` takes its row."""
    return _with_my_membership_sql("spaces", "t.organization_id", columns, joins)


def _with_my_membership(
    conn: sqlite3.Connection, ctx: Ctx, table: str, org: str, row_id: str, what: str
) -> sqlite3.Row:
    """The row `row_id` of `table` (aliased `t`; `org` names its organization's id) with
    `my_role` and `is_member` for the caller; 404 when it does not exist or the caller is not
    in its organization."""
    row: sqlite3.Row | None = conn.execute(
        _with_my_membership_sql(table, org), (ctx.caller.user_id, row_id)
    ).fetchone()
    if row is None or not row["is_member"]:
        raise not_found(f"{what} {row_id!r} not found")
    return row


def load_org(conn: sqlite3.Connection, ctx: Ctx, org_id: str) -> tuple[sqlite3.Row, Membership]:
    """The organization (its columns, plus `my_role` and `is_member` for the caller) and the
    caller's membership; 404 when it does not exist or the caller is not in it."""
    row = _with_my_membership(conn, ctx, "organizations", "t.id", org_id, "organization")
    return row, Membership(org_id, ctx.caller.user_id, row["my_role"])


def load_membership(conn: sqlite3.Connection, ctx: Ctx, org_id: str) -> Membership:
    """The caller's membership of the organization, for a route that needs nothing else of
    it; 404 as `load_org`. Reads the organization's key alone (its index), not its row."""
    row = conn.execute(
        "SELECT my.role, my.user_id IS NOT NULL FROM organizations t"
        " LEFT JOIN members my ON my.organization_id = t.id AND my.user_id = ? AND my.disabled = 0"
        " WHERE t.id = ?",
        (ctx.caller.user_id, org_id),
    ).fetchone()
    if row is None or not row[1]:
        raise not_found(f"organization {org_id!r} not found")
    return Membership(org_id, ctx.caller.user_id, row[0])


def require_admin(member: Membership, action: str) -> None:
    require(member.is_admin, f"only an organization admin may {action}")


def require_member(member: Membership, action: str) -> None:
    require(not member.is_guest, f"guests may not {action}; ask an admin for a member role")


def load_admin(conn: sqlite3.Connection, ctx: Ctx, org_id: str, action: str) -> Membership:
    """The caller's membership (404 as `load_membership`), 403 unless they are an admin."""
    member = load_membership(conn, ctx, org_id)
    require_admin(member, action)
    return member


def load_non_guest(conn: sqlite3.Connection, ctx: Ctx, org_id: str, action: str) -> Membership:
    """The caller's membership (404 as `load_membership`), 403 for a guest."""
    member = load_membership(conn, ctx, org_id)
    require_member(member, action)
    return member


def list_in_org(
    ctx: Ctx,
    org_id: str,
    request: PageRequest,
    listing: Listing,
    gate: Callable[[Membership, str], None],
    action: str,
    item: Callable[[sqlite3.Connection, sqlite3.Row, Membership], Any],
) -> tuple[list[Any], PageResult]:
    """A page of an organization's `listing` (its one `?` the organization's id) as `item`
    writes each row, for a caller `gate` lets `action` (`require_member`, `require_admin`)."""
    with ctx.db.read() as conn:
        member = load_membership(conn, ctx, org_id)
        gate(member, action)
        result = listing.page(conn, [org_id], request)
        return [item(conn, row, member) for row in result.rows], result


@dataclass(frozen=True)
class SpaceAccess:
    row: sqlite3.Row
    member: Membership
    role: str | None
    grants: dict[str, str]
    """The caller's grants that can raise their role (`permissions.grants_that_raise`)."""


def retention_cutoff(ctx: Ctx) -> str:
    return to_db(ctx.now() - RETENTION)


def load_space(conn: sqlite3.Connection, ctx: Ctx, space_id: str) -> SpaceAccess:
    """The space, deleted or not, unless it is past the restore window (then it is gone).
    Its row also holds `my_role` and `is_member` for the caller."""
    row = conn.execute(
        _with_my_membership_sql("spaces", "t.organization_id"), (ctx.caller.user_id, space_id)
    ).fetchone()
    return space_access(conn, ctx, row, space_id)


def space_access(
    conn: sqlite3.Connection, ctx: Ctx, row: sqlite3.Row | None, space_id: str
) -> SpaceAccess:
    """`load_space` from the row of its statement (or of `space_statement`'s) for `space_id`:
    404 when there is none or the caller is not in the space's organization."""
    if row is None or not row["is_member"]:
        raise not_found(f"space {space_id!r} not found")
    if row["deleted_at"] is not None and row["deleted_at"] <= retention_cutoff(ctx):
        raise not_found(f"space {space_id!r} not found")
    member = Membership(row["organization_id"], ctx.caller.user_id, row["my_role"])
    grants = grants_that_raise(conn, member)
    role = space_role(member, grants, space_id)
    if role is None:
        raise not_found(f"space {space_id!r} not found")
    return SpaceAccess(row, member, role, grants)


def require_live(access: SpaceAccess) -> None:
    if access.row["deleted_at"] is not None:
        raise not_found(f"space {access.row['id']!r} is deleted; restore it first")


def guest_collections(conn: sqlite3.Connection, org_id: str, grants: dict[str, str]) -> set[str]:
    """Collections a guest sees: those holding, at any depth, a space granted to them."""
    if not grants:
        return set()
    marks = ",".join("?" for _ in grants)
    rows = conn.execute(
        f"""WITH RECURSIVE up(id) AS (
            SELECT parent_id FROM spaces WHERE id IN ({marks}) AND parent_id IS NOT NULL
                AND deleted_at IS NULL
            UNION SELECT c.parent_id FROM collections c JOIN up ON c.id = up.id
                WHERE c.parent_id IS NOT NULL)
        SELECT up.id FROM up JOIN collections c ON c.id = up.id WHERE c.organization_id = ?""",
        [*grants, org_id],
    ).fetchall()
    return {r[0] for r in rows}


def load_collection(
    conn: sqlite3.Connection, ctx: Ctx, collection_id: str
) -> tuple[sqlite3.Row, Membership]:
    missing = not_found(f"collection {collection_id!r} not found")
    row = conn.execute("SELECT * FROM collections WHERE id = ?", (collection_id,)).fetchone()
    if row is None:
        raise missing
    member = membership(conn, row["organization_id"], ctx.caller.user_id)
    if member is None:
        raise missing
    if member.is_guest:
        grants = space_grants(conn, row["organization_id"], ctx.caller.user_id)
        if collection_id not in guest_collections(conn, row["organization_id"], grants):
            raise missing
    return row, member
