"""Fixtures for the server tests: an HTTP client per demo user and the demo's ids by name."""

from __future__ import annotations

import socket
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from docdeck.server import create_app
from docdeck.server.store import db as store_db

from ._support import ADMIN, Api, DemoIds


def _guide_content(conn: sqlite3.Connection) -> dict[str, str]:
    from docdeck.server.content.snapshots import load_snapshot
    from docdeck.server.content.tree import tree_of

    conn.row_factory = sqlite3.Row
    (current,) = conn.execute(
        "SELECT revision_id FROM spaces WHERE title = 'Webhooks Guide'"
    ).fetchone()
    snapshot = load_snapshot(conn, current)
    page = next(i for i, e in snapshot.pages.items() if e["title"] == "Setup")
    conn.row_factory = None
    return {
        "page": page,
        "file": next(iter(snapshot.files)),
        "revision": snapshot.info.parents[0],
        "current": current,
        "document": snapshot.pages[page]["body"],
        "pagePath": tree_of(snapshot).paths[page],
    }


def _demo_threads(conn: sqlite3.Connection) -> dict[str, str]:
    def first(sql: str) -> str:
        return str(conn.execute(sql).fetchone()[0])

    space = "(SELECT id FROM spaces WHERE title = 'Webhooks Guide')"
    comment = first(
        f"SELECT id FROM comments WHERE space_id = {space} AND node_id IS NOT NULL"
        " AND change_request_id IS NULL"
    )
    cr_comment = first(
        f"SELECT id FROM comments WHERE space_id = {space} AND change_request_id IS NOT NULL"
    )
    reply = "SELECT id FROM comment_replies WHERE comment_id = '{}' ORDER BY posted_at LIMIT 1"
    return {
        "comment": comment,
        "reply": first(reply.format(comment)),
        "crComment": cr_comment,
        "crReply": first(reply.format(cr_comment)),
    }


@pytest.fixture
def ids(sandbox_db: Path) -> DemoIds:
    conn = sqlite3.connect(sandbox_db)
    try:

        def table(sql: str) -> dict[str, str]:
            return {key: value for key, value in conn.execute(sql)}

        return DemoIds(
            orgs=table("SELECT title, id FROM organizations"),
            users=table("SELECT email, id FROM users"),
            # in the order the demo made them (tests take the first that has something): the
            # index spaces_wire also holds both columns, and SQLite may read them from it
            spaces=table("SELECT title, id FROM spaces ORDER BY rowid"),
            collections=table("SELECT title, id FROM collections"),
            teams=table("SELECT title, id FROM teams"),
            content=_guide_content(conn),
            sites=table("SELECT title, id FROM sites"),
            site_spaces=table("SELECT path, id FROM site_spaces"),
            comments=_demo_threads(conn),
        )
    finally:
        conn.close()


@pytest.fixture
async def api(sandbox_app: FastAPI, token_for: Callable[[str], str]) -> AsyncIterator[Api]:
    """`api(email)` is an HTTP client authenticated as that demo user; `api(None)` has no token."""
    clients: list[httpx.AsyncClient] = []

    def make(email: str | None) -> httpx.AsyncClient:
        headers = {} if email is None else {"Authorization": f"Bearer {token_for(email)}"}
        client = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=sandbox_app),
            base_url="http://sandbox.test",
            headers=headers,
        )
        clients.append(client)
        return client

    yield make
    for client in clients:
        await client.aclose()


@pytest.fixture
def admin(api: Api) -> httpx.AsyncClient:
    return api(ADMIN)


@pytest.fixture
def loopback(sandbox_db: Path) -> Iterator[str]:
    """The sandbox served by uvicorn on a free 127.0.0.1 port, in a background thread."""
    sock = socket.create_server(("127.0.0.1", 0))
    base_url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    config = uvicorn.Config(create_app(sandbox_db, public_url=base_url), log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        threading.Event().wait(0.01)
    assert server.started, "uvicorn did not start"
    try:
        yield base_url
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture
def traced(
    sandbox_db: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[httpx.ASGITransport, list[str]]:
    """A transport into the sandbox's app on `sandbox_db` with the answer cache off (so a
    repeated GET runs its route's own statements), and the list every SQL statement run on
    its connections is appended to."""
    statements: list[str] = []
    connect: Callable[[Path], sqlite3.Connection] = store_db._connect

    def tracing_connect(path: Path) -> sqlite3.Connection:
        conn = connect(path)
        conn.set_trace_callback(statements.append)
        return conn

    monkeypatch.setattr(store_db, "_connect", tracing_connect)
    return httpx.ASGITransport(app=create_app(sandbox_db, answer_cache=False)), statements
