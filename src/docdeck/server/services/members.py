"""The queries behind member and team rows, and the per-page details member rows need.

A member list reads one page in one statement: `members` in the order of an index that also
holds the member's other columns (migration 13), each row's user by primary key and its team
count from `team_members_by_user`, stopping at the page's limit. Only the guests' space
counts are read afterwards, for the page's guests alone (`member_spaces`); every member with
a role sees all of the organization's live spaces, a number the store keeps. The `spaces`
count as a correlated subquery recounted every live space of the organization for every
member (O(members x spaces): 640 ms for a 1,000-row page of a 10,000-member, 1,000-space
organization).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from docdeck.server.pagination import live_space_count

MEMBER_COLUMNS = (
    "m.organization_id, m.user_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at,"
    " u.email, u.display_name, u.photo_url,"
    " (SELECT COUNT(*) FROM team_members mt JOIN teams t ON t.id = mt.team_id"
    " WHERE mt.user_id = m.user_id AND t.organization_id = m.organization_id) AS team_count"
)
"""A member row's columns, in this order (`wire.member_json` unpacks them by position: a
sqlite3.Row looks a name up by comparing it with every column name, ten times per member)."""

MEMBER_FROM = "FROM members m LEFT JOIN users u ON u.id = m.user_id"
"""A LEFT JOIN on the user's primary key keeps `members` the outer loop, in its index's order.
A list's COUNT needs no user column unless it filters on one: pass `fetch_page` a
`count_from_where` over `members m` alone then."""

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


def _guest_space_counts(
    conn: sqlite3.Connection, org_id: str, guests: Sequence[str]
) -> dict[str, int]:
    rows = conn.execute(
        """SELECT x.user_id, COUNT(DISTINCT x.space_id) FROM (
            SELECT g.user_id AS user_id, g.space_id FROM space_grants g
                WHERE g.user_id IN (SELECT value FROM json_each(?1))
            UNION ALL
            SELECT tm.user_id, g.space_id FROM team_members tm
                -- left to itself the planner scans every grant once per team membership
                JOIN space_grants g INDEXED BY space_grants_by_team ON g.team_id = tm.team_id
                WHERE tm.user_id IN (SELECT value FROM json_each(?1))
        ) x JOIN spaces s ON s.id = x.space_id
        WHERE s.organization_id = ?2 AND s.deleted_at IS NULL
        GROUP BY x.user_id""",
        (json.dumps(list(guests)), org_id),
    ).fetchall()
    return {user_id: int(count) for user_id, count in rows}


def member_spaces(
    conn: sqlite3.Connection, org_id: str, rows: Sequence[sqlite3.Row]
) -> dict[str, int]:
    """user id -> the `spaces` count of each member row (of organization `org_id`): every live
    space of the organization for a member with a role, the spaces granted to them or one of
    their teams for a guest."""
    guests = [row[1] for row in rows if row[2] is None]
    guest_spaces = _guest_space_counts(conn, org_id, guests) if guests else {}
    every = live_space_count(conn, org_id) if len(guests) < len(rows) else 0
    return {row[1]: every if row[2] is not None else guest_spaces.get(row[1], 0) for row in rows}
