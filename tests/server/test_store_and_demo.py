"""The SQLite store (schema versions, pragmas) and the demo workspace loader."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from docdeck.server import (
    DemoAccount,
    UnknownUserError,
    add_bulk_spaces,
    create_app,
    ensure_demo,
    finish_demo,
    mint_token,
)
from docdeck.server.http.auth import hash_token
from docdeck.server.store import Database, SchemaTooNewError
from docdeck.server.store import db as store_db
from docdeck.server.store.schema import SCHEMA_VERSION


def test_new_database_is_migrated_in_wal_mode(tmp_path: Path) -> None:
    db = Database(tmp_path / "new.db")
    try:
        with db.read() as conn:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    finally:
        db.close()


def test_the_first_thread_reads_and_writes_on_the_connection_that_migrated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite parses the whole schema for each connection it opens: a `Database` keeps the
    connection that migrated the file as its first thread's, set back as the others are
    (secure_delete as SQLite's default, no migration-only function), and opens one for
    each other thread."""
    opened: list[sqlite3.Connection] = []
    connect = store_db._connect
    monkeypatch.setattr(
        store_db, "_connect", lambda path: opened.append(connect(path)) or opened[-1]
    )
    default = sqlite3.connect(":memory:").execute("PRAGMA secure_delete").fetchone()[0]
    db = Database(tmp_path / "one.db")
    try:
        with db.write() as conn:
            conn.execute("INSERT INTO users (id, email, display_name) VALUES ('u', 'a@b.c', 'A')")
        with db.read() as conn:
            assert conn.execute("SELECT COUNT(*) FROM users").fetchone()[0] == 1
            assert conn.execute("PRAGMA secure_delete").fetchone()[0] == default
            # unset (Python 3.12 removes it; 3.11 keeps a name that raises when called)
            with pytest.raises(sqlite3.OperationalError):
                conn.execute("SELECT seal_share_key('a', 'b')")
        assert len(opened) == 1
        other = threading.Thread(target=lambda: db.read().__enter__() and None)
        other.start()
        other.join()
        assert len(opened) == 2
    finally:
        db.close()


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(SchemaTooNewError, match="newer"):
        Database(path)


def test_a_failed_write_leaves_nothing_behind(tmp_path: Path) -> None:
    db = Database(tmp_path / "tx.db")
    try:
        with pytest.raises(RuntimeError), db.write() as conn:
            conn.execute("INSERT INTO users (id, email, display_name) VALUES ('u', 'a@b.c', 'A')")
            raise RuntimeError("boom")
        with db.read() as conn:
            assert conn.execute("SELECT COUNT(*) FROM users").fetchone()[0] == 0
    finally:
        db.close()


def test_ensure_demo_loads_once_and_lists_accounts(tmp_path: Path) -> None:
    path = tmp_path / "demo.db"
    accounts = ensure_demo(path)
    assert accounts[0] == DemoAccount("ada@northwind.dev", "Ada Okafor", "admin")
    assert {a.role for a in accounts} >= {
        "admin",
        "create",
        "edit",
        "review",
        "comment",
        "read",
        "guest",
    }
    assert ensure_demo(path) == accounts  # already there: unchanged, same answer
    conn = sqlite3.connect(path)
    try:
        count = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
        assert count("SELECT COUNT(*) FROM organizations") == 2
        assert count("SELECT COUNT(*) FROM teams") == 3
        assert count("SELECT COUNT(*) FROM collections WHERE parent_id IS NOT NULL") >= 1
        assert count("SELECT COUNT(*) FROM spaces WHERE deleted_at IS NOT NULL") == 1
        assert count("SELECT COUNT(*) FROM spaces WHERE parent_id IS NULL") >= 2
        assert count("SELECT COUNT(*) FROM spaces WHERE revision_id IS NULL") == 0
        assert count("SELECT COUNT(DISTINCT joined_at) FROM members") > 8
    finally:
        conn.close()


