"""Change requests: loading one for a caller, creating, the wire form, the space's counters.

A change request holds its own revision of the space (`revision_id`), written outside main: a
space's current revision never moves because of a change request until it is merged. Its
base, the last revision of main it has taken in, is `revision_merged_ancestor` once updated,
else `revision_initial`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from docdeck.server.access import SpaceAccess, load_space, require, require_live
from docdeck.server.errors import bad_request, not_found
from docdeck.server.http.auth import Caller
from docdeck.server.http.context import Ctx
from docdeck.server.ids import new_id, to_db
from docdeck.server.members.wire import user_json
from docdeck.server.pagination import Listing, PageRequest, PageResult
from docdeck.server.permissions import at_least
from docdeck.server.wire import Json, wire_time

EDITABLE = ("draft", "open")
_CHANGE_REQUESTS = Listing(
    "change-requests",
    "c.*",
    "FROM change_requests c WHERE c.space_id = ? AND c.status = ?",
    ("c.number",),
    descending=True,
)


class Actor(Protocol):
    """Who acts and when: a request's `Ctx`, or the demo loader."""

    @property
    def caller(self) -> Caller: ...

    def now(self) -> datetime: ...


"""Statuses in which content may be authored, updated or merged."""


@dataclass(frozen=True)
class ChangeRequestAccess:
    space: SpaceAccess
    row: sqlite3.Row

    @property
    def id(self) -> str:
        return str(self.row["id"])

    @property
    def base(self) -> str:
        """The last revision of main this change request has taken in."""
        return str(self.row["revision_merged_ancestor"] or self.row["revision_initial"])


def find(conn: sqlite3.Connection, space_id: str, ref: str) -> sqlite3.Row | None:
    """By id, or by number (the reference: `changeRequestId` is the id or its number); an id
    wins over a number. A reference that may be either is looked up both ways in one
    statement (each arm on its own index): the number, the usual reference, was a second
    statement after the id's miss, about 10 us of every change request route."""
    if not (ref.isdigit() and len(ref) < 12):
        row: sqlite3.Row | None = conn.execute(
            "SELECT * FROM change_requests WHERE id = ? AND space_id = ?", (ref, space_id)
        ).fetchone()
        return row
    rows: list[sqlite3.Row] = conn.execute(
        "SELECT * FROM change_requests WHERE id = ?2 AND space_id = ?1 UNION ALL"
        " SELECT * FROM change_requests WHERE space_id = ?1 AND number = ?3",
        (space_id, ref, int(ref)),
    ).fetchall()
    for row in rows:
        if row["id"] == ref:
            return row
    return rows[0] if rows else None


def load_change_request(
    conn: sqlite3.Connection, ctx: Ctx, space_id: str, ref: str
) -> ChangeRequestAccess:
    access = load_space(conn, ctx, space_id)
    require_live(access)
    row = find(conn, space_id, ref)
    if row is None:
        raise not_found(f"change request {ref!r} not found in space {space_id!r}")
    return ChangeRequestAccess(access, row)


def require_edit(access: SpaceAccess, action: str) -> None:
    require(at_least(access.role, "edit"), f"{action} needs the edit role on the space")


def require_editable(cr: ChangeRequestAccess, action: str) -> None:
    status = cr.row["status"]
    if status not in EDITABLE:
        raise bad_request(
            f"change request #{cr.row['number']} is {status}; {action} needs it open or draft"
        )


def add_contributor(conn: sqlite3.Connection, change_request_id: str, user_id: str) -> None:
    conn.execute(
        "INSERT OR IGNORE INTO change_request_contributors (change_request_id, user_id)"
        " VALUES (?, ?)",
        (change_request_id, user_id),
    )


def recount(conn: sqlite3.Connection, space_id: str) -> None:
    """The space's `changeRequests*` counters, counted from the rows so they stay exact."""
    conn.execute(
        """UPDATE spaces SET
            change_requests = (SELECT COUNT(*) FROM change_requests WHERE space_id = :s),
            change_requests_open = (SELECT COUNT(*) FROM change_requests
                WHERE space_id = :s AND status = 'open'),
            change_requests_draft = (SELECT COUNT(*) FROM change_requests
                WHERE space_id = :s AND status = 'draft')
        WHERE id = :s""",
        {"s": space_id},
    )


