"""The queries behind member and team rows, and the per-page counts they need.

A member's `spaces` count is not a column of the row query: as a correlated subquery it
recounted every live space of the organization once per member (O(members x spaces): 640 ms for
a 1,000-row page of a 10,000-member, 1,000-space organization). `space_counts` counts once per
page instead: the organization's live spaces once (what every non-guest reaches), and the
granted spaces of just the guests on the page.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

MEMBER_SELECT = """
    SELECT m.organization_id, m.user_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at,
        u.email, u.display_name, u.photo_url,
        (SELECT COUNT(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id
            WHERE tm.user_id = m.user_id AND t.organization_id = m.organization_id) AS team_count
"""
MEMBER_FROM = "FROM members m JOIN users u ON u.id = m.user_id"

TEAM_SELECT = """
    SELECT t.id, t.organization_id, t.title, t.created_at,
        (SELECT COUNT(*) FROM team_members tm WHERE tm.team_id = t.id) AS member_count,
        (SELECT COUNT(DISTINCT g.space_id) FROM space_grants g JOIN spaces s ON s.id = g.space_id
            WHERE g.team_id = t.id AND s.deleted_at IS NULL) AS space_count,
        (SELECT role FROM team_members tm WHERE tm.team_id = t.id AND tm.user_id = ?) AS my_role
"""


def live_space_count(conn: sqlite3.Connection, org_id: str) -> int:
    return int(
        conn.execute(
            "SELECT COUNT(*) FROM spaces WHERE organization_id = ? AND deleted_at IS NULL",
            (org_id,),
        ).fetchone()[0]
    )


def space_counts(
    conn: sqlite3.Connection, org_id: str, rows: Sequence[sqlite3.Row]
) -> dict[str, int]:
    """user id -> how many live spaces of the organization the member reaches, for `rows`
    (member rows of one organization): every space for a member with a role, the spaces
    granted to them or to one of their teams for a guest."""
    if not rows:
        return {}
    every = live_space_count(conn, org_id)
    counts = {row["user_id"]: every for row in rows if row["role"] is not None}
    guests = [row["user_id"] for row in rows if row["role"] is None]
    if guests:
        counts.update({user_id: 0 for user_id in guests})
        found = conn.execute(
            """SELECT x.user_id, COUNT(DISTINCT x.space_id) FROM (
                SELECT g.user_id AS user_id, g.space_id FROM space_grants g
                    WHERE g.user_id IN (SELECT value FROM json_each(?1))
                UNION ALL
                SELECT tm.user_id, g.space_id FROM team_members tm
                    JOIN space_grants g ON g.team_id = tm.team_id
                    WHERE tm.user_id IN (SELECT value FROM json_each(?1))
            ) x JOIN spaces s ON s.id = x.space_id
            WHERE s.organization_id = ?2 AND s.deleted_at IS NULL
            GROUP BY x.user_id""",
            (json.dumps(guests), org_id),
        ).fetchall()
        counts.update({user_id: int(count) for user_id, count in found})
    return counts
