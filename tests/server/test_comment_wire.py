"""A comment's JSON text kept with its row (`comments.wire`, written by SQL:
`store.schema.comment_wire`, migration 24), which the comment reads send in markdown, is
always what the row's state says (every trigger writes it anew, whoever writes: the API, or a
plain sqlite3 connection here), and the answers made from it are the bytes Python writes of
the same rows (`comments.wire.comments_json`, which a row without the text is sent by): for
users with odd names, emails and photos, users changed, removed and added back, reactions
given together, replies, edits, resolving, deletes, pages and blocks that are gone, and with
the public URL each server is given. A database from before the migration gets the text."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from docdeck.server import create_app
from docdeck.server.store import db as store_db
from docdeck.server.store.schema import comment_wire

from ._comments import page_blocks
from ._support import ADMIN, COMMENTER, EDITOR, READER, REVIEWER, DemoIds

_WIRE_TRIGGERS = (
    "comments_wire_on_insert",
    "comments_wire_on_update",
    "comments_wire_reply_added",
    "comments_wire_reply_removed",
    "comments_wire_reply_moved",
    "comments_wire_reaction_added",
    "comments_wire_reaction_removed",
    "comments_wire_reaction_changed",
    "comments_wire_user_added",
    "comments_wire_user_changed",
    "comments_wire_user_removed",
)


def undo_comment_wire(conn: sqlite3.Connection) -> None:
    """Make a current database what version 23 left: without migration 24's text, its
    triggers and indexes, and 27's view of the text (the caller sets `user_version`)."""
    conn.execute("DROP VIEW comment_wires")
    for trigger in _WIRE_TRIGGERS:
        conn.execute(f"DROP TRIGGER {trigger}")
    for index in ("comments_by_poster", "comments_by_resolver", "comment_reactions_by_user"):
        conn.execute(f"DROP INDEX {index}")
    conn.execute("ALTER TABLE comments DROP COLUMN wire")


_ODD = [
    ('Quote "Q" back\\slash', 'q"uote@odd.example', 'https://img.example/a?b=1&c="2"'),
    ("Ctrl \x01\x02\x03\x04\x05\x06\x1f\n\t\r\x7f end", "ctrl@odd.example", None),
    ("Émoji 😀 \u2028 \ufeff 中文", "émoji@odd.example", ""),
    ("%s %d %% printf", "pct%s@odd.example", "%s"),
]
_BODIES = [
    "plain",
    "html <b>bold</b> <script>x()</script> a < b",
    'odd "q" \\ \x00 \x01\x03\x05 😀 %s\n\ttab',
]


def _stale(conn: sqlite3.Connection) -> list[str]:
    """Comments whose kept text is not what their rows now say."""
    rows = conn.execute(
        f"SELECT id FROM comments WHERE wire IS NOT ({comment_wire()}) ORDER BY id"
    ).fetchall()
    return [row[0] for row in rows]


class _Reads:
    def __init__(self, clients: list[httpx.AsyncClient], scopes: list[str]) -> None:
        self.clients, self.scopes = clients, scopes

    async def bytes(self) -> list[tuple[str, int, bytes]]:
        answers: list[tuple[str, int, bytes]] = []
        for client in self.clients:
            for scope in self.scopes:
                every = await client.get(f"{scope}/comments", params={"limit": 1000})
                answers.append((every.url.path, every.status_code, every.content))
                params: dict[str, str | int] = {"limit": 2, "order": "asc"}
                for _ in range(20):  # a few pages, following the cursor
                    page = await client.get(f"{scope}/comments", params=params)
                    answers.append((str(params), page.status_code, page.content))
                    following = page.json().get("next")
                    if not following:
                        break
                    params["page"] = following["page"]
                for status in ("open", "resolved"):
                    some = await client.get(f"{scope}/comments", params={"status": status})
                    answers.append((status, some.status_code, some.content))
                if every.status_code != 200:
                    continue
                for item in every.json()["items"]:
                    for fmt in (None, "markdown"):
                        one = await client.get(
                            f"{scope}/comments/{item['id']}",
                            params={"format": fmt} if fmt else None,
                        )
                        answers.append((one.url.path, one.status_code, one.content))
        return answers


