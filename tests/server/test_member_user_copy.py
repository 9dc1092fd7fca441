"""A member row's copy of its user's email, name and photo (migration 20), which the members
list shows without reading the user, always equals the user's own row: in a database made
before the migration, after the user changes (in any organization the user is a member of),
and for a member added or moved to another user, whichever connection writes (a plain
sqlite3 one here, without the sandbox's SQL functions)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import httpx

from docdeck.server import create_app
from docdeck.server.store import db as store_db
from docdeck.server.store.schema import MIGRATIONS

from ._support import ADMIN, DemoIds
from .test_comment_wire import undo_comment_wire

NOW = "2025-01-01T00:00:00.000000Z"


def _copies(conn: sqlite3.Connection) -> list[tuple[object, ...]]:
    rows = conn.execute(
        "SELECT m.organization_id, m.user_id, m.user_email, m.user_name, m.user_photo_url"
        " FROM members m ORDER BY 1, 2"
    )
    return [tuple(row) for row in rows]


def _users(conn: sqlite3.Connection) -> list[tuple[object, ...]]:
    rows = conn.execute(
        "SELECT m.organization_id, m.user_id, u.email, u.display_name, u.photo_url"
        " FROM members m JOIN users u ON u.id = m.user_id ORDER BY 1, 2"
    )
    return [tuple(row) for row in rows]


def undo_member_user_copy(conn: sqlite3.Connection) -> None:
    """Make a current database what version 19 left: without migration 20's member copies,
    triggers and wider indexes, nor the later migrations' changes (for a test that rewinds a
    database to an earlier version and migrates it again: the caller sets `user_version`)."""
    for trigger in (
        "members_user_copied_on_insert",
        "members_user_copied_on_update",
        "users_copied_to_members",
    ):
        conn.execute(f"DROP TRIGGER {trigger}")
    indexes = [
        statement
        for statement in store_db._statements(MIGRATIONS[14])
        if statement.startswith("CREATE INDEX members_by_")
    ]
    assert len(indexes) == 4, indexes
    for statement in indexes:
        conn.execute(f"DROP INDEX {statement.split()[2]}")
        conn.execute(statement)
    for column in ("user_email", "user_name", "user_photo_url"):
        conn.execute(f"ALTER TABLE members DROP COLUMN {column}")
    # and what later migrations added (21's indexes are the ones made anew above; 22's index
    # is made anew by 22 itself): 23's kept safe bodies, 24's kept comments, 25's spaces as
    # JSON text
    undo_comment_wire(conn)  # 24's kept comments
    for table in ("comments", "comment_replies"):
        conn.execute(f"DROP TRIGGER {table}_safe_body_stale")
        conn.execute(f"ALTER TABLE {table} DROP COLUMN safe_body")
    conn.execute("DROP INDEX spaces_wire")


def test_the_migration_copies_what_a_database_already_holds(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = store_db._connect(path)
    old.create_function("seal_share_key", 2, lambda *_: None)  # migration 19, no links here
    for number in range(19):
        for statement in store_db._statements(MIGRATIONS[number]):
            old.execute(statement)
    old.execute("PRAGMA user_version = 19")
    old.executemany(
        "INSERT INTO organizations (id, title, created_at) VALUES (?, ?, ?)",
        [("o1", "One", NOW), ("o2", "Two", NOW)],
    )
    old.executemany(
        "INSERT INTO users (id, email, display_name, photo_url) VALUES (?, ?, ?, ?)",
        [("u0", "u0@x.test", "Zoë", "https://p/0.png"), ("u1", "U1@x.test", "U 1", None)],
    )
    old.executemany(
        "INSERT INTO members (organization_id, user_id, role, joined_at) VALUES (?, ?, ?, ?)",
        [("o1", "u0", None, NOW), ("o1", "u1", "admin", NOW), ("o2", "u0", "read", NOW)],
    )
    old.close()
    store_db.migrate(path)
    conn = store_db._connect(path)
    try:
        assert _copies(conn) == _users(conn)
        assert _copies(conn)[0] == ("o1", "u0", "u0@x.test", "Zoë", "https://p/0.png")
    finally:
        conn.close()


def test_the_demo_database_before_the_migration_gets_the_copies(sandbox_db: Path) -> None:
    conn = store_db._connect(sandbox_db)
    undo_member_user_copy(conn)
    conn.execute("PRAGMA user_version = 19")
    conn.close()
    store_db.migrate(sandbox_db)
    conn = store_db._connect(sandbox_db)
    try:
        assert _copies(conn) == _users(conn)
        assert all(row[2] and row[3] for row in _copies(conn))
    finally:
        conn.close()


async def test_the_copies_follow_every_write_and_the_list_shows_them(
    sandbox_db: Path, token_for: Callable[[str], str], ids: DemoIds
) -> None:
    headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}  # before the email changes
    raw = sqlite3.connect(sandbox_db, isolation_level=None)
    try:
        assert _copies(raw) == _users(raw)
        ada = ids.users[ADMIN]
        assert (
            raw.execute("SELECT COUNT(*) FROM members WHERE user_id = ?", (ada,)).fetchone()[0] == 2
        ), "the demo's admin is in two organizations"
        raw.execute(
            "UPDATE users SET display_name = 'Ada Renamed', email = 'ADA2@x.test',"
            " photo_url = 'https://p/ada.png' WHERE id = ?",
            (ada,),
        )
        raw.execute(
            "INSERT INTO users (id, email, display_name) VALUES ('new-user', 'n@x.test', 'New')"
        )
        raw.execute(
            "INSERT INTO members (organization_id, user_id, role, joined_at)"
            " VALUES (?, 'new-user', 'read', ?)",
            (ids.northwind, NOW),
        )
        raw.execute(
            "INSERT INTO users (id, email, display_name) VALUES ('other', 'o@x.test', 'Other')"
        )
        raw.execute("UPDATE members SET user_id = 'other' WHERE user_id = 'new-user'")
        raw.execute("UPDATE users SET photo_url = NULL WHERE id = ?", (ada,))
        assert _copies(raw) == _users(raw)
    finally:
        raw.close()

    transport = httpx.ASGITransport(app=create_app(sandbox_db, answer_cache=False))
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as c:
        answer = await c.get(f"/v1/orgs/{ids.northwind}/members", params={"limit": 1000})
        assert answer.status_code == 200, answer.text
        users = {m["id"]: m["user"] for m in answer.json()["items"]}
    assert users[ada]["displayName"] == "Ada Renamed"
    assert users[ada]["email"] == "ADA2@x.test"
    assert "photoURL" not in users[ada]
    assert users["other"]["displayName"] == "Other"
    assert "new-user" not in users
