"""The members list costs what its page returns: every statement it runs reads an index in
the list's order (no sort of the whole organization), and a page reads nothing per member
beyond that index's entry (its user's shown columns are kept on the member row); a search
looks each member's user up by id, never a count or a scan over the organization.

Checked on the query plans of the statements a request really executes (traced on every
connection), not on timings: with 10,000 members and 1,000 spaces a per-member recount of
the organization's spaces made a 100-row page take 125 ms (bench/members.py measures it)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from docdeck.server import create_app
from docdeck.server.store import db as store_db

from ._support import ADMIN, DemoIds


def _plans(db: Path, statements: list[str]) -> list[tuple[str, list[str]]]:
    conn = store_db._connect(db)
    try:
        return [
            (sql, [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}")])
            for sql in statements
            if sql.lstrip().upper().startswith(("SELECT", "WITH"))
        ]
    finally:
        conn.close()


_EVERY_LIST = [
    {"sort": sort, "order": order, "limit": "2"} | ({"role": role} if role else {})
    for sort in ("joinedAt", "lastSeenAt")
    for order in ("desc", "asc")
    for role in (None, "guest", "admin")
]


@pytest.mark.parametrize(
    "params",
    [{}, {"sort": "lastSeenAt", "search": "northwind", "limit": "2"}, *_EVERY_LIST],
)
async def test_every_members_page_reads_an_index_in_order_with_no_per_member_subquery(
    traced: tuple[httpx.ASGITransport, list[str]],
    sandbox_db: Path,
    token_for: Callable[[str], str],
    ids: DemoIds,
    params: dict[str, str],
) -> None:
    transport, statements = traced
    headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as c:
        await c.get("/v1/orgs")  # the token is known from here on
        path = f"/v1/orgs/{ids.northwind}/members"
        first = await c.get(path, params=params)
        assert first.status_code == 200, first.text
        statements.clear()
        page = (first.json().get("next") or {}).get("page")
        answer = await c.get(path, params=params | ({"page": page} if page else {}))
        assert answer.status_code == 200, answer.text
    plans = _plans(sandbox_db, statements)
    assert any("FROM members m" in sql and "ORDER BY" in sql for sql, _ in plans), statements
    for sql, plan in plans:
        text = " | ".join(plan)
        assert "TEMP B-TREE FOR ORDER BY" not in text, (sql, text)
        assert not any(line.startswith("SCAN m") for line in plan), (sql, text)
        if "FROM members m" in sql and "ORDER BY" in sql:
            # the page: never a range of the organization's rows beyond its own
            assert not any(line.startswith("SCAN") for line in plan), (sql, text)
            # the sort order's index holds every column a row shows, the user's email, name
            # and photo too (kept on the member row, migration 20): no lookup into the table
            column = "last_seen" if params.get("sort") == "lastSeenAt" else "joined"
            index = f"members_by_role_{column}" if "role" in params else f"members_by_{column}"
            assert plan[0].startswith(f"SEARCH m USING COVERING INDEX {index} "), (sql, text)
            if "search" in params:
                # a search filters on the user's folded name and email: one lookup of each
                # member's user by id, in the index that holds them
                users = "SEARCH u USING COVERING INDEX users_for_members (id=?) LEFT-JOIN"
                assert plan[1:] == [users], (sql, text)
            else:
                # nothing read per member beyond its index entry: looking each member's user
                # up was about half of a 1,000-row page's SQL (bench/members.py)
                assert len(plan) == 1, (sql, text)
        if "COUNT(*) FROM members m" in sql and "search" not in params:
            # a count reads the members alone (a search's filters on their users too)
            assert len(plan) == 1 and "COVERING INDEX" in plan[0], (sql, text)


async def test_search_folds_ascii_names_in_sql_and_calls_casefold_for_the_rest_only(
    sandbox_db: Path,
    token_for: Callable[[str], str],
    ids: DemoIds,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search reads the folded name and email the store keeps (SQLite's lower() is exactly
    casefold() on ASCII): `casefold` is called into Python only for non-ASCII text, so a
    search of 10,000 members no longer makes 20,000 calls. A user written by a connection
    without the `casefold` function (plain sqlite3) is folded too, by the store's triggers,
    and non-ASCII text still matches by casefold (ß is ss)."""
    raw = sqlite3.connect(sandbox_db)
    with raw:
        raw.execute(
            "INSERT INTO users (id, email, display_name) VALUES"
            " ('u-weiss', 'JW@Example.ORG', 'Jürgen Weiß'), ('u-ascii', 'Zed@X.dev', 'ZED Q')"
        )
        raw.executemany(
            "INSERT INTO members (organization_id, user_id, role, joined_at)"
            " VALUES (?, ?, 'read', '2024-01-01T00:00:00.000000Z')",
            [(ids.northwind, "u-weiss"), (ids.northwind, "u-ascii")],
        )
    folded = raw.execute(
        "SELECT id, folded_name, folded_email FROM users WHERE id IN ('u-weiss', 'u-ascii')"
        " ORDER BY id"
    ).fetchall()
    raw.close()
    assert folded == [("u-ascii", "zed q", "zed@x.dev"), ("u-weiss", None, "jw@example.org")]

    folded_in_python: list[str] = []
    casefold = store_db._casefold

    def counting_casefold(value: object) -> str | None:
        folded_in_python.append(str(value))
        return casefold(value)

    monkeypatch.setattr(store_db, "_casefold", counting_casefold)
    transport = httpx.ASGITransport(app=create_app(sandbox_db, answer_cache=False))
    headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as c:
        path = f"/v1/orgs/{ids.northwind}/members"

        async def found(search: str) -> set[str]:
            answer = await c.get(path, params={"search": search, "limit": 1000})
            assert answer.status_code == 200, answer.text
            return {m["id"] for m in answer.json()["items"]}

        assert await found("WEISS") == {"u-weiss"}
        assert await found("jw@example.org") == {"u-weiss"}
        assert await found("zed q") == {"u-ascii"}
        assert await found("nobody at all") == set()
    assert folded_in_python, "the demo's non-ASCII names are folded in Python"
    assert all(not text.isascii() for text in folded_in_python), folded_in_python


