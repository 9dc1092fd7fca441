"""Share links' keys are not in the database: each is derived from the link's id with the
server's key file (`sandbox.db.key`), and only its digest is stored. So a copy of the
database (and its write-ahead log) hands out no key; the keys the API shows open the site,
survive a restart, and keys stored as written before the change keep working."""

from __future__ import annotations

import secrets
import shutil
import sqlite3
import stat
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI

from docdeck.server import create_app, mint_token
from docdeck.server.store import Database, ServerKeyError
from docdeck.server.store.server_key import key_path

from ._support import ADMIN, DemoIds

BEFORE_DIGESTS = 18
"""The schema version that stored share keys as written."""

WRONG_KEYS = ("", "unknown", "%C3%A9", "%FF", "%ED%A0%80", "%00", "%20", "a" * 5000)
"""Keys that open nothing, as sent in the query (percent-encoded): empty, unknown, non-ASCII
(an encoded lone surrogate among them), a NUL, a space, a huge one."""


def _client(app: FastAPI, token: str | None) -> httpx.AsyncClient:
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url="http://sandbox.test", headers=headers
    )


def _key(link: dict[str, object]) -> str:
    urls = link["urls"]
    assert isinstance(urls, dict)
    return str(urls["published"]).split("shareKey=")[1]


def _raw_bytes(db: Path) -> bytes:
    """What a copy of the database holds: the file and its write-ahead log, as they are."""
    wal = db.with_name(db.name + "-wal")
    return db.read_bytes() + (wal.read_bytes() if wal.exists() else b"")


async def _all_keys(client: httpx.AsyncClient, site: str) -> dict[str, str]:
    answer = await client.get(f"{site}/share-links")
    assert answer.status_code == 200, answer.text
    return {link["name"]: _key(link) for link in answer.json()["items"]}


