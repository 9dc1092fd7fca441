"""Processing a spec in the background: fetch (or take) its text, parse and validate it, and
store a new version when the text changed.

A run is bounded in time and size (`SpecLimits`), fetches with the content importer's address
rules (`fetch_spec`), and never blocks a request: the route answers with
`processingState: pending` and a daemon thread does the rest, `progress` while it runs and
`complete` when done, with `lastProcessErrorCode` (`FETCH_TIMEOUT`, `FETCH_ERROR`,
`PARSE_ERROR`) when it failed. Each submission bumps the spec's `run`; a run whose number is
no longer the spec's (the source was replaced, the spec deleted) writes nothing.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from docdeck.server.ids import new_id, to_db
from docdeck.server.openapi_specs.documents import MAX_NODES, DocumentError, parse, validate
from docdeck.server.openapi_specs.wire import SELF_SOURCE
from docdeck.server.outbound import FetchError, fetch_blocking
from docdeck.server.store import Database

log = logging.getLogger(__name__)

RUNS_AT_ONCE = threading.BoundedSemaphore(2)
"""Specs processed at the same time, whatever the number submitted."""


@dataclass(frozen=True)
class SpecLimits:
    """`create_app` keeps the default; tests set `app.state.openapi_spec_limits` to shorter
    times (a spec URL that never answers must fail within seconds there)."""

    max_bytes: int = 5_000_000
    timeout: float = 5.0
    """Seconds per connection and per read."""
    deadline: float = 30.0
    """Seconds for the whole fetch, redirects included."""
    max_nodes: int = MAX_NODES


class SpecFetchError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def fetch_spec(url: str, allow_loopback: bool, limits: SpecLimits) -> tuple[str, str]:
    """(final URL, text) of a spec URL, through the sandbox's outbound pool
    (`docdeck.server.outbound`): the same address rules as a content import (only global
    addresses, each redirect checked) and the limits given, on threads no request needs."""
    try:
        fetched = fetch_blocking(
            url,
            deadline=limits.deadline,
            max_bytes=limits.max_bytes,
            allow_loopback=allow_loopback,
            timeout=limits.timeout,
        )
    except FetchError as error:
        message = str(error)
        timed_out = any(
            words in message for words in ("did not answer within", "took too long", "took longer")
        )
        raise SpecFetchError("FETCH_TIMEOUT" if timed_out else "FETCH_ERROR", message) from None
    try:
        return fetched.url, fetched.body.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SpecFetchError("PARSE_ERROR", f"{fetched.url} is not UTF-8 text") from None


def sandbox_document_text() -> str:
    """The sandbox's own `/openapi.json`, built from its routers without serving it (the
    demo's spec "served by the sandbox itself" is read this way, never over loopback, so the
    address rules stay as they are)."""
    from fastapi.openapi.utils import get_openapi

    from docdeck.server.http.deferred_routes import router_routes
    from docdeck.server.http.openapi import honest_document
    from docdeck.server.named_modules import FIRST_ROUTERS, LATER_ROUTERS

    routes = router_routes((*FIRST_ROUTERS, *LATER_ROUTERS))
    document = get_openapi(
        title="docdeck sandbox",
        version="0.1.0",
        description="A local implementation of the documentation platform's v1 API.",
        routes=routes,
    )
    return json.dumps(honest_document(document), separators=(",", ":"))


@dataclass(frozen=True)
class Job:
    db: Database
    clock: Callable[[], datetime]
    spec_id: str
    run: int
    allow_loopback: bool
    limits: SpecLimits


def text_version(
    conn: sqlite3.Connection,
    spec_id: str,
    url: str | None,
    text: str,
    document: dict[str, object],
    now: datetime,
) -> str | None:
    """Stores `text` as the spec's newest version unless the newest already holds it;
    returns the newest version's id. `url` is where it was fetched; None (stored as '') for
    a text the sandbox serves itself (`wire.version_url`)."""
    digest = hashlib.sha256(text.encode()).hexdigest()
    last = conn.execute(
        "SELECT id, seq, text_hash FROM openapi_spec_versions WHERE spec_id = ?"
        " ORDER BY seq DESC LIMIT 1",
        (spec_id,),
    ).fetchone()
    if last is not None and last["text_hash"] == digest:
        return str(last["id"])
    version_id = new_id()
    conn.execute(
        "INSERT INTO openapi_spec_versions (id, spec_id, seq, created_at, url, text_hash, text,"
        " document) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (
            version_id,
            spec_id,
            1 if last is None else last["seq"] + 1,
            to_db(now),
            url or "",
            digest,
            text,
            json.dumps(document, separators=(",", ":")),
        ),
    )
    return version_id


def _source_text(job: Job, row: sqlite3.Row) -> tuple[str | None, str]:
    if row["source_self"] == SELF_SOURCE:
        return None, sandbox_document_text()
    if row["source_text"] is not None:
        return None, str(row["source_text"])
    return fetch_spec(str(row["source_url"]), job.allow_loopback, job.limits)


def _finish(
    job: Job,
    code: str | None,
    message: str | None,
    text: tuple[str | None, str] | None,
    document: dict[str, object] | None,
) -> None:
    with job.db.write() as conn:
        row = conn.execute("SELECT run FROM openapi_specs WHERE id = ?", (job.spec_id,)).fetchone()
        if row is None or row["run"] != job.run:
            return
        now = job.clock()
        stamp = to_db(now)
        if code is None:
            assert text is not None and document is not None
            version_id = text_version(conn, job.spec_id, text[0], text[1], document, now)
            conn.execute(
                "UPDATE openapi_specs SET processing_state = 'complete', last_version_id = ?,"
                " last_processed_at = ?, last_error_code = NULL, last_error = NULL,"
                " updated_at = ? WHERE id = ?",
                (version_id, stamp, stamp, job.spec_id),
            )
        else:
            conn.execute(
                "UPDATE openapi_specs SET processing_state = 'complete', last_processed_at = ?,"
                " last_error_code = ?, last_error = ?, updated_at = ? WHERE id = ?",
                (stamp, code, message, stamp, job.spec_id),
            )


def process(job: Job) -> None:
    """One run, start to end (the thread's body; tests may call it directly)."""
    with job.db.write() as conn:
        row = conn.execute("SELECT * FROM openapi_specs WHERE id = ?", (job.spec_id,)).fetchone()
        if row is None or row["run"] != job.run:
            return
        conn.execute(
            "UPDATE openapi_specs SET processing_state = 'progress' WHERE id = ?", (job.spec_id,)
        )
    try:
        text = _source_text(job, row)
        document = parse(text[1], job.limits.max_nodes)
        if row["source_self"] != SELF_SOURCE:  # the sandbox's own: checked by its tests
            validate(document)
    except SpecFetchError as error:
        _finish(job, error.code, str(error), None, None)
    except DocumentError as error:
        _finish(job, "PARSE_ERROR", str(error), None, None)
    else:
        _finish(job, None, None, text, document)


def _run(job: Job) -> None:
    with RUNS_AT_ONCE:
        try:
            process(job)
        except sqlite3.ProgrammingError:
            pass  # the database was closed under the run (the server stopped)
        except Exception:
            log.exception("processing OpenAPI spec %s failed", job.spec_id)
            try:
                _finish(job, "PARSE_ERROR", "the sandbox failed to process the spec", None, None)
            except Exception:
                log.exception("could not record the failure of spec %s", job.spec_id)


_STARTED: set[tuple[str, str, int]] = set()
_STARTED_LOCK = threading.Lock()


def start(job: Job) -> bool:
    """Starts the run unless this process already started it; says whether it did. A read
    of a spec still `pending` or in `progress` calls this too, so a run lost with a stopped
    server (or the demo's spec of the sandbox itself, left for the server) happens then."""
    key = (str(job.db.path), job.spec_id, job.run)
    with _STARTED_LOCK:
        if key in _STARTED:
            return False
        _STARTED.add(key)
    threading.Thread(
        target=_run, args=(job,), name=f"openapi-spec-{job.spec_id}", daemon=True
    ).start()
    return True