def test_kept_counts_are_recounted_from_the_members_grants_and_teams_by_index(
    sandbox_db: Path,
) -> None:
    """The triggers' recount of `granted_spaces` (migration 15) reads the member's grants and
    their teams' grants, then each granted space by its id: not every live space of the
    organization, which would make a grant in a 1,000-space organization read 1,000 rows."""
    from docdeck.server.store.schema import _GRANTED_SPACES, _TEAM_COUNT

    conn = store_db._connect(sandbox_db)
    try:
        plan = [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {_GRANTED_SPACES}")]
        teams = [row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {_TEAM_COUNT}")]
    finally:
        conn.close()
    assert teams[1:] == [
        "CORRELATED SCALAR SUBQUERY 1",
        "SEARCH mt USING COVERING INDEX team_members_by_user (user_id=?)",
        "SEARCH t USING INDEX sqlite_autoindex_teams_1 (id=?)",
    ], teams
    text = " | ".join(plan)
    assert "SEARCH s USING INDEX sqlite_autoindex_spaces_1 (id=?)" in plan, text
    assert not any(line.startswith("SCAN") for line in plan[1:]), text
    assert "SEARCH g USING INDEX space_grants_by_user (user_id=?)" in plan, text
    assert "SEARCH g USING INDEX space_grants_by_team (team_id=?)" in plan, text


async def test_a_members_page_runs_one_statement_besides_its_page(
    traced: tuple[httpx.ASGITransport, list[str]],
    token_for: Callable[[str], str],
    ids: DemoIds,
) -> None:
    """The caller's membership, the organization's live spaces, its kept member count and
    the cursors' secret come in one statement; then the page, in one snapshot (a statement
    of its own for the secret cost about 15 us of a page of 50's 280 us)."""
    transport, statements = traced
    headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}
    path = f"/v1/orgs/{ids.northwind}/members"
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as c:
        await c.get("/v1/orgs")  # the token is known from here on
        for params, reads in (({}, 2), ({"limit": "1"}, 2)):
            statements.clear()
            answer = await c.get(path, params=params)
            assert answer.status_code == 200, answer.text
            assert statements[0] == "BEGIN" and statements[-1] == "COMMIT", statements
            assert len(statements) - 2 == reads, statements
            if "limit" in params:
                assert answer.json()["next"], answer.text