async def test_a_copy_of_the_database_holds_no_share_key(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    site = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Developer Portal']}"
    for n in range(5):
        made = await admin.post(f"{site}/share-links", json={"name": f"Guests {n}"})
        assert made.status_code == 201, made.text
        renamed = await admin.patch(
            f"{site}/share-links/{made.json()['id']}", json={"name": f"Renamed {n}"}
        )
        assert _key(renamed.json()) == _key(made.json())  # renaming keeps the key
    keys = await _all_keys(admin, site)
    assert len(keys) == 7 and len(set(keys.values())) == 7
    raw = _raw_bytes(sandbox_db)  # the app is still open: the log holds the latest writes
    for name, key in keys.items():
        assert len(key) == 32
        assert key.encode() not in raw, name
    conn = sqlite3.connect(sandbox_db)
    stored = [row[0] for row in conn.execute("SELECT key_digest FROM site_share_links")]
    conn.close()
    for value in stored:  # a stored digest is no key
        page = await admin.get(f"/s/northwind/developers/?shareKey={value}")
        assert page.status_code == 403
    for name, key in keys.items():  # and every key shown opens the site (inactive: refused)
        page = await admin.get(f"/s/northwind/developers/?shareKey={key}")
        assert page.status_code == (403 if name == "Old beta testers" else 200), name


async def test_wrong_non_ascii_and_empty_keys_are_refused(
    api: Callable[[str | None], httpx.AsyncClient], ids: DemoIds
) -> None:
    admin, visitor = api(ADMIN), api(None)
    site = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Developer Portal']}"
    keys = await _all_keys(admin, site)
    partners = keys["Partners"]
    tampered = partners[:-1] + ("A" if partners[-1] != "A" else "B")
    for key in (*WRONG_KEYS, tampered, partners.upper(), partners + "x", keys["Old beta testers"]):
        page = await visitor.get(f"/s/northwind/developers/?shareKey={key}")
        assert page.status_code == 403, key
        assert "shared by link only" in page.text
        structure = await admin.get(f"{site}/structure?shareKey={key}")
        assert structure.status_code == 400, key
        assert "shareKey" in structure.json()["error"]["message"]
    assert (await visitor.get(f"/s/northwind/developers/?shareKey={partners}")).status_code == 200
    structure = await admin.get(f"{site}/structure?shareKey={partners}")
    assert structure.status_code == 200


async def test_keys_survive_a_restart_with_the_same_key_file(tmp_path: Path) -> None:
    db = tmp_path / "data" / "sandbox.db"
    from docdeck.server import ensure_demo

    ensure_demo(db)
    key_file = key_path(db)
    assert key_file.parent == db.parent
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    token = mint_token(db, ADMIN)
    first = create_app(db, public_url="http://sandbox.test")
    async with _client(first, token) as client:
        org = (await client.get("/v1/orgs")).json()["items"][0]["id"]
        sites = (await client.get(f"/v1/orgs/{org}/sites")).json()["items"]
        site_id = next(s["id"] for s in sites if s["title"] == "Developer Portal")
        site = f"/v1/orgs/{org}/sites/{site_id}"
        await client.post(f"{site}/share-links", json={"name": "Made before the restart"})
        before = await _all_keys(client, site)
    first.state.sandbox.db.close()

    again = create_app(db, public_url="http://sandbox.test")
    async with _client(again, token) as client:
        assert await _all_keys(client, site) == before
        for name in ("Partners", "Made before the restart"):
            page = await client.get(f"/s/northwind/developers/?shareKey={before[name]}")
            assert page.status_code == 200, name
    again.state.sandbox.db.close()

    # A copy without its key file gets a new key: the links still open the site (their
    # digests are in the database), but their keys can no longer be shown.
    copy = tmp_path / "copy" / "sandbox.db"
    copy.parent.mkdir()
    shutil.copyfile(db, copy)
    elsewhere = create_app(copy, public_url="http://sandbox.test")
    async with _client(elsewhere, token) as client:
        links = (await client.get(f"{site}/share-links")).json()["items"]
        assert links and all(link["urls"] == {} for link in links)
        page = await client.get(f"/s/northwind/developers/?shareKey={before['Partners']}")
        assert page.status_code == 200
    elsewhere.state.sandbox.db.close()


def as_before_digests(db: Path) -> dict[str, str]:
    """Make the demo database what version 18 left: every share link's key stored as written
    (new random ones, as then), and no later migration's changes. Returns them by link name."""
    from .test_member_user_copy import undo_member_user_copy

    conn = sqlite3.connect(db)
    undo_member_user_copy(conn)
    conn.execute("ALTER TABLE site_share_links DROP COLUMN sealed_key")
    conn.execute("ALTER TABLE site_share_links RENAME COLUMN key_digest TO secret")
    keys: dict[str, str] = {}
    for link_id, name in conn.execute("SELECT id, name FROM site_share_links").fetchall():
        keys[name] = secrets.token_urlsafe(24)
        conn.execute("UPDATE site_share_links SET secret = ? WHERE id = ?", (keys[name], link_id))
    conn.execute(f"PRAGMA user_version = {BEFORE_DIGESTS}")
    conn.commit()
    conn.close()
    return keys


async def test_links_from_before_the_migration_keep_working(sandbox_db: Path, ids: DemoIds) -> None:
    old = as_before_digests(sandbox_db)
    assert all(key.encode() in sandbox_db.read_bytes() for key in old.values())
    # Another process has the file open (so closing the migration's connection does not
    # fold the log into the file): the migration must do so itself.
    other = sqlite3.connect(sandbox_db)
    other.execute("SELECT COUNT(*) FROM sites").fetchone()
    app = create_app(sandbox_db, public_url="http://sandbox.test")  # migrates
    raw = _raw_bytes(sandbox_db)
    other.close()
    for name, key in old.items():  # gone from the file and its log
        assert key.encode() not in raw, name
    site = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Developer Portal']}"
    async with _client(app, mint_token(sandbox_db, ADMIN)) as client:
        assert await _all_keys(client, site) == old  # the URLs handed out are still shown
        page = await client.get(f"/s/northwind/developers/?shareKey={old['Partners']}")
        assert page.status_code == 200
        inactive = await client.get(f"/s/northwind/developers/?shareKey={old['Old beta testers']}")
        assert inactive.status_code == 403
        for key in WRONG_KEYS:
            page = await client.get(f"/s/northwind/developers/?shareKey={key}")
            assert page.status_code == 403, key
        made = await client.post(f"{site}/share-links", json={"name": "Made after"})
        new_key = _key(made.json())
        page = await client.get(f"/s/northwind/developers/?shareKey={new_key}")
        assert page.status_code == 200
    assert new_key.encode() not in _raw_bytes(sandbox_db)
    app.state.sandbox.db.close()


def test_a_key_file_that_is_no_key_stops_the_server_with_its_name(tmp_path: Path) -> None:
    db = tmp_path / "sandbox.db"
    Database(db).close()
    key_path(db).write_text("not a key\n", encoding="ascii")
    with pytest.raises(ServerKeyError, match=r"sandbox\.db\.key: not a docdeck server key"):
        Database(db)


def test_a_file_that_is_no_database_gets_no_key_file(tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(sqlite3.DatabaseError):
        Database(junk)
    assert not key_path(junk).exists()
