"""SQLite access: one connection per thread, serialized writes, short read snapshots.

Writes take a process-wide lock and then `BEGIN IMMEDIATE`, so two threads never race for the
write lock inside SQLite; `busy_timeout` covers another process writing the same file. Every
write is one transaction: it commits when the block ends and rolls back on any exception.
"""

from __future__ import annotations

import contextlib
import hashlib
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from docdeck.server.store.schema import MIGRATIONS, SCHEMA_VERSION
from docdeck.server.store.server_key import ServerKey

BUSY_TIMEOUT_MS = 30_000


class SchemaTooNewError(RuntimeError):
    """The database was written by a newer docdeck whose schema this one does not know."""


def _casefold(value: object) -> str | None:
    return None if value is None else str(value).casefold()


def _sha256_hex(value: object) -> str | None:
    return None if value is None else hashlib.sha256(str(value).encode()).hexdigest()


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=30)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = NORMAL")
    # SQLite's lower() only folds ASCII; searches and title filters are Unicode-aware.
    conn.create_function("casefold", 1, _casefold, deterministic=True)
    # Secrets kept only as digests (a migration hashes the ones stored before).
    conn.create_function("sha256_hex", 1, _sha256_hex, deterministic=True)
    return conn


def _with_key(conn: sqlite3.Connection, key: ServerKey) -> sqlite3.Connection:
    """`conn` with the SQL functions of the server's key: `share_link_digest(id)`, the stored
    digest of the key derived for a share link (store/server_key.py)."""
    conn.create_function("share_link_digest", 1, key.share_digest, deterministic=True)
    return conn


def _statements(script: str) -> list[str]:
    """The statements of a migration, split where SQLite says one is complete (so a trigger's
    body, which holds semicolons, stays whole)."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip():
        statements.append(pending.strip())
    return statements


def migrate(path: Path, key: ServerKey | None = None) -> None:
    """Bring the file at `path` to the current schema, creating it if needed.

    Migrations run with `secure_delete` on and end with the write-ahead log truncated, so a
    secret one of them replaces by a digest is gone from the file and from its log. `key` is
    the server's key (the one beside `path` when not given), used only if a migration needs
    it."""
    _migrated(path, ServerKey.beside(path) if key is None else key).close()


def _migrated(path: Path, key: ServerKey) -> sqlite3.Connection:
    """`migrate`, returning the connection it migrated with, as `_connect` makes them (with
    `key`'s functions): SQLite parses the whole schema for each connection it opens (3-4 ms
    of CPU for this one), so a `Database` keeps this one as its first thread's."""
    conn = _with_key(_connect(path), key)
    conn.create_function("seal_share_key", 2, key.seal)
    try:
        secure_delete = conn.execute("PRAGMA secure_delete").fetchone()[0]
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA secure_delete = ON")
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise SchemaTooNewError(
                    f"{path}: schema version {version} is newer than this docdeck "
                    f"understands ({SCHEMA_VERSION})"
                )
            for number in range(version, SCHEMA_VERSION):
                for statement in _statements(MIGRATIONS[number]):
                    conn.execute(statement)
                conn.execute(f"PRAGMA user_version = {number + 1}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        if version < SCHEMA_VERSION:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute(f"PRAGMA secure_delete = {int(secure_delete)}")
        conn.create_function("seal_share_key", 2, None)
    except BaseException:
        conn.close()
        raise
    return conn


class _Snapshot:
    """`Database.read()`'s block: a class rather than a generator-based context manager,
    which cost a generator, two `next` calls and their frames on every read request."""

    __slots__ = ("conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def __enter__(self) -> sqlite3.Connection:
        self.conn.execute("BEGIN")
        return self.conn

    def __exit__(self, *_: object) -> None:
        self.conn.execute("COMMIT")


class Database:
    """The sandbox's SQLite file, migrated when opened."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.key = ServerKey.beside(self.path)
        """The server's key (`sandbox.db.key` beside `sandbox.db`): share keys derive from it."""
        first = _migrated(self.path, self.key)
        self._local = threading.local()
        self._write_lock = threading.Lock()
        self._all: list[sqlite3.Connection] = []
        self._all_lock = threading.Lock()
        try:
            self.key.load()  # the file is a sandbox database: its key is read, or made, now
        except BaseException:
            first.close()
            raise
        self._keep(first)

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = self._keep(_with_key(_connect(self.path), self.key))
        return conn

    def _keep(self, conn: sqlite3.Connection) -> sqlite3.Connection:
        """`conn` as this thread's connection, closed with the others by `close()`."""
        self._local.conn = conn
        with self._all_lock:
            self._all.append(conn)
        return conn

    def connection(self) -> sqlite3.Connection:
        """This thread's connection (the one `read()` and `write()` use here)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        return self._conn() if conn is None else conn

    def read(self) -> _Snapshot:
        """A consistent snapshot for several queries (a list and its count agree)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        return _Snapshot(self._conn() if conn is None else conn)

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        conn = self._conn()
        with self._write_lock:
            conn.execute("BEGIN IMMEDIATE")
            try:
                yield conn
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

    def close(self) -> None:
        with self._all_lock:
            for conn in self._all:
                with contextlib.suppress(sqlite3.ProgrammingError):
                    conn.close()
            self._all.clear()
        self._local = threading.local()
