"""The token never shows: not in str, repr, log lines or tracebacks, including the
locals that Textual's and rich's tracebacks print, for failures provoked over a real
loopback socket (a closed port, a server that hangs up, a 401)."""

from __future__ import annotations

import io
import logging
import socket
import threading
import traceback
from collections.abc import Iterator

import httpx
import pytest
from rich.console import Console
from rich.traceback import Traceback

from docdeck.gateway import (
    APIConnectionError,
    AuthenticationError,
    Client,
    DocdeckError,
)

TOKEN = "ddk_TOPSECRET_token_4242"


def rendered(error: BaseException) -> str:
    """Everything a person could see of an error: str, repr, plain and rich tracebacks.

    The outermost frame is the test's own (its locals hold the token on purpose) and
    is left out; every frame of docdeck and httpx below it is shown with its locals.
    """
    assert error.__traceback__ is not None
    error = error.with_traceback(error.__traceback__.tb_next)
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(
        Traceback.from_exception(type(error), error, error.__traceback__, show_locals=True)
    )
    return "\n".join(
        [
            str(error),
            repr(error),
            "".join(traceback.format_exception(error)),
            console.export_text(),
        ]
    )


@pytest.fixture
def raw_server() -> Iterator[tuple[str, list[bytes]]]:
    """A loopback server answering each connection with the next canned reply (b"" = hang up)."""
    replies: list[bytes] = []
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(0.2)
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            with conn:
                conn.settimeout(5)
                try:
                    conn.recv(65536)
                except OSError:
                    continue
                reply = replies.pop(0) if replies else b""
                if reply:
                    conn.sendall(reply)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}", replies
    finally:
        stop.set()
        thread.join(timeout=5)
        listener.close()


def _closed_port() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


@pytest.mark.loopback
async def test_a_closed_port_error_never_shows_the_token(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    async with Client(_closed_port(), TOKEN, max_retries=1) as client:
        client.transport.sleep = _no_sleep
        with pytest.raises(APIConnectionError) as info:
            await client.orgs.list()
        text = rendered(info.value) + repr(client) + repr(client.transport)
    assert "Could not connect to http://127.0.0.1:" in str(info.value)
    assert TOKEN not in text
    assert all(TOKEN not in record.getMessage() for record in caplog.records)


@pytest.mark.loopback
async def test_a_server_that_hangs_up_never_shows_the_token(
    raw_server: tuple[str, list[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    url, replies = raw_server
    replies.append(b"")
    async with Client(url, TOKEN, max_retries=0) as client:
        with pytest.raises(APIConnectionError) as info:
            await client.orgs.list()
    assert "RemoteProtocolError" in str(info.value)
    assert TOKEN not in rendered(info.value)
    assert caplog.records, "httpx/httpcore debug logging was not captured"
    assert all(TOKEN not in record.getMessage() for record in caplog.records)


@pytest.mark.loopback
async def test_a_rejected_token_never_shows_it(
    raw_server: tuple[str, list[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    url, replies = raw_server
    body = b'{"error": {"code": 401, "message": "Unknown API token"}}'
    replies.append(
        b"HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\n"
        b"Content-Length: " + str(len(body)).encode() + b"\r\nConnection: close\r\n\r\n" + body
    )
    async with Client(url, TOKEN, max_retries=0) as client:
        with pytest.raises(AuthenticationError) as info:
            await client.orgs.list()
    assert str(info.value) == "401 Unauthorized on GET /v1/orgs: Unknown API token"
    assert TOKEN not in rendered(info.value)
    assert all(TOKEN not in record.getMessage() for record in caplog.records)


async def test_an_httpx_message_quoting_the_header_is_redacted() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.LocalProtocolError(f"Illegal header value {request.headers['authorization']!r}")

    async with Client(
        "http://api.test", TOKEN, transport=httpx.MockTransport(handler), max_retries=0
    ) as client:
        with pytest.raises(APIConnectionError) as info:
            await client.orgs.get("o1")
    assert "[token]" in str(info.value)
    assert TOKEN not in rendered(info.value)


@pytest.mark.parametrize(
    "bad", [TOKEN + "\nX-Injected: 1", TOKEN + " other", TOKEN + "é", "", "   "]
)
def test_a_malformed_token_is_refused_without_quoting_it(bad: str) -> None:
    with pytest.raises(ValueError, match="token") as info:
        Client("http://api.test", bad)
    assert not isinstance(info.value, DocdeckError)
    assert TOKEN not in rendered(info.value)


def test_surrounding_whitespace_of_a_pasted_token_is_dropped() -> None:
    client = Client("http://api.test", f"  {TOKEN}\n")
    assert client.transport.http.headers["authorization"] == f"Bearer {TOKEN}"


async def _no_sleep(seconds: float) -> None:
    return None
