"""The demo workspace's change requests."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

from docdeck.server.services import change_requests as service


def _space(conn: sqlite3.Connection, space_id: str) -> sqlite3.Row:
    row: sqlite3.Row = conn.execute("SELECT * FROM spaces WHERE id = ?", (space_id,)).fetchone()
    return row


def load(
    conn: sqlite3.Connection, spaces: dict[str, str], users: dict[str, str], now: datetime
) -> None:
    guide = _space(conn, spaces["Webhooks Guide"])
    service.create(
        conn, guide, users["chen@northwind.dev"], "Clarify retry behaviour", now - timedelta(days=3)
    )
