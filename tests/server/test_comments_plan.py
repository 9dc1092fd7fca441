"""A list of comments costs what its page returns: its statement reads the scope's comments
from an index in the list's order (time posted, then rowid), in both orders, with a cursor
and with filters, never sorting all of the scope's comments first (migration 22); and the
users, reactions and replies' counts come with it (in the text each row keeps, migration 24),
not in one statement each.

Checked on the query plans of the statements a request really executes (traced on every
connection), as tests/server/test_members_plan.py does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from docdeck.server.store import db as store_db

from ._support import ADMIN, DemoIds


@pytest.mark.parametrize(
    "params",
    [
        {"limit": "1"},
        {"limit": "1", "order": "asc"},
        {"limit": "1", "status": "open"},
        {"limit": "1", "order": "asc", "status": "resolved"},
    ],
)
@pytest.mark.parametrize("in_change_request", [False, True])
async def test_a_page_of_comments_is_one_statement_reading_an_index_in_order(
    traced: tuple[httpx.ASGITransport, list[str]],
    sandbox_db: Path,
    token_for: Callable[[str], str],
    ids: DemoIds,
    params: dict[str, str],
    in_change_request: bool,
) -> None:
    transport, statements = traced
    headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}
    space = ids.spaces["Public API Reference"]
    path = f"/v1/spaces/{space}" + ("/change-requests/4" if in_change_request else "")
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as c:
        await c.get("/v1/orgs")  # the token is known from here on
        first = await c.get(f"{path}/comments", params=params)
        assert first.status_code == 200, first.text
        page = (first.json().get("next") or {}).get("page")
        statements.clear()
        answer = await c.get(f"{path}/comments", params=params | ({"page": page} if page else {}))
        assert answer.status_code == 200, answer.text
    conn = store_db._connect(sandbox_db)
    try:
        plans = [
            (sql, [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}")])
            for sql in statements
            if sql.lstrip().upper().startswith("SELECT") and "FROM comments c" in sql
        ]
    finally:
        conn.close()
    pages = [(sql, plan) for sql, plan in plans if "ORDER BY" in sql]
    assert len(pages) == 1, statements
    sql, plan = pages[0]
    text = " | ".join(plan)
    assert plan[0].startswith("SEARCH c USING INDEX comments_in_space "), (sql, text)
    assert "TEMP B-TREE" not in text, (sql, text)
    # nothing else reads the page's users, reactions or replies (since migration 24 the
    # page statement does not either: the text each row keeps has them)
    others = [s for s in statements if "users" in s or "comment_re" in s]
    assert set(others) <= {sql}, statements
