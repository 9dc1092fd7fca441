"""`GET {ST}/structure` reads the site in one statement (structure_read.py) and writes what
`SiteTree`, the reader of every other answer about a site, writes, to the byte: checked for
every demo site and caller, with and without a share key, after writes to the spaces (whose
JSON text the statement reads from the index `spaces_wire`, migration 25) and on a database
made before that index, and on the statements a request runs."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from docdeck.server import create_app
from docdeck.server.errors import ApiError
from docdeck.server.http.context import Ctx
from docdeck.server.sites.common import tree_for
from docdeck.server.sites.structure_read import STATEMENT, structure_text
from docdeck.server.store import db as store_db
from docdeck.server.store.schema import MIGRATIONS
from docdeck.server.wire import encode

from ._support import ADMIN, COMMENTER, EDITOR, GUEST, LUMEN_ADMIN, READER, Api, DemoIds


def _share_keys(sandbox_db: Path) -> list[str]:
    database = store_db.Database(sandbox_db)
    try:
        with database.read() as conn:
            ids = [r[0] for r in conn.execute("SELECT id FROM site_share_links ORDER BY id")]
        return [database.key.share_key(i) for i in ids]
    finally:
        database.close()


def _outcome(read: Callable[..., object], *args: object) -> object:
    try:
        return read(*args)
    except ApiError as error:
        return (error.status, error.message)


def _tree_structure(ctx: Ctx, org_id: str, site_id: str, key: str | None) -> object:
    return encode(tree_for(ctx, org_id, site_id, key)[1].structure())


def _check_every_site_and_key(
    sandbox_db: Path, token_for: Callable[[str], str], ids: DemoIds, email: str
) -> int:
    """Compares the two readers' answers (bytes, or error) for every site and share key;
    the number of sites the caller may read."""
    app = create_app(sandbox_db, answer_cache=False)
    sandbox = app.state.sandbox
    caller = sandbox.caller(token_for(email))
    assert caller is not None
    ctx = Ctx(sandbox, caller)
    conn = sqlite3.connect(sandbox_db)
    sites = conn.execute("SELECT id, organization_id FROM sites").fetchall()
    conn.close()
    keys = [None, *_share_keys(sandbox_db), "", "no such key", "ключ"]
    checked = 0
    for site_id, org_id in [*sites, ("no-such-site", ids.northwind), (sites[0][0], "no-org")]:
        for key in keys:
            where = (ctx, org_id, site_id, key)
            expected = _outcome(_tree_structure, *where)
            assert _outcome(structure_text, *where) == expected
            checked += isinstance(expected, bytes)
    return checked


@pytest.mark.parametrize("email", [ADMIN, EDITOR, COMMENTER, READER, GUEST, LUMEN_ADMIN])
def test_the_structure_is_the_site_trees_for_every_site_and_key(
    sandbox_db: Path, token_for: Callable[[str], str], ids: DemoIds, email: str
) -> None:
    checked = _check_every_site_and_key(sandbox_db, token_for, ids, email)
    assert checked or email in (GUEST, LUMEN_ADMIN)


async def test_the_spaces_text_follows_writes_to_the_spaces(
    sandbox_db: Path, token_for: Callable[[str], str], ids: DemoIds, api: Api
) -> None:
    """SQLite remakes an index's expressions whenever the row is written, whoever writes it:
    here the space's own update, a comment (its count) and a grant, then raw changes to
    every column the text is made of."""
    admin = api(ADMIN)
    guide = ids.spaces["Webhooks Guide"]
    changed = await admin.patch(
        f"/v1/spaces/{guide}",
        json={"title": 'Hooks "ü" \\ 😀', "icon": "https://x.test/i.png"},
    )
    assert changed.status_code == 200, changed.text
    conn = sqlite3.connect(sandbox_db, isolation_level=None)
    try:
        conn.execute(
            "UPDATE spaces SET comments = comments + 3, change_requests_open = 7,"
            " emoji = NULL, deleted_at = '2026-01-02T03:04:05.000000Z',"
            " parent_id = (SELECT id FROM collections LIMIT 1), default_level = NULL,"
            " revision_id = NULL, title = title || char(1) WHERE id != ?",
            (guide,),
        )
        conn.execute("UPDATE space_grants SET role = 'admin'")
    finally:
        conn.close()
    for email in (ADMIN, READER, EDITOR):
        assert _check_every_site_and_key(sandbox_db, token_for, ids, email)


def test_a_database_made_before_the_index_answers_the_same(
    sandbox_db: Path, token_for: Callable[[str], str], ids: DemoIds
) -> None:
    conn = store_db._connect(sandbox_db)
    conn.execute("DROP INDEX spaces_wire")
    made = next(n for n, script in enumerate(MIGRATIONS) if "INDEX spaces_wire" in script)
    conn.execute(f"PRAGMA user_version = {made}")
    conn.close()
    store_db.migrate(sandbox_db)
    conn = store_db._connect(sandbox_db)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
        assert conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'spaces_wire'").fetchone()
    finally:
        conn.close()
    assert _check_every_site_and_key(sandbox_db, token_for, ids, ADMIN)


async def test_the_structure_runs_one_statement_with_no_transaction(
    sandbox_db: Path,
    traced: tuple[httpx.ASGITransport, list[str]],
    token_for: Callable[[str], str],
    ids: DemoIds,
) -> None:
    """Ten statements before (BEGIN, the membership, the site twice, its sections, groups,
    site spaces, spaces, the caller's grants, COMMIT); each arm of the one left reads by an
    index, never a scan."""
    transport, statements = traced
    headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}
    path = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Developer Portal']}/structure"
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as c:
        await c.get("/v1/orgs")  # the token is known from here on
        statements.clear()
        answer = await c.get(path)
    assert answer.status_code == 200, answer.text
    assert answer.json()["type"] == "sections"
    assert len(statements) == 1 and statements[0].startswith("SELECT 0,"), statements
    conn = store_db._connect(sandbox_db)
    try:
        plan = [r[3] for r in conn.execute(f"EXPLAIN QUERY PLAN {STATEMENT}", ("", "", "", ""))]
    finally:
        conn.close()
    assert not any(line.startswith("SCAN") for line in plan), plan
