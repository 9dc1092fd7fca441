"""Every CLI test gets its own config and data directories and a clean DOCDECK_ environment."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def isolated_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, Path]]:
    """Own config, data and cache directories; a background sandbox started there is stopped."""
    for name in list(os.environ):
        if name.startswith("DOCDECK_"):
            monkeypatch.delenv(name)
    config_dir, data_dir = tmp_path / "config", tmp_path / "data"
    monkeypatch.setenv("DOCDECK_CONFIG_DIR", str(config_dir))
    monkeypatch.setenv("DOCDECK_DATA_DIR", str(data_dir))
    monkeypatch.setenv("DOCDECK_CACHE_DIR", str(tmp_path / "cache"))
    yield config_dir, data_dir
    # A docdeck that failed after its early start may still be starting one in its thread.
    for thread in threading.enumerate():
        if thread.name == "docdeck-sandbox":
            thread.join(timeout=60)
    if data_dir.is_dir():
        from docdeck.launcher import stop_sandbox

        stop_sandbox(data_dir)


@pytest.fixture
def config_file(isolated_dirs: tuple[Path, Path]) -> Path:
    return isolated_dirs[0] / "config.toml"


@pytest.fixture
def live_server(sandbox_db: Path) -> Iterator[str]:
    """The sandbox app on a real loopback port, served by uvicorn in a thread; yields its URL."""
    import uvicorn

    from docdeck._cli.serve import bind_socket
    from docdeck.server import create_app

    sock = bind_socket("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(create_app(sandbox_db), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started and thread.is_alive():
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture
def closed_port_url() -> str:
    """A loopback URL on which nothing listens."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"
