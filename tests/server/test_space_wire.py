"""The spaces list sends each space as the JSON text its index holds (written by SQL,
`store.schema.space_wire`, migration 26), where a single space and the lists before were
written by Python (`spaces.wire.space_values`): the page must be the same bytes as Python
writes from the space's row, whatever a space's title, emoji and icon hold (quotes,
backslashes, control characters, text beyond ASCII, printf's `%`), with and without a parent
or an icon, deleted or not, for every caller's role (grants raising it in some spaces), with
the public URL each server is given, and after the space was written to by any writer (the
index keeps the text with the row, so no writer can leave it behind)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import httpx
import orjson
import pytest

from docdeck.server import create_app
from docdeck.server.permissions import Membership, space_grants, space_role
from docdeck.server.spaces.wire import SPACE_COLUMNS, space_values

from ._support import ADMIN, EDITOR, GUEST, READER, DemoIds

_API_SPACES = [  # what the API takes
    ('Quote "Q" back\\slash', "🚀", None),
    ("Émoji 😀 \u2028 \ufeff 中文", None, "https://img.example/é.png?b=1&c=%222%22"),
    ("%s %d %% printf", "1f389", None),
]
_STORED_SPACES = [  # what a store can hold all the same (written before a check, imported)
    ("Ctrl \x01\x02\x1f\n\t\r\x7f end", "", 'https://img.example/a?b=1&c="2"'),
    ("", "%s \x01", "%s"),
]


def _expected(db: Path, org: str, user: str, public_url: str, deleted: bool) -> bytes:
    """The page as `space_values` writes it from the rows (main's writer), for `user`."""
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        role = conn.execute(
            "SELECT role FROM members WHERE organization_id = ? AND user_id = ?", (org, user)
        ).fetchone()["role"]
        member = Membership(org, user, role)
        grants = space_grants(conn, org, user)
        where = "deleted_at IS NOT NULL" if deleted else "deleted_at IS NULL"
        rows = conn.execute(
            f"SELECT {', '.join(SPACE_COLUMNS)} FROM spaces WHERE organization_id = ?"
            f" AND {where} ORDER BY tree_key",
            (org,),
        ).fetchall()
    finally:
        conn.close()
    if member.is_guest:
        rows = [row for row in rows if row["id"] in grants]
    items = [
        space_values(public_url, tuple(row), space_role(member, grants, row["id"])) for row in rows
    ]
    return orjson.dumps({"items": items, "count": len(items)})


@pytest.mark.parametrize("public_url", ["http://sandbox.test", 'http://h.test/"\\x%s'])
async def test_every_spaces_page_is_the_spaces_as_python_writes_them(
    sandbox_db: Path,
    token_for: Callable[[str], str],
    ids: DemoIds,
    public_url: str,
) -> None:
    callers = {email: token_for(email) for email in (ADMIN, EDITOR, READER, GUEST)}
    app = create_app(sandbox_db, public_url=public_url, answer_cache=False)
    transport = httpx.ASGITransport(app=app)
    org = ids.northwind
    admin = {"Authorization": f"Bearer {callers[ADMIN]}"}
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:

        async def check(note: str) -> None:
            for email, token in callers.items():
                for deleted in (False, True) if email == ADMIN else (False,):
                    answer = await c.get(
                        f"/v1/orgs/{org}/spaces",
                        params={"limit": 1000, "deleted": str(deleted).lower()},
                        headers={"Authorization": f"Bearer {token}"},
                    )
                    assert answer.status_code == 200, answer.text
                    expected = _expected(sandbox_db, org, ids.users[email], public_url, deleted)
                    assert answer.content == expected, (note, email, deleted)

        await check("the demo")
        spaces = (await c.get(f"/v1/orgs/{org}/spaces", headers=admin)).json()["items"]
        # every writer of a space's shown fields, through the API
        for space, (title, emoji, icon) in zip(spaces, _API_SPACES, strict=False):
            body: dict[str, object] = {"title": title}
            body |= {"icon": icon} if icon else {"emoji": emoji}
            answer = await c.patch(f"/v1/spaces/{space['id']}", json=body, headers=admin)
            assert answer.status_code == 200, answer.text
        made = await c.post(f"/v1/orgs/{org}/spaces", json={"title": "New"}, headers=admin)
        assert made.status_code == 201, made.text
        copy = await c.post(f"/v1/spaces/{spaces[0]['id']}/duplicate", headers=admin)
        assert copy.status_code == 201, copy.text
        moved = await c.post(
            f"/v1/spaces/{made.json()['id']}/move",
            json={"parent": next(iter(ids.collections.values()))},
            headers=admin,
        )
        assert moved.status_code == 200, moved.text
        gone = await c.delete(f"/v1/spaces/{spaces[1]['id']}", headers=admin)
        assert gone.status_code == 204, gone.text
        await check("after writes")
        back = await c.post(f"/v1/spaces/{spaces[1]['id']}/restore", headers=admin)
        assert back.status_code == 200, back.text
        await check("after a restore")
    # writers the API does not have: counts the store keeps, a parent, a whole second
    conn = sqlite3.connect(sandbox_db)
    with conn:
        for space, (title, emoji, icon) in zip(spaces[3:], _STORED_SPACES, strict=False):
            conn.execute(
                "UPDATE spaces SET title = ?, emoji = ?, icon = ? WHERE id = ?",
                (title, emoji, icon, space["id"]),
            )
        conn.execute(
            "UPDATE spaces SET comments = 7, change_requests = 3, change_requests_open = 2,"
            " change_requests_draft = 1, created_at = '2024-05-01T10:00:00.000000Z',"
            " default_level = NULL, revision_id = NULL WHERE id = ?",
            (spaces[2]["id"],),
        )
    conn.close()
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as c:
        await check_again(c, callers, sandbox_db, org, ids, public_url)


async def check_again(
    c: httpx.AsyncClient,
    callers: dict[str, str],
    db: Path,
    org: str,
    ids: DemoIds,
    public_url: str,
) -> None:
    for email, token in callers.items():
        answer = await c.get(
            f"/v1/orgs/{org}/spaces",
            params={"limit": 1000},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.status_code == 200, answer.text
        assert answer.content == _expected(db, org, ids.users[email], public_url, False), email
