"""Per-app state and the per-request context every handler receives (caller, clock, base URL)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from fastapi import Request
from starlette.concurrency import run_in_threadpool
from starlette.types import Scope

from docdeck.server.errors import unauthorized
from docdeck.server.http.auth import Caller, caller_for_token, hash_token
from docdeck.server.ids import from_db, to_db
from docdeck.server.store import Database

RETENTION = timedelta(days=7)
"""Deleted spaces can be restored for this long, then they are removed for good."""


class Purger:
    """Removes spaces deleted more than RETENTION ago, lazily: only when one is due.

    Reads never depend on it (they filter by the same window), so a missed purge can only
    leave rows on disk a little longer, never show them. Deletions made by another process on
    the same file are noticed by a full check every RECHECK_SECONDS.
    """

    RECHECK_SECONDS = 600.0

    def __init__(self, db: Database, clock: Callable[[], datetime]) -> None:
        self._db = db
        self._clock = clock
        self._lock = threading.Lock()
        self._due: datetime | None = None
        self._checked_at = 0.0
        self.purge()

    def purge(self) -> int:
        with self._lock, self._db.write() as conn:
            cutoff = to_db(self._clock() - RETENTION)
            removed = 0
            if conn.execute(
                "SELECT 1 FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at <= ? LIMIT 1",
                (cutoff,),
            ).fetchone():
                # Imported only when needed: the search module brings the markdown parser,
                # which the server's start (where the first purge runs) does not need.
                from docdeck.server.search import index as search

                # The search index is a virtual table (no foreign key): its rows go first.
                search.forget_sections(
                    conn,
                    "space_id IN (SELECT id FROM spaces"
                    " WHERE deleted_at IS NOT NULL AND deleted_at <= ?)",
                    (cutoff,),
                )
                removed = conn.execute(
                    "DELETE FROM spaces WHERE deleted_at IS NOT NULL AND deleted_at <= ?",
                    (cutoff,),
                ).rowcount
            if removed:  # objects no remaining space holds (shared ones stay)
                conn.execute(
                    "DELETE FROM objects WHERE hash NOT IN (SELECT hash FROM space_objects)"
                    " AND hash NOT IN (SELECT object_hash FROM revision_entries"
                    " WHERE object_hash IS NOT NULL)"
                )
            row = conn.execute("SELECT MIN(deleted_at) FROM spaces").fetchone()
            self._due = None if row[0] is None else from_db(row[0]) + RETENTION
            self._checked_at = time.monotonic()
            return int(removed)

    def note_deleted(self, deleted_at: datetime) -> None:
        due = deleted_at + RETENTION
        with self._lock:
            if self._due is None or due < self._due:
                self._due = due

    def is_due(self) -> bool:
        due = self._due
        stale = time.monotonic() - self._checked_at > self.RECHECK_SECONDS
        return stale or (due is not None and self._clock() >= due)


MAX_KNOWN_HEADERS = 10_000
"""`Authorization` values remembered at once (each names a token that exists); the table is
emptied when full, so variants of a header (spacing, the scheme's case) cannot grow it."""


@dataclass
class Sandbox:
    db: Database
    clock: Callable[[], datetime]
    purger: Purger
    public_url: str
    _callers: dict[str, Caller] = field(default_factory=dict)
    by_header: dict[bytes, Caller] = field(default_factory=dict)
    """The caller of an `Authorization` header value already seen, as sent: a request that
    repeats one (almost every request) is authenticated by one lookup, without decoding,
    parsing or hashing. Tokens are never revoked, so a remembered one stays right."""

    def known_caller(self, token: str) -> Caller | None:
        return self._callers.get(hash_token(token))

    def remember(self, header: bytes, caller: Caller) -> None:
        if len(self.by_header) >= MAX_KNOWN_HEADERS:
            self.by_header.clear()
        self.by_header[header] = caller

    def caller(self, token: str) -> Caller | None:
        key = hash_token(token)
        known = self._callers.get(key)
        if known is not None:
            return known
        with self.db.read() as conn:
            found = caller_for_token(conn, token)
        if found is not None:
            self._callers[key] = found
        return found


@dataclass(frozen=True)
class Ctx:
    """What a handler needs about the request: who calls, the store, the time, where we are."""

    sandbox: Sandbox
    caller: Caller

    @property
    def base_url(self) -> str:
        """The configured public URL (`docdeck serve --public-url`), never the Host header."""
        return self.sandbox.public_url

    @property
    def db(self) -> Database:
        return self.sandbox.db

    def now(self) -> datetime:
        return self.sandbox.clock()

    def url(self, path: str) -> str:
        return f"{self.sandbox.public_url}{path}"


def authorization_header(scope: Scope) -> bytes | None:
    """The first `Authorization` header as sent (ASGI servers give names in lower case), as
    `request.headers.get` would pick it, without building the headers object."""
    for name, value in scope["headers"]:
        if name == b"authorization":
            return bytes(value)
    return None


async def authenticate(request: Request, sandbox: Sandbox | None = None) -> Caller:
    """The caller named by the bearer token; 401 when it is missing or unknown. `sandbox` is
    the app's (`request.app.state.sandbox`) when the caller has it at hand."""
    if sandbox is None:
        sandbox = request.app.state.sandbox
    raw = authorization_header(request.scope)
    if raw is not None:
        known = sandbox.by_header.get(raw)
        if known is not None:
            return known
    header = None if raw is None else raw.decode("latin-1")
    if not header:
        raise unauthorized("missing Authorization header; send 'Authorization: Bearer <token>'")
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise unauthorized("the Authorization header must be 'Bearer <token>'")
    caller = sandbox.known_caller(token) or await run_in_threadpool(sandbox.caller, token)
    if caller is None:
        raise unauthorized("unknown API token; mint one with `docdeck token create`")
    assert raw is not None
    sandbox.remember(raw, caller)
    return caller


async def get_ctx(request: Request) -> Ctx:
    """FastAPI dependency: authenticates the bearer token (401 otherwise).

    Async so that the common case (a token seen before, no purge due) costs no thread hop;
    the database is only touched, in a worker thread, for a new token or a due purge.
    """
    # The app's state read once (a Starlette `State` attribute is a `__getattr__` call).
    sandbox: Sandbox = request.scope["app"].state.sandbox
    caller = await authenticate(request, sandbox)
    if sandbox.purger.is_due():
        await run_in_threadpool(sandbox.purger.purge)
    return Ctx(sandbox, caller)