_CONTENT_TABLES = ("change_requests", "comments", "sites", "revision_entries", "objects")


def _counts(path: Path, tables: tuple[str, ...]) -> dict[str, int]:
    conn = sqlite3.connect(path)
    try:
        return {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in tables}
    finally:
        conn.close()


def test_the_demo_content_can_come_after_the_workspace(tmp_path: Path) -> None:
    """`docdeck serve` loads the organizations, people and spaces before it is ready and the
    rest (pages, change requests, comments, sites) just after: the same demo in the end."""
    whole, split = tmp_path / "whole.db", tmp_path / "split.db"
    accounts = ensure_demo(whole)
    assert ensure_demo(split, content_later=True) == accounts
    workspace = ("organizations", "members", "teams", "collections", "spaces", "space_grants")
    assert _counts(split, workspace)["space_grants"] < _counts(whole, workspace)["space_grants"]
    assert _counts(split, ("change_requests", "comments", "sites")) == {
        "change_requests": 0,
        "comments": 0,
        "sites": 0,
    }
    db = Database(split)
    try:
        assert finish_demo(db) is True
        assert finish_demo(db) is False  # once
    finally:
        db.close()
    tables = workspace + _CONTENT_TABLES
    assert _counts(split, tables) == _counts(whole, tables)


def test_demo_content_left_pending_by_a_stopped_sandbox_is_loaded_on_the_next_start(
    tmp_path: Path,
) -> None:
    path = tmp_path / "demo.db"
    ensure_demo(path, content_later=True)  # ... and the process stopped before finishing
    ensure_demo(path, content_later=True)  # a start that defers again changes nothing yet
    assert _counts(path, ("change_requests",)) == {"change_requests": 0}
    ensure_demo(path)  # a start that does not defer finishes it
    assert _counts(path, ("change_requests", "demo_pending"))["change_requests"] > 0
    assert _counts(path, ("demo_pending",)) == {"demo_pending": 0}


def test_demo_accounts_show_the_roles_stored_now_admins_first(tmp_path: Path) -> None:
    """After a role change the banner tells the truth, and the launcher still signs in as an
    admin (it takes the first account)."""
    path = tmp_path / "demo.db"
    ensure_demo(path)
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.execute(
                "UPDATE members SET role = 'read' WHERE user_id = "
                "(SELECT id FROM users WHERE email = 'ada@northwind.dev')"
            )
    finally:
        conn.close()

    accounts = ensure_demo(path)

    assert accounts[0] == DemoAccount("hana@lumen-project.org", "Hana Sato", "admin")
    assert DemoAccount("ada@northwind.dev", "Ada Okafor", "read") in accounts


def test_mint_token_stores_only_a_hash(tmp_path: Path) -> None:
    path = tmp_path / "demo.db"
    ensure_demo(path)
    token = mint_token(path, "ADA@northwind.dev")
    conn = sqlite3.connect(path)
    try:
        stored = [row[0] for row in conn.execute("SELECT token_hash FROM api_tokens")]
    finally:
        conn.close()
    assert stored == [hash_token(token)] and token not in stored
    with pytest.raises(UnknownUserError):
        mint_token(path, "nobody@example.org")
    assert issubclass(UnknownUserError, LookupError)


def test_add_bulk_spaces(tmp_path: Path) -> None:
    path = tmp_path / "demo.db"
    ensure_demo(path)
    conn = sqlite3.connect(path)
    (org,) = conn.execute("SELECT id FROM organizations WHERE title = 'Lumen'").fetchone()
    conn.close()
    created = add_bulk_spaces(path, org, 1000)
    assert len(set(created)) == 1000
    with pytest.raises(LookupError):
        add_bulk_spaces(path, "nope", 1)


def test_create_app_creates_an_empty_database(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "empty.db"
    app = create_app(path)
    assert path.exists() and app.title == "docdeck sandbox"
