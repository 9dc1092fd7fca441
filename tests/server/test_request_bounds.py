"""Bounded requests: the token is checked before a byte of the body is read, and bodies larger
than the documented limit are refused with 413 (see docs/server.md, "Limits"). A refused body
is read and dropped only after the answer is out (a lingering close)."""

from __future__ import annotations

import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI

from docdeck.server.http.intake import MAX_BODY_BYTES

from ._support import ADMIN, DemoIds

CHUNK = b"x" * 65_536


class Exchange:
    """One request driven straight through the ASGI interface, counting what the app reads."""

    def __init__(self, chunks: int) -> None:
        self.chunks_left = chunks
        self.chunks_read = 0
        self.status: int | None = None
        self.body = b""
        self.read_before_answer: int | None = None
        """Chunks read when the answer's body went out."""

    async def receive(self) -> dict[str, Any]:
        if self.chunks_left == 0:
            return {"type": "http.disconnect"}
        self.chunks_left -= 1
        self.chunks_read += 1
        return {"type": "http.request", "body": CHUNK, "more_body": self.chunks_left > 0}

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
        elif message["type"] == "http.response.body":
            self.body += message.get("body", b"")
            if self.read_before_answer is None:
                self.read_before_answer = self.chunks_read


def _scope(path: str, headers: dict[str, str]) -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 5000),
        "server": ("sandbox.test", 80),
    }


async def _post(app: FastAPI, path: str, headers: dict[str, str], chunks: int) -> Exchange:
    exchange = Exchange(chunks)
    await app(_scope(path, headers), exchange.receive, exchange.send)
    return exchange


FIFTY_MB = 50 * 1024 * 1024


@pytest.mark.parametrize(
    "auth", [None, "Bearer ddk_not-a-token", "Basic YWRhOg=="], ids=["none", "unknown", "basic"]
)
async def test_an_unauthenticated_body_is_never_read(
    sandbox_app: FastAPI, ids: DemoIds, auth: str | None
) -> None:
    """50 MB announced, 50 MB available: the 401 comes before any of it is read (then the rest
    is dropped)."""
    headers = {"content-type": "application/json", "content-length": str(FIFTY_MB)}
    if auth:
        headers["authorization"] = auth
    exchange = await _post(
        sandbox_app, f"/v1/orgs/{ids.northwind}/spaces", headers, FIFTY_MB // len(CHUNK)
    )
    assert exchange.status == 401, exchange.body
    assert exchange.read_before_answer == 0
    assert exchange.body.endswith(b"}")  # nothing of the body leaks into the answer


async def test_an_unauthenticated_chunked_body_is_never_read(
    sandbox_app: FastAPI, ids: DemoIds
) -> None:
    headers = {"content-type": "application/json", "transfer-encoding": "chunked"}
    exchange = await _post(sandbox_app, f"/v1/orgs/{ids.northwind}/spaces", headers, 100)
    assert exchange.status == 401 and exchange.read_before_answer == 0


async def test_an_announced_body_over_the_limit_is_413_unread(
    sandbox_app: FastAPI, ids: DemoIds, token_for: Callable[[str], str]
) -> None:
    headers = {
        "authorization": f"Bearer {token_for(ADMIN)}",
        "content-type": "application/json",
        "content-length": str(MAX_BODY_BYTES + 1),
    }
    exchange = await _post(sandbox_app, f"/v1/orgs/{ids.northwind}/spaces", headers, 100)
    assert exchange.status == 413, exchange.body
    assert b"body: larger than the sandbox accepts (1,048,576 bytes at most)" in exchange.body
    assert exchange.read_before_answer == 0


async def test_a_streamed_body_over_the_limit_is_413_once_the_limit_is_passed(
    sandbox_app: FastAPI, ids: DemoIds, token_for: Callable[[str], str]
) -> None:
    headers = {
        "authorization": f"Bearer {token_for(ADMIN)}",
        "content-type": "application/json",
        "transfer-encoding": "chunked",
    }
    exchange = await _post(
        sandbox_app, f"/v1/orgs/{ids.northwind}/spaces", headers, FIFTY_MB // len(CHUNK)
    )
    assert exchange.status == 413, exchange.body
    assert exchange.read_before_answer == MAX_BODY_BYTES // len(CHUNK) + 1


async def test_a_body_at_the_limit_is_read(
    sandbox_app: FastAPI, ids: DemoIds, token_for: Callable[[str], str]
) -> None:
    """The counterpart: exactly MAX_BODY_BYTES is read in full and judged as JSON (it is not)."""
    chunks = MAX_BODY_BYTES // len(CHUNK)
    headers = {
        "authorization": f"Bearer {token_for(ADMIN)}",
        "content-type": "application/json",
        "content-length": str(chunks * len(CHUNK)),
    }
    exchange = await _post(sandbox_app, f"/v1/orgs/{ids.northwind}/spaces", headers, chunks)
    assert exchange.status == 400 and b"malformed JSON" in exchange.body
    assert exchange.chunks_read == chunks


@pytest.mark.loopback
def test_over_loopback_a_50mb_upload_without_token_is_answered_before_it_is_sent(
    loopback: str, sandbox_db: Path, ids: DemoIds
) -> None:
    """Only the headers go out; the 401 arrives without the server waiting for the body."""
    host, port = loopback.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(
            (
                f"POST /v1/orgs/{ids.northwind}/spaces HTTP/1.1\r\nHost: {host}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {FIFTY_MB}\r\n\r\n"
            ).encode()
        )
        received = b""
        while chunk := conn.recv(65_536):  # the server closes the connection after the reply
            received += chunk
        reply = received.decode("latin-1")
    assert reply.startswith("HTTP/1.1 401"), reply
    assert '"code":401' in reply


def _send_all_then_read(base_url: str, request_head: str, body: bytes) -> str:
    """What a client that writes its whole body before reading the reply (Node's fetch, the
    platform's published JavaScript client) receives. Closing on a body still arriving resets
    the connection: the client then sees ECONNRESET, never the answer."""
    host, port = base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=20) as conn:
        conn.sendall(request_head.encode() + body)
        received = b""
        while chunk := conn.recv(65_536):
            received += chunk
    return received.decode("latin-1")


@pytest.mark.loopback
@pytest.mark.parametrize("with_token", [True, False], ids=["413", "401"])
def test_over_loopback_a_client_that_sends_its_whole_body_first_gets_the_answer(
    loopback: str, ids: DemoIds, token_for: Callable[[str], str], with_token: bool
) -> None:
    """8 MiB, more than the kernel buffers hold: the answer goes out before the body is read,
    and the rest is read and dropped before the connection closes (a lingering close)."""
    size = 8 * 1024 * 1024
    auth = f"Authorization: Bearer {token_for(ADMIN)}\r\n" if with_token else ""
    host = loopback.removeprefix("http://")
    head = (
        f"POST /v1/orgs/{ids.northwind}/spaces HTTP/1.1\r\nHost: {host}\r\n{auth}"
        f"Content-Type: application/json\r\nContent-Length: {size}\r\n\r\n"
    )
    reply = _send_all_then_read(loopback, head, b"x" * size)
    status = 413 if with_token else 401
    assert reply.startswith(f"HTTP/1.1 {status}"), reply[:200]
    assert f'"code":{status}' in reply
