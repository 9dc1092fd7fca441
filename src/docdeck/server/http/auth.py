"""API tokens: minted for a sandbox user, stored only as a SHA-256 hash."""

from __future__ import annotations

import hashlib
import secrets
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from docdeck.server.ids import to_db, utc_now
from docdeck.server.store import Database

TOKEN_PREFIX = "ddk_"


class UnknownUserError(LookupError):
    """No sandbox user has that email address."""


@dataclass(frozen=True)
class Caller:
    user_id: str
    email: str
    display_name: str


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(conn: sqlite3.Connection, email: str) -> str:
    row = conn.execute("SELECT id FROM users WHERE email = ?", (email.strip(),)).fetchone()
    if row is None:
        raise UnknownUserError(f"no sandbox user with email {email!r}")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    conn.execute(
        "INSERT INTO api_tokens (token_hash, user_id, created_at) VALUES (?, ?, ?)",
        (hash_token(token), row["id"], to_db(utc_now())),
    )
    return token


def mint_token(db_path: str | Path, email: str) -> str:
    """A new API token for the sandbox user with that email (case-insensitive)."""
    db = Database(db_path)
    try:
        with db.write() as conn:
            return issue_token(conn, email)
    finally:
        db.close()


def caller_for_token(conn: sqlite3.Connection, token: str) -> Caller | None:
    row = conn.execute(
        "SELECT u.id, u.email, u.display_name FROM api_tokens t JOIN users u ON u.id = t.user_id"
        " WHERE t.token_hash = ?",
        (hash_token(token),),
    ).fetchone()
    if row is None:
        return None
    return Caller(row["id"], row["email"], row["display_name"])
