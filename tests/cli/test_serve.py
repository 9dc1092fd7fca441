"""`docdeck serve` over a real loopback port, in a subprocess, stopped the way a user stops it."""

from __future__ import annotations

import asyncio
import re
import signal
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from pathlib import Path

import httpx
import pytest

from docdeck._cli.serve import network_warning, public_url
from docdeck.cli import CLIError
from docdeck.server import mint_token

pytestmark = pytest.mark.loopback

URL = re.compile(r"sandbox API at (http://127\.0\.0\.1:\d+)/v1")


def _serve(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "docdeck", "serve", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _banner(server: subprocess.Popen[str], lines: int = 3) -> list[str]:
    """The first lines of output; a server that never prints is killed rather than waited on."""
    assert server.stdout is not None
    stdout = server.stdout
    with ThreadPoolExecutor(max_workers=1) as pool:
        reading = pool.submit(lambda: [stdout.readline() for _ in range(lines)])
        try:
            return reading.result(timeout=60)
        except FutureTimeout:
            server.kill()  # unblocks the reader with EOF
            raise AssertionError("docdeck serve printed no banner within 60 s") from None


@pytest.mark.parametrize("stop_signal", [signal.SIGINT, signal.SIGTERM])
def test_serve_answers_and_stops_cleanly(tmp_path: Path, stop_signal: signal.Signals) -> None:
    db = tmp_path / "served.db"
    server = _serve("--demo", "--port", "0", "--db", str(db), "--log-level", "warning")
    try:
        banner = _banner(server)
        found = URL.search(banner[0])
        assert found, banner
        assert banner[1] == "Demo accounts:\n"
        admin_email = banner[2].split()[1]
        assert banner[2].split()[0] == "admin"

        token = mint_token(db, admin_email)
        answer = httpx.get(
            f"{found.group(1)}/v1/orgs", headers={"Authorization": f"Bearer {token}"}, timeout=10
        )
        assert answer.status_code == 200
        assert len(answer.json()["items"]) >= 2
    finally:
        server.send_signal(stop_signal)
        _, err = server.communicate(timeout=20)

    assert server.returncode == 0
    assert "Traceback" not in err
    assert "docdeck: sandbox server stopped" in err


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = _serve("--port", str(port), "--db", str(tmp_path / "x.db"))
        out, err = server.communicate(timeout=20)

    assert server.returncode == 2
    assert out == ""
    assert err.splitlines() == [
        f"docdeck: error: port {port} on 127.0.0.1 is already in use; choose another with --port"
    ]


def test_python_dash_m_docdeck_runs() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "docdeck", "--version"], capture_output=True, text=True, check=False
    )
    assert (done.returncode, done.stdout.startswith("docdeck ")) == (0, True)


@pytest.mark.parametrize("loaded", [True, False])
def test_serve_without_demo_lists_the_demo_accounts_a_database_already_holds(
    sandbox_db: Path, tmp_path: Path, loaded: bool
) -> None:
    db = sandbox_db if loaded else tmp_path / "fresh.db"
    server = _serve("--port", "0", "--db", str(db), "--log-level", "warning")
    try:
        banner = _banner(server, lines=3)
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=20)
    assert URL.search(banner[0]), banner
    if loaded:
        assert banner[1] == "Demo accounts:\n"
        assert banner[2].split()[:2] == ["admin", "ada@northwind.dev"]
    else:
        assert banner[1] == "(--demo loads the demo workspace into an empty database)\n"
        assert banner[2].startswith("Get a token with: docdeck token create")
    assert server.returncode == 0


@pytest.mark.parametrize("address", ["0.0.0.0", "::", "192.168.1.5", "10.0.0.2"])
def test_listening_beyond_loopback_warns_that_the_network_can_reach_it(address: str) -> None:
    warning = network_warning(address)
    assert warning is not None
    assert "reachable from the network" in warning and "--host 127.0.0.1" in warning


@pytest.mark.parametrize("address", ["127.0.0.1", "127.0.0.2", "::1"])
def test_listening_on_loopback_says_nothing(address: str) -> None:
    assert network_warning(address) is None


def test_the_public_url_defaults_to_the_bound_address_and_is_checked() -> None:
    assert public_url(None, "127.0.0.1", 8080) == "http://127.0.0.1:8080"
    assert public_url(None, "0.0.0.0", 8080) == "http://127.0.0.1:8080"
    assert public_url(None, "::", 9) == "http://[::1]:9"
    assert public_url("https://docs.example.org/", "0.0.0.0", 1) == "https://docs.example.org"
    for bad in ("docs.example.org", "ftp://x.org", "http://", "http://x.org/?a=1", "http://u@x"):
        with pytest.raises(CLIError, match="--public-url"):
            public_url(bad, "127.0.0.1", 1)


def test_serve_builds_urls_from_public_url_not_the_host_header(tmp_path: Path) -> None:
    db = tmp_path / "served.db"
    with socket.socket() as probe:  # a free port: the banner shows the public URL, not it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = _serve(
        "--demo", "--port", str(port), "--db", str(db), "--public-url", "https://docs.example.org/"
    )
    try:
        banner = _banner(server)
        assert "sandbox API at https://docs.example.org/v1" in banner[0], banner
        token = mint_token(db, banner[2].split()[1])
        answer = httpx.get(
            f"http://127.0.0.1:{port}/v1/orgs",
            headers={"Authorization": f"Bearer {token}", "Host": "evil.example"},
            timeout=10,
        )
        assert answer.status_code == 200
        for org in answer.json()["items"]:
            assert org["urls"]["location"].startswith("https://docs.example.org/v1/orgs/")
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=20)
    assert server.returncode == 0


def test_the_app_is_built_without_collections_and_they_come_back_even_on_error() -> None:
    import gc

    from docdeck._cli.serve import _no_collections

    assert gc.isenabled()
    with _no_collections():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), _no_collections():
        raise RuntimeError("the database is locked")
    assert gc.isenabled()


@pytest.mark.parametrize(("flag", "cached"), [((), True), (("--no-answer-cache",), False)])
def test_serve_keeps_answers_unless_told_not_to(
    tmp_path: Path, flag: tuple[str, ...], cached: bool
) -> None:
    """`serve --no-answer-cache` builds an app whose fast lane answers every GET afresh (the
    benches measure the request path itself with it)."""
    from docdeck._cli.serve import _build
    from docdeck.cli import build_parser

    db = tmp_path / "cache.db"
    args = build_parser().parse_args(["serve", "--demo", "--db", str(db), *flag])
    app, accounts, _ = _build(args, db, "http://sandbox.test", background=False)
    token = mint_token(db, accounts[0].email)

    async def ask() -> int:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://sandbox.test") as c:
            for _ in range(2):
                answer = await c.get("/v1/orgs", headers={"Authorization": f"Bearer {token}"})
                assert answer.status_code == 200
        cache = app.state.fast_lane.cache
        return -1 if cache is None else len(cache)

    kept = asyncio.run(ask())
    assert (kept == 1) if cached else (kept == -1)
