"""Repeated GETs answered from the answer cache, and never a stale one (`answer_cache`)."""

from __future__ import annotations

import asyncio
import base64
import json
import sqlite3
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from docdeck.server.http import answer_cache
from docdeck.server.http.answer_cache import AnswerCache

from ._content import _edit
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


# The content reads kept like the others: a space's page tree, a page as markdown, a change
# request's changes. Each is checked as kept, then made afresh after a write through the API,
# after a write by another connection, and not kept when it read the clock.

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\nfake").decode()


async def _new_change_request(admin: httpx.AsyncClient, space: str) -> str:
    made = await admin.post(f"/v1/spaces/{space}/change-requests", json={"subject": "cache"})
    assert made.status_code == 201, made.text
    return f"/v1/spaces/{space}/change-requests/{made.json()['id']}"


async def _author(admin: httpx.AsyncClient, cr: str, *changes: dict[str, Any]) -> None:
    response = await admin.post(f"{cr}/content", json={"changes": list(changes)})
    assert response.status_code == 200, response.text


def _an_emoji(ids: DemoIds) -> dict[str, Any]:
    return {"operation": "update_page", "page": ids.content["page"], "emoji": "🔧"}


def _content_reads(ids: DemoIds, cr: str) -> dict[str, str]:
    space = f"/v1/spaces/{ids.spaces['Webhooks Guide']}"
    return {
        "pages": f"{space}/content/pages",
        "markdown": f"{space}/content/page/{ids.content['page']}?format=markdown",
        "changes": f"{cr}/changes",
    }


async def test_the_content_reads_are_kept(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_app: FastAPI, statements: list[str]
) -> None:
    cr = await _new_change_request(admin, ids.spaces["Webhooks Guide"])
    await _author(admin, cr, _an_emoji(ids))
    for name, path in _content_reads(ids, cr).items():
        first = await admin.get(path)
        assert first.status_code == 200, (name, first.text)
        statements.clear()
        again = await admin.get(path)
        assert statements == ["PRAGMA data_version"], name
        assert (again.content, again.headers.raw) == (first.content, first.headers.raw), name
    assert len(cache_of(sandbox_app)) == 3


async def test_a_content_write_through_the_api_is_seen_by_the_next_get(
    admin: httpx.AsyncClient, ids: DemoIds
) -> None:
    cr = await _new_change_request(admin, ids.spaces["Webhooks Guide"])
    reads = _content_reads(ids, cr)
    before = {name: (await admin.get(path)).json() for name, path in reads.items()}
    assert before["changes"]["changes"] == []
    await _author(
        admin,
        cr,
        {
            "operation": "update_page",
            "page": ids.content["page"],
            "title": "Setting up",
            "document": {"markdown": "# Setting up\n\nNew text.\n"},
        },
    )
    changed = (await admin.get(reads["changes"])).json()["changes"]
    assert [c["page"]["title"] for c in changed] == ["Setting up"]
    merged = await admin.post(f"{cr}/merge")
    assert merged.status_code == 200, merged.text
    assert (await admin.get(reads["markdown"])).json()["markdown"] == "# Setting up\n\nNew text.\n"
    pages = (await admin.get(reads["pages"])).json()["pages"]
    assert "Setting up" in json.dumps(pages) and pages != before["pages"]["pages"]


async def test_a_content_write_by_another_connection_is_seen_by_the_next_get(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    space = ids.spaces["Webhooks Guide"]
    cr = await _new_change_request(admin, space)
    await _author(admin, cr, _an_emoji(ids))
    reads = _content_reads(ids, cr)
    before = {name: (await admin.get(path)).json() for name, path in reads.items()}
    assert len(before["changes"]["changes"]) == 1

    def rename(draft: Any) -> None:
        draft.rename(ids.content["page"], "Renamed elsewhere")
        draft.set_markdown(ids.content["page"], "Elsewhere.\n")

    _edit(sandbox_db, space, rename)  # a new current revision, committed on its own connection
    other = sqlite3.connect(sandbox_db)
    with other:
        other.execute(
            "UPDATE change_requests SET revision_id = revision_initial WHERE id = ?",
            (cr.rsplit("/", 1)[1],),
        )
    other.close()
    assert (await admin.get(reads["changes"])).json()["changes"] == []
    assert (await admin.get(reads["markdown"])).json()["markdown"] == "Elsewhere.\n"
    assert "Renamed elsewhere" in (await admin.get(reads["pages"])).text


async def test_a_connection_first_used_after_a_write_does_not_serve_an_older_answer(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_app: FastAPI, sandbox_db: Path
) -> None:
    """Each thread reads on its own connection, whose `data_version` and `total_changes`
    start afresh: two connections can show the same two numbers across a commit, so the stamp
    names the connection too."""
    path = _content_reads(ids, "")["markdown"]
    headers = dict(admin.headers)

    def get_in_a_new_thread() -> str:
        async def get() -> str:
            transport = httpx.ASGITransport(app=sandbox_app)
            async with httpx.AsyncClient(
                transport=transport, base_url="http://sandbox.test", headers=headers
            ) as client:
                answer = await client.get(path)
                assert answer.status_code == 200, answer.text
                return str(answer.json()["markdown"])

        return asyncio.run(get())

    assert (await admin.get("/v1/orgs")).status_code == 200  # the lane is built
    with ThreadPoolExecutor(1) as first:
        before = first.submit(get_in_a_new_thread).result()

    def rewrite(draft: Any) -> None:
        draft.set_markdown(ids.content["page"], "Written meanwhile.\n")

    _edit(sandbox_db, ids.spaces["Webhooks Guide"], rewrite)
    with ThreadPoolExecutor(1) as second:
        after = second.submit(get_in_a_new_thread).result()
    assert before != after == "Written meanwhile.\n"


async def test_changes_that_read_the_clock_are_made_afresh(
    admin: httpx.AsyncClient, ids: DemoIds, clock: Any, statements: list[str]
) -> None:
    """A change request's changes that list a file carry its download link, which expires."""
    cr = await _new_change_request(admin, ids.spaces["Webhooks Guide"])
    picture = {"name": "flow.png", "ref": "flow", "contentType": "image/png", "base64": PNG}
    await _author(admin, cr, {"operation": "insert_files", "files": [picture]})
    path = f"{cr}/changes"
    first = (await admin.get(path)).json()["changes"][0]["file"]["downloadURL"]
    clock.advance(timedelta(minutes=30))
    statements.clear()
    later = (await admin.get(path)).json()["changes"][0]["file"]["downloadURL"]
    assert len(statements) > 1
    assert later != first
