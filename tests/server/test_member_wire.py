"""The members list sends each member as the JSON text its sort index holds (written by SQL,
`store.schema.member_wire`, migration 21), where a single member is written by Python
(`members.wire.members_json`): the two must be the same bytes, for every member of every
index (both sorts, with and without a role filter), whatever a user's name, email and photo
hold (quotes, backslashes, control characters, text beyond ASCII, printf's `%`), and with the
public URL each server is given."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from docdeck.server import create_app

from ._support import ADMIN, DemoIds

_ODD_USERS = [
    ('Quote "Q" back\\slash', 'q"uote@odd.example', 'https://img.example/a?b=1&c="2"'),
    ("Ctrl \x01\x02\x1f\n\t\r\x7f end", "ctrl@odd.example", None),
    ("Émoji 😀 \u2028 \ufeff 中文", "émoji@odd.example", "https://img.example/é.png"),
    ("", "", ""),
    ("%s %d %% printf", "pct%s@odd.example", "%s"),
]


@pytest.mark.parametrize("public_url", ["http://sandbox.test", 'http://h.test/"\\x'])
async def test_every_members_page_item_is_the_member_as_written_alone(
    sandbox_db: Path,
    token_for: Callable[[str], str],
    ids: DemoIds,
    public_url: str,
) -> None:
    headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}  # before any email changes
    conn = sqlite3.connect(sandbox_db)
    with conn:
        users = [
            row[0]
            for row in conn.execute(
                "SELECT user_id FROM members WHERE organization_id = ? ORDER BY user_id",
                (ids.northwind,),
            )
        ]
        others = [user for user in users if user != ids.users[ADMIN]]
        for user_id, (name, email, photo) in zip(others, _ODD_USERS, strict=False):
            conn.execute(
                "UPDATE users SET display_name = ?, email = ?, photo_url = ? WHERE id = ?",
                (name, email, photo, user_id),
            )
        # a whole second (its fraction left out on the wire) and a member never seen
        conn.execute(
            "UPDATE members SET joined_at = '2024-05-01T10:00:00.000000Z', last_seen_at = NULL,"
            " disabled = 1, sso = 1 WHERE user_id = ?",
            (others[-1],),  # not the caller: the demo's ids are random, the admin may sort last
        )
    conn.close()
    app = create_app(sandbox_db, public_url=public_url, answer_cache=False)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as c:
        path = f"/v1/orgs/{ids.northwind}/members"
        kinds = [
            (sort, role) for sort in ("joinedAt", "lastSeenAt") for role in ("", "admin", "guest")
        ]
        pages = [
            (await c.get(path, params={"sort": sort} | ({"role": role} if role else {}))).content
            for sort, role in kinds
        ]
        everyone = (await c.get(path)).json()["items"]
        assert {m["id"] for m in everyone} == set(users)
        for member in everyone:
            alone = await c.get(f"{path}/{member['id']}")
            assert alone.status_code == 200, alone.text
            expected = [
                (sort, role)
                for sort in ("joinedAt", "lastSeenAt")
                for role in ("", "admin", "guest")
                if (sort == "joinedAt" or "lastSeenAt" in member)
                and role in ("", member["role"] or "guest")
            ]
            shown = [key for key, page in zip(kinds, pages, strict=True) if alone.content in page]
            assert shown == expected, alone.content
