"""An import is bounded in wall time whatever the remote does, stops when its client goes
away, and slow imports never hold the threads other requests need: reproduced against a
loopback website that sends its page one byte at a time."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from docdeck.server import create_app
from docdeck.server.content.fetch import ImportPolicy

from ._support import ADMIN, COMMENTER, EDITOR, DemoIds, error_of

DRIP_SECONDS = 8.0
"""How long the slow website keeps sending (one byte every 50 ms) if nobody stops it."""


@dataclass
class SlowSite:
    url: str
    started: list[float] = field(default_factory=list)
    ended: list[float] = field(default_factory=list)
    """When each connection the website served ended (the importer hung up or it finished)."""


class _Drip(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        site: SlowSite = self.server.site  # type: ignore[attr-defined]
        site.started.append(time.monotonic())
        try:
            if self.path == "/slow-headers":  # the status line and headers, byte by byte
                self._drip(b"HTTP/1.1 200 OK\r\nX-Padding: " + b"x" * 10_000)
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self._drip(b"<html><body>" + b"x" * 10_000)
        except OSError:
            pass
        finally:
            site.ended.append(time.monotonic())
            self.close_connection = True

    def _drip(self, data: bytes) -> None:
        stop = time.monotonic() + DRIP_SECONDS
        for byte in data:
            if time.monotonic() > stop:
                break
            self.wfile.write(bytes([byte]))
            self.wfile.flush()
            threading.Event().wait(0.05)


class _Server(ThreadingHTTPServer):
    request_queue_size = 128  # 45 importers connect at once
    daemon_threads = True


@pytest.fixture
def slow_site() -> Iterator[SlowSite]:
    server = _Server(("127.0.0.1", 0), _Drip)
    site = SlowSite(f"http://127.0.0.1:{server.server_address[1]}/slow")
    server.site = site  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()


POLICY = ImportPolicy(allow_loopback=True, timeout=0.5, deadline=1.0)


@pytest.fixture
def clients(
    sandbox_db: Path, clock: Any, token_for: Callable[[str], str]
) -> Callable[[str], httpx.AsyncClient]:
    app = create_app(
        sandbox_db, clock=clock, public_url="http://sandbox.test", import_policy=POLICY
    )

    def make(email: str) -> httpx.AsyncClient:
        return httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app),
            base_url="http://sandbox.test",
            headers={"Authorization": f"Bearer {token_for(email)}"},
            timeout=60,
        )

    return make


def _import(ids: DemoIds) -> str:
    return f"/v1/spaces/{ids.spaces['Webhooks Guide']}/content/import"


@pytest.mark.parametrize("path", ["/slow", "/slow-headers"])
async def test_a_slow_drip_import_ends_at_its_deadline(
    clients: Callable[[str], httpx.AsyncClient], ids: DemoIds, slow_site: SlowSite, path: str
) -> None:
    """One byte every 50 ms never trips the 0.5 s read timeout; the deadline still holds."""
    started = time.monotonic()
    url = slow_site.url.removesuffix("/slow") + path
    response = await clients(ADMIN).post(_import(ids), json={"url": url, "source": "website"})
    took = time.monotonic() - started
    assert "took" in error_of(response, 400)
    assert took < POLICY.deadline + 1.5, f"the import held on for {took:.1f} s"


async def test_45_slow_imports_leave_other_writes_alone(
    clients: Callable[[str], httpx.AsyncClient], ids: DemoIds, slow_site: SlowSite
) -> None:
    editor, commenter = clients(EDITOR), clients(COMMENTER)
    body = {"url": slow_site.url, "source": "website"}
    imports = [asyncio.create_task(editor.post(_import(ids), json=body)) for _ in range(45)]
    for _ in range(500):  # the imports are under way (at least a pool's worth of them)
        if len(slow_site.started) >= 8:
            break
        await asyncio.sleep(0.01)
    started = time.monotonic()
    comment = await commenter.post(
        f"/v1/spaces/{ids.spaces['Webhooks Guide']}/comments",
        json={"body": {"markdown": "still here"}},
    )
    waited = time.monotonic() - started
    assert comment.status_code == 200, comment.text
    answers = await asyncio.gather(*imports)
    assert {a.status_code for a in answers} == {400}
    assert waited < 2.5, f"a comment waited {waited:.1f} s behind 45 slow imports"


def _serve(app: Any) -> tuple[uvicorn.Server, threading.Thread, str]:
    sock = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        threading.Event().wait(0.01)
    assert server.started
    return server, thread, f"http://127.0.0.1:{sock.getsockname()[1]}"


async def test_a_client_that_goes_away_stops_its_import(
    sandbox_db: Path, token_for: Callable[[str], str], ids: DemoIds, slow_site: SlowSite
) -> None:
    policy = ImportPolicy(allow_loopback=True, timeout=0.5, deadline=DRIP_SECONDS * 2)
    app = create_app(sandbox_db, public_url="http://sandbox.test", import_policy=policy)
    server, thread, base = _serve(app)
    try:
        headers = {"Authorization": f"Bearer {token_for(ADMIN)}"}
        async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as client:
            posting = asyncio.ensure_future(
                client.post(_import(ids), json={"url": slow_site.url, "source": "website"})
            )
            for _ in range(1000):  # the client leaves once the import reached the website
                if slow_site.started or posting.done():
                    break
                await asyncio.sleep(0.01)
            assert slow_site.started and not posting.done(), "the import never reached the site"
            posting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await posting
        gone = time.monotonic()
        for _ in range(300):  # the website sees its connection end soon after
            if slow_site.ended:
                break
            await asyncio.sleep(0.01)
        assert slow_site.ended, "the import went on after its client left"
        assert slow_site.ended[0] - gone < 2.0
    finally:
        server.should_exit = True
        thread.join(timeout=10)