async def _same_as_python(db: Path, reads: _Reads) -> None:
    """The reads give the same bytes from the kept text as from Python alone; the kept text
    is what the rows say."""
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        assert _stale(conn) == []
        kept = await reads.bytes()
        assert (
            conn.execute("SELECT COUNT(*) FROM comments WHERE wire IS NULL").fetchone()[0]
            < (conn.execute("SELECT COUNT(*) FROM comments").fetchone()[0])
        ), "the text is read"
        conn.execute("UPDATE comments SET wire = NULL")  # no trigger: `wire` alone
        made = await reads.bytes()
        conn.execute(f"UPDATE comments SET wire = {comment_wire()}")
    finally:
        conn.close()
    assert len(kept) == len(made)
    for a, b in zip(kept, made, strict=True):
        assert a == b


@pytest.mark.parametrize("public_url", ["http://sandbox.test", 'http://h.test/"\\x\u00e9'])
async def test_the_kept_text_follows_every_write_and_answers_as_python_writes(
    sandbox_db: Path, token_for: Callable[[str], str], ids: DemoIds, public_url: str
) -> None:
    emails = [ADMIN, COMMENTER, EDITOR, REVIEWER, READER]
    tokens = {email: token_for(email) for email in emails}  # before any email changes
    raw = sqlite3.connect(sandbox_db, isolation_level=None)
    others = [
        row[0]
        for row in raw.execute(
            "SELECT id FROM users WHERE email NOT IN (?, ?) ORDER BY id", (ADMIN, COMMENTER)
        )
    ]
    for user_id, (name, email, photo) in zip(others, _ODD, strict=False):
        raw.execute(
            "UPDATE users SET display_name = ?, email = ?, photo_url = ? WHERE id = ?",
            (name, email, photo, user_id),
        )
    app = create_app(sandbox_db, public_url=public_url, answer_cache=False)
    transport = httpx.ASGITransport(app=app)

    def client(email: str) -> httpx.AsyncClient:
        headers = {"Authorization": f"Bearer {tokens[email]}"}
        return httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers)

    guide = f"/v1/spaces/{ids.spaces['Webhooks Guide']}"
    reference = f"/v1/spaces/{ids.spaces['Public API Reference']}"
    change_request = f"{guide}/change-requests/1"
    clients = {email: client(email) for email in emails}
    admin, commenter = clients[ADMIN], clients[COMMENTER]
    reads = _Reads([admin, commenter, clients[READER]], [guide, reference, change_request])
    await _same_as_python(sandbox_db, reads)

    # posted by the API: on the space, a page, a block; reactions given together and apart
    page = ids.content["page"]
    blocks = await page_blocks(admin, ids.spaces["Webhooks Guide"], page)
    targets: list[dict[str, object]] = [
        {},
        {"page": page},
        {"page": page, "node": blocks[0]["key"]},
    ]
    posted: list[str] = []
    for scope in (guide, change_request):
        for number, target in enumerate(targets):
            poster = clients[emails[number % 3]]
            body = {"body": {"markdown": _BODIES[number % len(_BODIES)]}, **target}
            answer = await poster.post(f"{scope}/comments", json=body)
            assert answer.status_code == 200, answer.text
            posted.append(f"{scope}/comments/{answer.json()['id']}")
    for number, comment in enumerate(posted):
        for email in (EDITOR, REVIEWER, ADMIN):
            added = await clients[email].put(comment, json={"addedReactions": ["👍", "🎉", "🚀"]})
            assert added.status_code == 200, added.text
        await commenter.put(comment, json={"addedReactions": ["👀"]})
        if number % 2:
            await clients[EDITOR].put(comment, json={"removedReactions": ["👍"]})
        for email in (REVIEWER, COMMENTER):
            reply = await clients[email].post(
                f"{comment}/replies", json={"body": {"markdown": "a <i>reply</i>"}}
            )
            assert reply.status_code == 200, reply.text
    await _same_as_python(sandbox_db, reads)

    # edited, resolved, reopened; a reply and a comment deleted
    for number, comment in enumerate(posted):
        await admin.put(comment, json={"body": {"markdown": _BODIES[(number + 1) % 3]}})
        await admin.put(comment, json={"resolved": True})
        if number % 2:
            await commenter.put(comment, json={"resolved": False, "addedReactions": ["✅"]})
    replies = (await admin.get(f"{posted[0]}/replies")).json()["items"]
    assert (await admin.delete(f"{posted[0]}/replies/{replies[0]['id']}")).status_code == 204
    assert (await admin.delete(posted[1])).status_code == 204
    await _same_as_python(sandbox_db, reads)

    # written behind the API's back: users changed, removed and added back; a reaction's
    # time, a body with HTML and no safe text, pages and blocks gone, a review and a cell
    raw.execute(
        "UPDATE users SET display_name = 'Chen \"2\"', photo_url = 'https://p/c.png' WHERE id = ?",
        (ids.users[EDITOR],),
    )
    raw.execute(
        "UPDATE users SET email = 'EMEKA@x.test', photo_url = NULL WHERE id = ?",
        (ids.users[COMMENTER],),
    )
    raw.execute(
        "UPDATE comment_reactions SET reacted_at = '2026-01-01T00:00:00.000000Z' WHERE emoji = '🎉'"
    )
    raw.execute("UPDATE comments SET body = body || ' <u>raw</u>' WHERE rowid % 3 = 0")
    raw.execute("UPDATE comments SET page_id = 'gone' WHERE rowid % 5 = 2 AND page_id IS NOT NULL")
    raw.execute(
        "UPDATE comments SET node_id = 'gone', node_preview = '' WHERE rowid % 5 = 3"
        " AND page_id IS NOT NULL"
    )
    raw.execute(
        "UPDATE comments SET review_id = 'r1', table_record = 'r', table_definition = NULL"
        " WHERE rowid % 4 = 1 AND page_id IS NOT NULL"
    )
    raw.execute("UPDATE comments SET edited_at = '2026-01-01T00:00:00.000000Z' WHERE rowid % 2 = 0")
    await _same_as_python(sandbox_db, reads)
    raw.execute("PRAGMA foreign_keys = OFF")
    raw.execute("DELETE FROM users WHERE id = ?", (ids.users[REVIEWER],))
    await _same_as_python(sandbox_db, reads)
    raw.execute(
        "INSERT INTO users (id, email, display_name) VALUES (?, 'back@x.test', 'Back')",
        (ids.users[REVIEWER],),
    )
    await _same_as_python(sandbox_db, reads)
    raw.close()
    for each in clients.values():
        await each.aclose()


