"""Credentials that travel in URLs stay out of the access log, and a copy of the database
does not hand out preview tokens."""

from __future__ import annotations

import logging
import socket
import sqlite3
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from docdeck.server import create_app

from ._support import ADMIN, DemoIds


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


@pytest.fixture
def logged(sandbox_db: Path) -> Iterator[tuple[str, _Lines]]:
    """The sandbox under uvicorn with its access log on, as `docdeck serve` runs it."""
    sock = socket.create_server(("127.0.0.1", 0))
    base = f"http://127.0.0.1:{sock.getsockname()[1]}"
    app = create_app(sandbox_db, public_url=base)
    server = uvicorn.Server(uvicorn.Config(app, log_level="info", access_log=True))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        threading.Event().wait(0.01)
    handler = _Lines()
    logging.getLogger("uvicorn.access").addHandler(handler)
    try:
        yield base, handler
    finally:
        logging.getLogger("uvicorn.access").removeHandler(handler)
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


async def test_the_access_log_holds_no_key_token_or_signature(
    logged: tuple[str, _Lines], token_for: Callable[[str], str], ids: DemoIds
) -> None:
    base, handler = logged
    headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}
    site = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Developer Portal']}"
    async with httpx.AsyncClient(base_url=base, headers=headers) as client:
        links = (await client.get(f"{site}/share-links")).json()["items"]
        preview = (await client.get(f"{site}/publishing/preview")).json()["url"]
        space = ids.spaces["Webhooks Guide"]
        files = (await client.get(f"/v1/spaces/{space}/content/files")).json()["items"]
        secrets = [
            links[0]["urls"]["published"].split("shareKey=")[1],
            preview.split("preview=")[1],
            files[0]["downloadURL"].split("signature=")[1],
        ]
        for url in (links[0]["urls"]["published"], preview, files[0]["downloadURL"]):
            await client.get(url)
    lines = handler.lines
    assert len(lines) >= 6, lines
    for secret in secrets:
        assert not any(secret in line for line in lines), secret
    assert any("shareKey=REDACTED" in line for line in lines)


async def test_a_copy_of_the_database_does_not_open_a_preview(
    admin: httpx.AsyncClient, ids: DemoIds, sandbox_db: Path
) -> None:
    site = f"/v1/orgs/{ids.northwind}/sites/{ids.sites['Internal Drafts']}"
    preview = (await admin.get(f"{site}/publishing/preview")).json()["url"]
    token = preview.split("preview=")[1]
    conn = sqlite3.connect(sandbox_db)
    stored = [row[0] for row in conn.execute("SELECT token FROM site_previews")]
    conn.close()
    assert stored and token not in stored
    for value in stored:  # a stored value is no token
        page = await admin.get(f"/s/northwind/drafts/?preview={value}")
        assert page.status_code == 404
    assert (await admin.get(preview.removeprefix("http://sandbox.test"))).status_code == 200


def test_the_migration_hashes_the_preview_tokens_stored_before(sandbox_db: Path) -> None:
    from docdeck.server.sites.service import preview_digest
    from docdeck.server.store import Database

    from .test_share_link_secrets import as_before_digests

    as_before_digests(sandbox_db)  # the database as version 17 left it, but for the tokens
    conn = sqlite3.connect(sandbox_db)
    site = conn.execute("SELECT id FROM sites LIMIT 1").fetchone()[0]
    conn.execute(
        "INSERT INTO site_previews (token, site_id, expires_at) VALUES ('plain', ?, '9999')",
        (site,),
    )
    conn.execute("PRAGMA user_version = 17")
    conn.commit()
    conn.close()
    Database(sandbox_db).close()
    conn = sqlite3.connect(sandbox_db)
    tokens = {row[0] for row in conn.execute("SELECT token FROM site_previews")}
    conn.close()
    assert tokens == {preview_digest("plain")}
