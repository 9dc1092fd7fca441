"""Repeated GETs answered from the answer cache, and never a stale one (`answer_cache`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from docdeck.server.http import answer_cache
from docdeck.server.http.answer_cache import AnswerCache

from ._support import ADMIN, GUEST, LUMEN_ADMIN, Api, DemoIds


@pytest.fixture
def statements(sandbox_app: FastAPI) -> Iterator[list[str]]:
    """The SQL run on the connection the routes read with (the test's own thread: the ASGI
    transport runs the app on it)."""
    seen: list[str] = []
    conn = sandbox_app.state.sandbox.db.connection()
    conn.set_trace_callback(seen.append)
    yield seen
    conn.set_trace_callback(None)


def cache_of(app: FastAPI) -> AnswerCache:
    cache = app.state.fast_lane.cache
    assert isinstance(cache, AnswerCache)
    return cache


async def test_a_repeated_get_runs_no_route_only_the_stamp(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_app: FastAPI, statements: list[str]
) -> None:
    path = f"/v1/orgs/{ids.northwind}/spaces"
    first = await admin.get(path)
    assert first.status_code == 200
    statements.clear()
    again = await admin.get(path)
    assert statements == ["PRAGMA data_version"]
    assert again.status_code == 200
    assert again.content == first.content
    assert again.headers.raw == first.headers.raw
    assert len(cache_of(sandbox_app)) == 1


async def test_a_write_through_the_api_is_seen_by_the_next_get(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    space = ids.spaces["Public API Reference"]
    assert (await admin.get(f"/v1/spaces/{space}")).json()["title"] == "Public API Reference"
    patched = await admin.patch(f"/v1/spaces/{space}", json={"title": "Renamed"})
    assert patched.status_code == 200
    assert (await admin.get(f"/v1/spaces/{space}")).json()["title"] == "Renamed"
    listed = (await admin.get(f"/v1/orgs/{ids.northwind}/spaces")).json()["items"]
    assert "Renamed" in [s["title"] for s in listed]


async def test_a_write_by_another_process_is_seen_by_the_next_get(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    space = ids.spaces["Public API Reference"]
    assert (await admin.get(f"/v1/spaces/{space}")).json()["title"] == "Public API Reference"
    other = sqlite3.connect(sandbox_db)  # as another process writing the same file would
    with other:
        other.execute("UPDATE spaces SET title = 'From elsewhere' WHERE id = ?", (space,))
    other.close()
    assert (await admin.get(f"/v1/spaces/{space}")).json()["title"] == "From elsewhere"


async def test_a_write_on_the_reading_connection_itself_is_seen(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_app: FastAPI
) -> None:
    """`data_version` does not move for a connection's own commits; `total_changes` does."""
    space = ids.spaces["Public API Reference"]
    assert (await admin.get(f"/v1/spaces/{space}")).json()["title"] == "Public API Reference"
    with sandbox_app.state.sandbox.db.write() as conn:  # this thread's connection
        assert conn is sandbox_app.state.sandbox.db.connection()
        conn.execute("UPDATE spaces SET title = 'Same connection' WHERE id = ?", (space,))
    assert (await admin.get(f"/v1/spaces/{space}")).json()["title"] == "Same connection"


async def test_an_answer_that_read_the_clock_is_made_afresh(
    admin: httpx.AsyncClient, ids: DemoIds, clock: Any, statements: list[str]
) -> None:
    """A file's download link expires an hour after it is read: the same GET later must
    give a later expiry, so such an answer is never kept."""
    path = f"/v1/spaces/{ids.spaces['Webhooks Guide']}/content/files"
    first = (await admin.get(path)).json()["items"][0]["downloadURL"]
    clock.advance(timedelta(minutes=30))
    statements.clear()
    later = (await admin.get(path)).json()["items"][0]["downloadURL"]
    assert len(statements) > 1
    assert later != first


async def test_each_caller_has_its_own_answers(api: Api, ids: DemoIds) -> None:
    admin_orgs = (await api(ADMIN).get("/v1/orgs")).json()["items"]
    guest_orgs = (await api(GUEST).get("/v1/orgs")).json()["items"]
    assert {o["id"] for o in guest_orgs} < {o["id"] for o in admin_orgs}
    space = ids.spaces["Public API Reference"]
    assert (await api(ADMIN).get(f"/v1/spaces/{space}")).status_code == 200
    assert (await api(LUMEN_ADMIN).get(f"/v1/spaces/{space}")).status_code == 404
    assert (await api(None).get(f"/v1/spaces/{space}")).status_code == 401


async def test_head_is_answered_from_the_kept_answer_without_a_body(
    admin: httpx.AsyncClient, ids: DemoIds, statements: list[str]
) -> None:
    path = f"/v1/spaces/{ids.spaces['Public API Reference']}"
    got = await admin.get(path)
    statements.clear()
    head = await admin.head(path)
    assert statements == ["PRAGMA data_version"]
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == str(len(got.content))


async def test_errors_are_never_kept(
    admin: httpx.AsyncClient, sandbox_app: FastAPI, statements: list[str]
) -> None:
    for _ in range(2):
        statements.clear()
        assert (await admin.get("/v1/spaces/nope")).status_code == 404
        assert len(statements) > 1
    assert (await admin.get("/v1/orgs", params={"limit": "many"})).status_code == 400
    assert len(cache_of(sandbox_app)) == 0


async def test_kept_answers_are_bounded(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(answer_cache, "MAX_ENTRIES", 2)
    spaces = list(ids.spaces.values())[:3]
    for space in spaces:
        assert (await admin.get(f"/v1/spaces/{space}")).status_code == 200
    assert len(cache_of(sandbox_app)) == 2  # the oldest made room
    monkeypatch.setattr(answer_cache, "MAX_BODY", 10)
    cache_of(sandbox_app).clear()
    assert (await admin.get("/v1/orgs")).status_code == 200
    assert len(cache_of(sandbox_app)) == 0


async def test_an_answer_made_across_a_commit_is_not_served_after_it(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_app: FastAPI, sandbox_db: Path
) -> None:
    """The stamp is read before the route runs: an answer kept under it is dropped as soon as
    a commit that landed while it was being made is seen."""
    assert (await admin.get("/v1/orgs")).status_code == 200  # the lane is built
    cache = cache_of(sandbox_app)
    key = ("/v1/x", b"", b"Bearer t")
    stamp, hit = cache.lookup(key)
    assert hit is None
    other = sqlite3.connect(sandbox_db)
    with other:
        other.execute("UPDATE organizations SET title = title || '!'")
    other.close()
    response = (await admin.get("/v1/orgs")).status_code  # any request: the stamp moves
    assert response == 200
    from docdeck.server.wire import respond

    cache.keep(key, stamp, cache.clock_reads(), respond({"made": "before the commit"}))
    assert cache.lookup(key)[1] is None


def test_the_cache_can_be_turned_off(sandbox_db: Path) -> None:
    from docdeck.server import create_app

    app = create_app(sandbox_db, answer_cache=False)
    app.build_middleware_stack()
    assert app.state.fast_lane.cache is None
