"""`docdeck serve --background`: the shared embedded sandbox's own side of the protocol.

It answers `GET /_docdeck/sandbox` (who it is, how long idle) in front of the
API, writes the state and token files once it accepts requests, says `ready`
on stdout for the launcher that started it, and stops after its idle time when
no `docdeck` holds a lease (see `docdeck._cli.sandbox_state`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

from docdeck import __version__
from docdeck._cli.sandbox_state import (
    PROBE_PATH,
    SandboxState,
    clear_state,
    has_clients,
    state_lock,
    write_state,
)

__all__ = ["READY_LINE", "run_in_background"]

READY_LINE = b"ready\n"

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class Watched:
    """The API app, with the time of the last request kept and the probe answered."""

    def __init__(self, app: ASGIApp, describe: Callable[[], dict[str, Any]]) -> None:
        self.app = app
        self.describe = describe
        self.last_active = time.monotonic()
        self.in_flight = 0

    @property
    def idle_s(self) -> float:
        return 0.0 if self.in_flight else time.monotonic() - self.last_active

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["path"] == PROBE_PATH:  # not a client's request: leaves the idle time alone
            body = json.dumps(self.describe()).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ]
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        self.in_flight += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.in_flight -= 1
            self.last_active = time.monotonic()


def run_in_background(
    server: Any, sock: socket.socket, db_path: Path, port: int, token: str, idle_timeout: float
) -> None:
    from docdeck.server.store.schema import SCHEMA_VERSION

    directory = db_path.parent
    state = SandboxState(
        pid=os.getpid(),
        port=port,
        db=str(db_path.resolve()),
        version=__version__,
        schema=SCHEMA_VERSION,
        idle_timeout_s=idle_timeout,
        started_at=time.time(),
    )

    def describe() -> dict[str, Any]:
        return {
            "service": "docdeck-sandbox",
            "pid": state.pid,
            "version": state.version,
            "schema": state.schema,
            "db": state.db,
            "idle_s": round(watched.idle_s, 1),
            "idle_timeout_s": idle_timeout,
            "clients": has_clients(directory),
            "started_at": state.started_at,
        }

    watched = Watched(server.config.app, describe)
    server.config.app = watched
    server.config.loaded = False  # uvicorn wraps config.app when it loads

    async def serve() -> None:
        task = asyncio.create_task(server.serve(sockets=[sock]))
        while not server.started and not task.done():
            await asyncio.sleep(0.005)
        if not server.started or server.should_exit or task.done():
            await task  # it failed to start, or a stop came while it started: never recorded
            return
        write_state(directory, state, token)
        _say_ready()
        watcher = asyncio.create_task(_stop_when_idle(server, watched, directory, idle_timeout))
        try:
            await task
        finally:
            watcher.cancel()

    # However it ends (its idle time, a signal: `serve._signals_stop`, an error), no state
    # file is left naming a dead process.
    try:
        # The event loop uvicorn's own `run` would use: uvloop when installed (`loop="auto"`).
        with asyncio.Runner(loop_factory=server.config.get_loop_factory()) as runner:
            runner.run(serve())
    finally:
        clear_state(directory, pid=state.pid)


def _say_ready() -> None:
    """One line for the launcher; then stdout goes nowhere, so a launcher gone cannot hurt us."""
    with contextlib.suppress(OSError):
        os.write(sys.stdout.fileno(), READY_LINE)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


async def _stop_when_idle(server: Any, watched: Watched, directory: Path, timeout: float) -> None:
    """Stop after `timeout` seconds without a request while no `docdeck` holds a lease.

    The check and the removal of the state file happen under the state lock, so
    a `docdeck` starting at that moment either took its lease first (we stay) or
    finds no state and starts a new sandbox (we go).
    """
    period = min(30.0, max(0.05, timeout / 4))
    while True:
        await asyncio.sleep(period)
        if has_clients(directory):
            watched.last_active = time.monotonic()
            continue
        if watched.idle_s < timeout:
            continue
        with state_lock(directory, blocking=False) as locked:
            if not locked or has_clients(directory):
                continue
            clear_state(directory, pid=os.getpid())
            server.should_exit = True
            return
