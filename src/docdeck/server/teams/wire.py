"""Teams as the wire writes them, from rows to
plain dicts (server/wire.py says why dicts)."""

from __future__ import annotations

import sqlite3
from functools import cache

from docdeck.server.permissions import (
    Membership,
    team_permissions,
)
from docdeck.server.wire import Json, columns, wire_time


@cache
def _team_permissions(role: str | None, role_in_team: str | None) -> Json:
    return team_permissions(Membership("", "", role), role_in_team).model_dump(mode="json")


_TEAM = ("id", "title", "member_count", "space_count", "created_at", "my_role")


def team_json(row: sqlite3.Row, member: Membership) -> Json:
    team_id, title, members, spaces, created_at, my_role = columns(row, _TEAM)
    return {
        "object": "team",
        "id": team_id,
        "title": title,
        "members": members,
        "spaces": spaces,
        "createdAt": wire_time(created_at),
        "permissions": _team_permissions(member.role, my_role),
    }
