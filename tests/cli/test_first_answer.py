"""The tree's first request, asked of the sandbox by the launcher while the TUI starts.

The client the TUI gets must answer the tree's first request with it, and only that
one; anything else (another request, a second one, an answer other than a 200) goes
over httpx as before, so a refused token still fails as it always did.
"""

from __future__ import annotations

import socket
import threading
from pathlib import Path

import httpx
import pytest

from docdeck._cli import sandbox_state as files
from docdeck._cli.first_answer import FirstAnswer, ask
from docdeck.gateway import APIStatusError
from docdeck.launcher import EmbeddedSandbox, sandbox_connect
from docdeck.tui.kit.entries import OrgEntry, RootEntry
from docdeck.tui.orgs.first_request import ROOT_REQUEST
from docdeck.tui.orgs.loaders import load_children

pytestmark = pytest.mark.loopback


@pytest.fixture
def data_dir(isolated_dirs: tuple[Path, Path]) -> Path:
    return isolated_dirs[1]


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The requests that went over httpx's own transport (`path?query`)."""
    seen: list[str] = []

    class Recording(httpx.AsyncHTTPTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            seen.append(request.url.raw_path.decode())
            return await super().handle_async_request(request)

    monkeypatch.setattr(httpx, "AsyncHTTPTransport", Recording)
    return seen


def _titles(entries: list[object]) -> list[str]:
    return [entry.organization.title for entry in entries if isinstance(entry, OrgEntry)]


async def test_the_trees_first_request_is_answered_without_sending_it(
    data_dir: Path, sent: list[str]
) -> None:
    sandbox = EmbeddedSandbox(data_dir / "sandbox.db", first_request=ROOT_REQUEST)
    client = await sandbox_connect(sandbox)()
    async with client:
        first = await load_children(client, RootEntry())
        assert sent == []  # the launcher's answer, for exactly the request the tree makes

        again = await load_children(client, RootEntry())  # a refresh: asked anew

    assert sent == ["/v1/orgs?limit=100"]
    assert _titles(first) == _titles(again)
    assert "Northwind Labs" in _titles(first)


async def test_the_answer_serves_only_a_first_request_that_is_the_same(
    data_dir: Path, sent: list[str]
) -> None:
    sandbox = EmbeddedSandbox(data_dir / "sandbox.db", first_request=ROOT_REQUEST)
    client = await sandbox_connect(sandbox)()
    async with client:
        small = await client.orgs.list(limit=1)
        await load_children(client, RootEntry())

    assert len(small.items) == 1
    assert sent == ["/v1/orgs?limit=1", "/v1/orgs?limit=100"]


async def test_a_refused_token_is_not_answered_early_and_fails_as_before(
    data_dir: Path, sent: list[str]
) -> None:
    EmbeddedSandbox(data_dir / "sandbox.db").ensure()  # the sandbox runs
    (data_dir / "sandbox.token").write_text("not-the-token\n")
    state = files.read_state(data_dir)
    assert state is not None
    assert ask(state.base_url, "not-the-token", ROOT_REQUEST) is None

    sandbox = EmbeddedSandbox(data_dir / "sandbox.db", first_request=ROOT_REQUEST)
    client = await sandbox_connect(sandbox)()
    async with client:
        with pytest.raises(APIStatusError) as caught:
            await load_children(client, RootEntry())

    assert caught.value.status_code == 401
    assert sent == ["/v1/orgs?limit=100"]


def _serve_once(answer: bytes) -> int:
    """A loopback port that answers one request with `answer` and closes."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(4096)
            conn.sendall(answer)
        listener.close()

    threading.Thread(target=serve, daemon=True).start()
    return int(listener.getsockname()[1])


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        (b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX-A: b\r\n\r\n{}", (200, {"x-a": "b"}, b"{}")),
        (b"HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n{}", None),  # cut short
        (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n", None),
        (b"SSH-2.0-OpenSSH\r\n", None),
        ("HTTP/1.1 ²00 OK\r\nContent-Length: 2\r\n\r\n{}".encode("latin-1"), None),
    ],
)
def test_the_plain_get_trusts_only_a_whole_answer(
    answer: bytes, expected: tuple[int, dict[str, str], bytes] | None
) -> None:
    got = files.http_get(_serve_once(answer), "/x")
    if expected is None:
        assert got is None
    else:
        assert got is not None
        status, headers, body = got
        assert (status, body) == (expected[0], expected[2])
        assert headers.items() >= expected[1].items()


def test_the_plain_get_imports_no_codec_for_the_address() -> None:
    """Before the first frame: `socket.create_connection` would encode the host with the
    idna codec (encodings.idna and stringprep imported); a plain connect does not."""
    import subprocess
    import sys

    port = _serve_once(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}")
    code = (
        "import sys\n"
        "from docdeck._cli.sandbox_state import http_get\n"
        f"print(http_get({port}, '/x')[0], 'encodings.idna' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.split() == ["200", "False"]


async def test_a_change_requests_first_diff_is_read_by_the_launcher(
    data_dir: Path, sent: list[str]
) -> None:
    """`docdeck open <change request>`: the space, the change request, its changes and both
    sides of the first changed page are the launcher's answers; none is sent by the client,
    and the pane shows that page's diff."""
    from docdeck.gateway import Client
    from docdeck.tui.app import DocdeckApp
    from docdeck.tui.kit.open_target import parse_target
    from docdeck.tui.review import DiffView, ReviewScreen
    from docdeck.tui.review.first_reads import change_request_reads

    running = EmbeddedSandbox(data_dir / "sandbox.db").ensure()
    async with Client(running.base_url, running.token) as client:
        async for org in client.orgs.list():
            async for space in client.spaces.list(org.id):
                if space.title == "Public API Reference":
                    target = parse_target(f"{space.urls.app}/change-requests/4")
    sent.clear()
    sandbox = EmbeddedSandbox(
        data_dir / "sandbox.db",
        first_reads=change_request_reads(target.space, target.change_request or ""),
    )
    app = DocdeckApp(sandbox_connect(sandbox), "sandbox", open_at=target)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(400):
            screen = app.screen
            views = screen.query(DiffView) if isinstance(screen, ReviewScreen) else []
            if views and views.first().page_id:
                break
            await pilot.pause(0.05)
        else:
            raise AssertionError(f"no diff on screen; sent: {sent}")
        shown = screen.query_one(DiffView).page_id
        first_diff = [
            request
            for request in sent
            if request.endswith(f"/{target.space}")
            or request.split("?")[0].endswith("/change-requests/4")
            or "/changes?" in request
            or f"/page/{shown}?format=markdown" in request
        ]
        assert first_diff == [], sent
    answered = [answer.url for answer in sandbox_answers(sandbox)]
    assert len(answered) == 5, answered  # the space, the CR, its changes, both sides
    assert all(f"/page/{shown}?format=markdown" in url for url in answered[3:])


FIRST_LINE = "Everything you need before your first request."
"""The demo's Public API Reference: its first page's first paragraph."""


async def test_a_spaces_first_page_is_read_by_the_launcher(data_dir: Path, sent: list[str]) -> None:
    """`docdeck open <space>`: the space, its page tree, its first page and its breadcrumb
    are the launcher's answers; none is sent by the client, and the page is shown."""
    from docdeck.gateway import Client
    from docdeck.tui.app import DocdeckApp
    from docdeck.tui.kit.open_target import parse_target
    from docdeck.tui.space import SpaceScreen
    from docdeck.tui.space.first_reads import space_reads
    from tui.helpers import screen_lines

    running = EmbeddedSandbox(data_dir / "sandbox.db").ensure()
    async with Client(running.base_url, running.token) as client:
        async for org in client.orgs.list():
            async for space in client.spaces.list(org.id):
                if space.title == "Public API Reference":
                    target = parse_target(space.urls.app)
    sent.clear()
    sandbox = EmbeddedSandbox(data_dir / "sandbox.db", first_reads=space_reads(target.space))
    app = DocdeckApp(sandbox_connect(sandbox), "sandbox", open_at=target)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(400):
            screen = app.screen
            if isinstance(screen, SpaceScreen) and FIRST_LINE in "\n".join(screen_lines(pilot)):
                break
            await pilot.pause(0.05)
        else:
            shown = "\n".join(screen_lines(pilot))
            raise AssertionError(f"no page on screen; sent: {sent}\n{shown}")
        await pilot.pause(0.2)
        trail = " › ".join(screen.trail)
    answered = [answer.url for answer in sandbox_answers(sandbox)]
    assert len(answered) >= 5, answered  # the space, its tree, the page, the breadcrumb
    paths = [url.split("/v1", 1)[1] for url in answered]
    assert [p for p in sent if p.split("/v1", 1)[1] in paths] == [], (sent, paths)
    assert trail.startswith("Northwind Labs"), trail


def sandbox_answers(sandbox: EmbeddedSandbox) -> tuple[FirstAnswer, ...]:
    connection = sandbox._outcome
    assert connection is not None and not isinstance(connection, BaseException)
    return connection.first_answers