def create(
    conn: sqlite3.Connection, space: sqlite3.Row, user_id: str, subject: str, now: datetime
) -> str:
    space_id = space["id"]
    number = conn.execute(
        "SELECT COALESCE(MAX(number), 0) + 1 FROM change_requests WHERE space_id = ?",
        (space_id,),
    ).fetchone()[0]
    change_request_id = new_id()
    stamp = to_db(now)
    revision = space["revision_id"]
    conn.execute(
        """INSERT INTO change_requests (id, space_id, number, status, subject, created_by,
            created_at, updated_at, revision_id, revision_initial)
        VALUES (?, ?, ?, 'open', ?, ?, ?, ?, ?, ?)""",
        (change_request_id, space_id, number, subject, user_id, stamp, stamp, revision, revision),
    )
    add_contributor(conn, change_request_id, user_id)
    recount(conn, space_id)
    return change_request_id


def users_by_id(conn: sqlite3.Connection, ids: Iterable[str | None]) -> dict[str, sqlite3.Row]:
    wanted = sorted({i for i in ids if i})
    if not wanted:
        return {}
    marks = ",".join("?" for _ in wanted)
    rows = conn.execute(f"SELECT * FROM users WHERE id IN ({marks})", wanted).fetchall()
    return {r["id"]: r for r in rows}


def user_of(ctx: Ctx, users: dict[str, sqlite3.Row], user_id: str) -> Json:
    row = users.get(user_id)
    if row is None:  # a user removed from the sandbox: keep the id, say who it was not
        return user_json(ctx, user_id, "", "Former user", None)
    return user_json(ctx, user_id, row["email"], row["display_name"], row["photo_url"])


def is_outdated(row: sqlite3.Row, main_revision: str) -> bool:
    """Main has moved past the change request's base and the change request has not
    taken that in (a merged or archived change request is never outdated)."""
    if row["status"] not in EDITABLE:
        return False
    base = row["revision_merged_ancestor"] or row["revision_initial"]
    return bool(base != main_revision)


def change_request_json(
    ctx: Ctx, row: sqlite3.Row, main_revision: str, users: dict[str, sqlite3.Row]
) -> Json:
    space_id = row["space_id"]
    data: Json = {
        "object": "change-request",
        "id": row["id"],
        "number": row["number"],
        "status": row["status"],
        "subject": row["subject"],
        "createdBy": user_of(ctx, users, row["created_by"]),
        "createdAt": wire_time(row["created_at"]),
        "updatedAt": wire_time(row["updated_at"]),
        "revision": row["revision_id"],
        "revisionInitial": row["revision_initial"],
        "comments": row["comments"],
        "outdated": is_outdated(row, main_revision),
        "urls": {
            "app": ctx.url(f"/app/spaces/{space_id}/change-requests/{row['number']}"),
            "location": ctx.url(f"/v1/spaces/{space_id}/change-requests/{row['id']}"),
        },
    }
    if row["revision_merged_ancestor"]:
        data["revisionMergedAncestor"] = row["revision_merged_ancestor"]
    if row["revision_merged"]:
        data["revisionMerged"] = row["revision_merged"]
    if row["merged_by"]:
        data["mergedBy"] = user_of(ctx, users, row["merged_by"])
    if row["merged_at"]:
        data["mergedAt"] = wire_time(row["merged_at"])
    return data


def one_json(conn: sqlite3.Connection, ctx: Ctx, space_id: str, change_request_id: str) -> Json:
    """A change request as stored now (after a write, read in the same transaction)."""
    row = conn.execute(
        "SELECT * FROM change_requests WHERE id = ?", (change_request_id,)
    ).fetchone()
    main = conn.execute("SELECT revision_id FROM spaces WHERE id = ?", (space_id,)).fetchone()[0]
    users = users_by_id(conn, [row["created_by"], row["merged_by"]])
    return change_request_json(ctx, row, main, users)


def page_of_change_requests(
    conn: sqlite3.Connection,
    space_id: str,
    status: str,
    contributor: str | None,
    page: PageRequest,
) -> PageResult:
    """A page of the space's change requests with `status`, newest first (by number); only
    those `contributor` contributed to, when given."""
    where = ""
    params: list[str] = [space_id, status]
    if contributor is not None:
        where += (
            " AND EXISTS (SELECT 1 FROM change_request_contributors k"
            " WHERE k.change_request_id = c.id AND k.user_id = ?)"
        )
        params.append(contributor)
    variant = f":{status}:{contributor or ''}"
    return _CHANGE_REQUESTS.page(conn, params, page, and_where=where, variant=variant)


def update_columns(
    conn: sqlite3.Connection, change_request_id: str, updates: dict[str, Any]
) -> None:
    """Sets the change request's `updates` (column names the caller chose, never input)."""
    assignments = ", ".join(f"{column} = ?" for column in updates)
    conn.execute(
        f"UPDATE change_requests SET {assignments} WHERE id = ?",
        [*updates.values(), change_request_id],
    )
