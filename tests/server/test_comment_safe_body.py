"""A comment's or reply's body as sent (its raw HTML escaped) is made when it is written and
kept with the row (`safe_body`, migration 23), so a read parses nothing: the answer is the
same bytes as when it is made on read (a row written before the column, or by a writer that
does not know it), and a body changed without a new one is never sent with the old one."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import httpx

from ._support import DemoIds

BODY = "Use <b>bold</b> and <script>x()</script>, not a < b"


def _safe_bodies(db: Path, table: str, row_id: str) -> str | None:
    conn = sqlite3.connect(db)
    try:
        value: str | None = conn.execute(
            f"SELECT safe_body FROM {table} WHERE id = ?", (row_id,)
        ).fetchone()[0]
        return value
    finally:
        conn.close()


def _sql(db: Path, statement: str, *params: str | None) -> None:
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(statement, params)
    conn.close()


async def test_a_body_is_made_safe_when_written_and_read_as_it_was_made(
    admin: httpx.AsyncClient, sandbox_db: Path, ids: DemoIds
) -> None:
    base = f"/v1/spaces/{ids.spaces['Public API Reference']}/comments"
    posted = await admin.post(base, json={"body": {"markdown": BODY}})
    assert posted.status_code == 200, posted.text
    comment = posted.json()["id"]
    assert "&lt;script&gt;" in posted.json()["body"]["markdown"]
    replied = await admin.post(f"{base}/{comment}/replies", json={"body": {"markdown": BODY}})
    reply = replied.json()["id"]
    reads = [f"{base}/{comment}", f"{base}/{comment}/replies/{reply}", base]
    reads += [f"{read}?format=document" for read in reads]
    for table, row_id in (("comments", comment), ("comment_replies", reply)):
        assert _safe_bodies(sandbox_db, table, row_id) == posted.json()["body"]["markdown"]
    stored = [(await admin.get(read)).content for read in reads]
    for table in ("comments", "comment_replies"):
        _sql(sandbox_db, f"UPDATE {table} SET safe_body = NULL")
    assert [(await admin.get(read)).content for read in reads] == stored

    # a body changed by a writer that does not know `safe_body` loses the one it had
    edited = await admin.put(f"{base}/{comment}", json={"body": {"markdown": BODY + " <i>"}})
    assert _safe_bodies(sandbox_db, "comments", comment) == edited.json()["body"]["markdown"]
    _sql(sandbox_db, "UPDATE comments SET body = ? WHERE id = ?", "now <u>plain</u>", comment)
    assert _safe_bodies(sandbox_db, "comments", comment) is None
    answer = (await admin.get(f"{base}/{comment}")).json()
    assert answer["body"]["markdown"] == "now &lt;u&gt;plain&lt;/u&gt;"
    # a body without a `<` goes out as it is, and keeps none
    plain = await admin.put(f"{base}/{comment}", json={"body": {"markdown": "a plain body"}})
    assert plain.json()["body"]["markdown"] == "a plain body"
    assert _safe_bodies(sandbox_db, "comments", comment) is None
