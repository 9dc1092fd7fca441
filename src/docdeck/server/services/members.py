"""The queries behind member and team rows, and the per-page details member rows need.

A list query reads `members` alone, in the order of an index, and stops at its limit; what
each member's JSON also needs (the user, how many teams and spaces) is then read for the
page's rows only, in three batched queries (`member_details`). As correlated subqueries in the
list's SELECT they ran once per row, and the `spaces` one recounted every live space of the
organization for every member (O(members x spaces): 640 ms for a 1,000-row page of a
10,000-member, 1,000-space organization); joined with `users`, the list's COUNT(*) visited
every member's user.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import NamedTuple

MEMBER_COLUMNS = (
    "m.organization_id, m.user_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at"
)
MEMBER_FROM = "FROM members m"

MEMBER_SEARCH = """ AND EXISTS (SELECT 1 FROM users u WHERE u.id = m.user_id
    AND (instr(casefold(u.display_name), ?) > 0 OR instr(casefold(u.email), ?) > 0))"""
"""The members list's `search` filter (params: the folded text twice)."""

TEAM_SELECT = """
    SELECT t.id, t.organization_id, t.title, t.created_at,
        (SELECT COUNT(*) FROM team_members tm WHERE tm.team_id = t.id) AS member_count,
        (SELECT COUNT(DISTINCT g.space_id) FROM space_grants g JOIN spaces s ON s.id = g.space_id
            WHERE g.team_id = t.id AND s.deleted_at IS NULL) AS space_count,
        (SELECT role FROM team_members tm WHERE tm.team_id = t.id AND tm.user_id = ?) AS my_role
"""


class MemberDetails(NamedTuple):  # a tuple: 30x cheaper to build than a frozen dataclass
    email: str
    display_name: str
    photo_url: str | None
    teams: int
    spaces: int


def live_space_count(conn: sqlite3.Connection, org_id: str) -> int:
    return int(
        conn.execute(
            "SELECT COUNT(*) FROM spaces WHERE organization_id = ? AND deleted_at IS NULL",
            (org_id,),
        ).fetchone()[0]
    )


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


def member_details(
    conn: sqlite3.Connection, org_id: str, rows: Sequence[sqlite3.Row]
) -> dict[str, MemberDetails]:
    """user id -> the user and counts of each member row (of organization `org_id`): every
    live space of the organization for a member with a role, the spaces granted to them or
    one of their teams for a guest."""
    if not rows:
        return {}
    ids = json.dumps([row["user_id"] for row in rows])
    users = conn.execute(
        "SELECT id, email, display_name, photo_url FROM users"
        " WHERE id IN (SELECT value FROM json_each(?))",
        (ids,),
    ).fetchall()
    teams = dict(
        conn.execute(
            "SELECT tm.user_id, COUNT(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id"
            " WHERE tm.user_id IN (SELECT value FROM json_each(?)) AND t.organization_id = ?"
            " GROUP BY tm.user_id",
            (ids, org_id),
        ).fetchall()
    )
    guests = [row["user_id"] for row in rows if row["role"] is None]
    guest_spaces = _guest_space_counts(conn, org_id, guests) if guests else {}
    every = live_space_count(conn, org_id) if len(guests) < len(rows) else 0
    roles = {row["user_id"]: row["role"] for row in rows}
    return {
        user_id: MemberDetails(
            email,
            display_name,
            photo_url,
            teams.get(user_id, 0),
            every if roles[user_id] is not None else guest_spaces.get(user_id, 0),
        )
        for user_id, email, display_name, photo_url in users
    }
