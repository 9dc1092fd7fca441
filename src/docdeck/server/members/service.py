"""The queries behind member and team rows.

A member list reads one page in one statement: `members` in the order of an index that also
holds the member's other columns (migrations 13, 15 and 20: the user's email, name and photo
are kept on the member row), stopping at the page's limit, with no lookup per member. A
member's `teams` is a column the store keeps (`team_count`, migration 15), and so is a
guest's `spaces` (`granted_spaces`); every member with a role sees
all of the organization's live spaces, a number the store keeps too. The `spaces` count as a
correlated subquery recounted every live space of the organization for every member
(O(members x spaces): 640 ms for a 1,000-row page of a 10,000-member, 1,000-space
organization); counted afterwards for the page's guests alone, it was still 7-8.5 ms of a
1,000-guest page (15-16 ms in all, at load 2).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any

from docdeck.server.pagination import live_space_count
from docdeck.server.store.schema import member_wire

MEMBER_COLUMNS = (
    "m.user_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at,"
    " m.user_email, m.user_name, m.user_photo_url, m.team_count, m.granted_spaces"
)
"""A member row's columns, in this order (`wire.members_json` unpacks them by position: a
sqlite3.Row looks a name up by comparing it with every column name, ten times per member).
The user's email, name and photo are the copies the member row keeps (migration 20): the
user's own row is not read. The organization is not selected: every caller knows it."""

MEMBER_FROM = "FROM members m"

_MEMBER_WIRE = member_wire("m.")


def member_page_select(sort_column: str) -> str:
    """A row of the members list: the member as JSON text (`store.schema.member_wire`), then
    the cursor's keys (`sort_column` and `m.user_id`), all of them read from the list's sort
    index (a column the index does not hold would look every member's row up).

    The text comes as a BLOB, its UTF-8 bytes as the index holds them: as TEXT, every
    member's text was decoded into a `str` to be encoded back into the same bytes for the
    answer (13 us of a page of 50, by bench/request_cpu.py's measure). SQLite still reads the
    indexed value (the CAST wraps the very expression the index holds)."""
    return f"CAST({_MEMBER_WIRE} AS BLOB), {sort_column}, m.user_id"


USERS = "LEFT JOIN users u INDEXED BY users_for_members ON u.id = m.user_id"
"""The member's user, for a filter on what only the user holds (`MEMBER_SEARCH`'s folded name
and email). A LEFT JOIN on the user's primary key keeps `members` the outer loop, in its
index's order. The user is read from `users_for_members` (migration 14), which holds every
column a search reads of it: left to itself SQLite (without ANALYZE) took the primary key's
index and then the table row, for every member (a search's count of 10,000 members: 6.1 ms,
4.4 ms from the covering index)."""


def list_standing(
    conn: sqlite3.Connection,
    org_id: str,
    user_id: str,
    role: str | None,
    *,
    by_role: bool,
    seen: bool,
) -> tuple[str | None, bool, int, int, bytes] | None:
    """What a members list needs besides its page, in one statement: the caller's role in
    organization `org_id` and whether they are an active member of it, its live spaces
    (`live_space_count`), its members from the counts the store keeps (with role `role`
    when `by_role`, None for the guests; only those ever seen when `seen`) and the cursor
    secret (`pagination.cursor_secret`, for `fetch_page`). None when the organization does
    not exist. (Four statements before: a statement costs more than the lookups it does
    here, about 15 us for the secret's.)"""
    counted = "SELECT coalesce(sum(members), 0) FROM member_counts WHERE organization_id = t.id"
    params: list[Any] = []
    if by_role:
        counted += " AND role = ?"
        params.append(role or "")
    if seen:
        counted += " AND seen = 1"
    row = conn.execute(
        "SELECT my.role, my.user_id IS NOT NULL,"
        " coalesce((SELECT live FROM live_space_counts WHERE organization_id = t.id), 0),"
        f" ({counted}), (SELECT value FROM sandbox_secrets WHERE name = 'cursor')"
        " FROM organizations t LEFT JOIN members my ON my.organization_id = t.id"
        " AND my.user_id = ? AND my.disabled = 0 WHERE t.id = ?",
        (*params, user_id, org_id),
    ).fetchone()
    if row is None:
        return None
    return row[0], bool(row[1]), int(row[2]), int(row[3]), bytes.fromhex(row[4])


def member_index(sort: str, by_role: bool) -> str:
    """The index a members list reads, in its sort order: by `joinedAt` or `lastSeenAt`, with
    the role after the organization when the list filters on it (a guest's role is NULL)."""
    column = "joined" if sort == "joinedAt" else "last_seen"
    return f"members_by_role_{column}" if by_role else f"members_by_{column}"


def member_from(index: str, search: bool) -> str:
    """`MEMBER_FROM` reading `members` through `index` (`member_index`), joined to `USERS`
    for a `search`, named with INDEXED BY so the page's plan does not rest on the planner's
    weighing of indexes. SQLite 3.40 picks these very indexes today for every sort, order,
    role filter and search, with and without ANALYZE's statistics (checked on the
    10,000-member organization of bench/members.py); the hint keeps it so whatever
    statistics a database comes to hold, where another index (the primary key,
    `members_by_user`) would read the organization and sort it."""
    users = f" {USERS}" if search else ""
    return f"FROM members m INDEXED BY {index}{users}"


MEMBER_SEARCH = (
    " AND (instr(coalesce(u.folded_name, casefold(u.display_name)), ?) > 0"
    " OR instr(coalesce(u.folded_email, casefold(u.email)), ?) > 0)"
)
"""The members list's `search` filter (params: the folded text twice). The store keeps the
user's name and email folded when they are ASCII (migration 14); other text is folded here,
by a call into Python, which a search of 10,000 members made 20,000 times."""

TEAM_SELECT = """
    SELECT t.id, t.organization_id, t.title, t.created_at,
        (SELECT COUNT(*) FROM team_members tm WHERE tm.team_id = t.id) AS member_count,
        (SELECT COUNT(DISTINCT g.space_id) FROM space_grants g JOIN spaces s ON s.id = g.space_id
            WHERE g.team_id = t.id AND s.deleted_at IS NULL) AS space_count,
        (SELECT role FROM team_members tm WHERE tm.team_id = t.id AND tm.user_id = ?) AS my_role
"""


def live_spaces_for(conn: sqlite3.Connection, org_id: str, rows: Sequence[Any]) -> int:
    """The organization's live spaces when a member row with a role is among `rows` (their
    `spaces`); 0, unread, when every row is a guest's."""
    return live_space_count(conn, org_id) if any(row[1] is not None for row in rows) else 0
