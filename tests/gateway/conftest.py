from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from docdeck.gateway import Client


@pytest.fixture
async def client(sandbox_app, admin_token) -> AsyncIterator[Client]:
    """The demo admin's gateway client over the in-process sandbox."""
    async with Client(
        "http://sandbox", admin_token, transport=httpx.ASGITransport(app=sandbox_app)
    ) as c:
        yield c


@pytest.fixture
def client_for(sandbox_app, token_for):
    """A function email -> gateway client for that demo user (caller closes it)."""

    def make(email: str) -> Client:
        return Client(
            "http://sandbox", token_for(email), transport=httpx.ASGITransport(app=sandbox_app)
        )

    return make


@pytest.fixture
def live_url(sandbox_db) -> Iterator[str]:
    """The sandbox on a real loopback port (uvicorn in a thread); yields its base URL."""
    import threading
    import time

    import uvicorn

    from docdeck._cli.serve import bind_socket
    from docdeck.server import create_app

    sock = bind_socket("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(sandbox_db), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
