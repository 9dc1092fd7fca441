"""A page read afresh (`GET {S}/content/page/{id}?format=markdown`) runs the space (with the
caller's membership and the revision's space) in one statement, then the body: the revision's
row is not read, or parsed, again once its snapshot is in memory."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from docdeck.server import create_app

from ._support import ADMIN, READER, DemoIds


@pytest.mark.parametrize("email", [ADMIN, READER])
async def test_a_page_as_markdown_runs_two_statements(
    traced: tuple[httpx.ASGITransport, list[str]],
    token_for: Callable[[str], str],
    ids: DemoIds,
    email: str,
) -> None:
    transport, statements = traced
    headers = {"Authorization": f"Bearer {token_for(email)}"}
    space = ids.spaces["Webhooks Guide"]
    path = f"/v1/spaces/{space}/content/page/{ids.content['page']}?format=markdown"
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as c:
        first = await c.get(path)  # the token and the snapshot are known from here on
        statements.clear()
        answer = await c.get(path)
    assert answer.status_code == 200, answer.text
    assert answer.content == first.content
    assert answer.json()["markdown"]
    assert statements[0] == "BEGIN" and statements[-1] == "COMMIT", statements
    reads = [s for s in statements[1:-1] if "space_grants" not in s]  # a non-admin's grants
    assert len(reads) == 2, statements
    assert "LEFT JOIN revisions r" in reads[0] and "FROM objects" in reads[1], statements


async def test_a_revision_of_another_space_is_not_found(
    sandbox_db: Path, token_for: Callable[[str], str], ids: DemoIds
) -> None:
    conn = sqlite3.connect(sandbox_db)
    (other,) = conn.execute(
        "SELECT revision_id FROM spaces WHERE title = 'Public API Reference'"
    ).fetchone()
    conn.close()
    transport = httpx.ASGITransport(app=create_app(sandbox_db, answer_cache=False))
    headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}
    space = ids.spaces["Webhooks Guide"]
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as c:
        answer = await c.get(f"/v1/spaces/{space}/revisions/{other}/page/x?format=markdown")
    assert answer.status_code == 404, answer.text
    assert answer.json()["error"]["message"] == (f"revision {other!r} not found in space {space!r}")