async def test_a_database_from_before_the_migration_gets_the_text(
    sandbox_db: Path, token_for: Callable[[str], str], ids: DemoIds
) -> None:
    token = token_for(ADMIN)
    conn = sqlite3.connect(sandbox_db, isolation_level=None)
    conn.execute("UPDATE comments SET wire = NULL")
    app = create_app(sandbox_db, public_url="http://sandbox.test", answer_cache=False)
    transport = httpx.ASGITransport(app=app)
    headers = {"Authorization": f"Bearer {token}"}
    scopes = [f"/v1/spaces/{space}" for space in ids.spaces.values()]
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as c:
        reads = _Reads([c], scopes)
        made = await reads.bytes()  # by Python alone
        app.state.sandbox.db.close()
        undo_comment_wire(conn)
        conn.execute("DROP INDEX spaces_wire")  # migration 25's, made again with 24's text
        conn.execute("PRAGMA user_version = 23")
        conn.close()
        store_db.migrate(sandbox_db)
        conn = sqlite3.connect(sandbox_db)
        assert _stale(conn) == []
        assert conn.execute("SELECT COUNT(*) FROM comments WHERE wire IS NULL").fetchone()[0] == 0
        conn.close()
        assert await reads.bytes() == made


def test_the_text_is_written_once_in_a_view_its_triggers_read(sandbox_db: Path) -> None:
    """Migration 27: the expression is in the view `comment_wires` alone; each trigger reads
    the view (SQLite parses every trigger's text for each connection it opens)."""
    conn = sqlite3.connect(sandbox_db)
    try:
        made = dict(
            conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
                " AND name LIKE 'comments_wire_%'"
            ).fetchall()
        )
        view = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'comment_wires'")
        assert "printf(" in view.fetchone()[0]
    finally:
        conn.close()
    assert sorted(made) == sorted(_WIRE_TRIGGERS)
    for name, sql in made.items():
        assert "comment_wires" in sql and "printf(" not in sql, name
