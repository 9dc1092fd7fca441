"""Reactions go with what they react to: a deleted reply, a deleted comment, a purged space."""

from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

from ._comments import guide
from ._support import ADMIN, COMMENTER, EDITOR, Api, DemoIds


def _reactions_of(db: Path, subjects: list[str]) -> int:
    conn = sqlite3.connect(db)
    marks = ",".join("?" for _ in subjects)
    count = conn.execute(
        f"SELECT COUNT(*) FROM comment_reactions WHERE subject_id IN ({marks})", subjects
    ).fetchone()[0]
    conn.close()
    return int(count)


def _orphans(db: Path) -> int:
    conn = sqlite3.connect(db)
    count = conn.execute(
        """SELECT COUNT(*) FROM comment_reactions WHERE subject_id NOT IN (SELECT id FROM comments)
            AND subject_id NOT IN (SELECT id FROM comment_replies)"""
    ).fetchone()[0]
    conn.close()
    return int(count)


async def _thread(api: Api, space: str) -> tuple[str, str, str]:
    """A comment with one reply, both reacted to; (comment url, comment id, reply id)."""
    editor, commenter = api(EDITOR), api(COMMENTER)
    comment = (
        await editor.post(f"/v1/spaces/{space}/comments", json={"body": {"markdown": "q"}})
    ).json()
    url = f"/v1/spaces/{space}/comments/{comment['id']}"
    reply = (await commenter.post(f"{url}/replies", json={"body": {"markdown": "a"}})).json()
    for who in (editor, commenter):
        react = {"addedReactions": ["👍", "🎉"]}
        assert (await who.put(url, json=react)).status_code == 200
        assert (await who.put(f"{url}/replies/{reply['id']}", json=react)).status_code == 200
    return url, comment["id"], reply["id"]


async def test_deleting_a_reply_or_comment_removes_its_reactions(
    api: Api, ids: DemoIds, sandbox_db: Path
) -> None:
    space, _ = guide(ids)
    url, comment, reply = await _thread(api, space)
    assert _reactions_of(sandbox_db, [comment, reply]) == 8
    assert (await api(COMMENTER).delete(f"{url}/replies/{reply}")).status_code == 204
    assert _reactions_of(sandbox_db, [reply]) == 0
    assert _reactions_of(sandbox_db, [comment]) == 4
    second = (await api(COMMENTER).post(f"{url}/replies", json={"body": {"markdown": "b"}})).json()
    await api(EDITOR).put(f"{url}/replies/{second['id']}", json={"addedReactions": ["👀"]})
    assert (await api(EDITOR).delete(url)).status_code == 204
    assert _reactions_of(sandbox_db, [comment, second["id"]]) == 0
    assert _orphans(sandbox_db) == 0


async def test_a_purged_space_leaves_no_reactions_behind(
    api: Api, ids: DemoIds, sandbox_db: Path, clock: Any
) -> None:
    space, _ = guide(ids)
    _, comment, reply = await _thread(api, space)
    assert _reactions_of(sandbox_db, [comment, reply]) == 8
    admin = api(ADMIN)
    assert (await admin.delete(f"/v1/spaces/{space}")).status_code in (204, 205)
    clock.advance(timedelta(days=8))
    await admin.get("/v1/orgs")  # the lazy purge runs on the next request
    conn = sqlite3.connect(sandbox_db)
    left = conn.execute("SELECT COUNT(*) FROM comments WHERE space_id = ?", (space,)).fetchone()
    conn.close()
    assert left[0] == 0, "the space's comments were purged"
    assert _reactions_of(sandbox_db, [comment, reply]) == 0
    assert _orphans(sandbox_db) == 0
