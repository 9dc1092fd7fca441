"""Starting the account the TUI opens; the only module that knows both server and TUI ends.

For the embedded sandbox it runs `docdeck serve --emit-connection` as a child
process: the server's imports and the demo load then happen in parallel with
the UI painting its shell, and a slow or crashed server cannot freeze the
terminal. The TUI only ever receives a `docdeck.gateway.Client` built from a
base URL and a token.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from docdeck._cli.locations import sandbox_db_path

if TYPE_CHECKING:
    import asyncio

    from docdeck.config import Account
    from docdeck.gateway import Client

__all__ = [
    "SANDBOX_LOG_NAME",
    "Connect",
    "SandboxConnection",
    "SandboxError",
    "SandboxProcess",
    "open_account",
    "open_sandbox",
]

SANDBOX_LOG_NAME = "sandbox.log"
STARTUP_TIMEOUT = 30.0
"""Seconds to wait for the sandbox's ready line; a first demo load takes well under one."""

Connect = Callable[[], Awaitable["Client"]]


class SandboxError(RuntimeError):
    """The embedded sandbox server could not be started; the message says why."""


@dataclass(frozen=True)
class SandboxConnection:
    base_url: str
    token: str

    def __repr__(self) -> str:
        return f"SandboxConnection(base_url={self.base_url!r}, token='**********')"


class SandboxProcess:
    """The sandbox server as a child process that never outlives docdeck."""

    def __init__(
        self,
        db_path: Path,
        *,
        log_path: Path | None = None,
        startup_timeout: float = STARTUP_TIMEOUT,
    ) -> None:
        self.db_path = db_path
        self.log_path = log_path or db_path.with_name(SANDBOX_LOG_NAME)
        self.startup_timeout = startup_timeout
        self._process: subprocess.Popen[bytes] | None = None
        self._connection: SandboxConnection | None = None
        self._ready_lock: asyncio.Lock | None = None
        self.exit_code: int | None = None
        """How the last child ended: 0 when it shut down on its own after `stop` closed stdin."""

    @property
    def pid(self) -> int | None:
        return self._process.pid if self._process else None

    def start(self) -> None:
        """Spawn the server and return at once; `wait_ready` collects its address."""
        if self._process is not None and self._process.poll() is None:
            return
        self._connection = None
        try:
            self.db_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            log: IO[bytes] = self.log_path.open("wb")
        except OSError as error:
            raise SandboxError(
                f"cannot prepare the sandbox in {self.db_path.parent}: {error.strerror}"
            ) from None
        command = [
            sys.executable,
            "-m",
            "docdeck",
            "serve",
            "--db",
            str(self.db_path),
            "--demo",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--emit-connection",
        ]
        with log:
            self._process = subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                # Its own session: terminal signals are ours to handle, not the server's.
                start_new_session=True,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        atexit.register(self.stop)

    async def wait_ready(self) -> SandboxConnection:
        """The server's base URL and admin token, once it accepts requests."""
        import asyncio

        if self._ready_lock is None:
            self._ready_lock = asyncio.Lock()
        async with self._ready_lock:
            if self._process is None or self._process.poll() is not None:
                self.start()
            if self._connection is None:
                try:
                    line = await asyncio.wait_for(self._ready_line(), self.startup_timeout)
                except TimeoutError:
                    self.stop()
                    raise SandboxError(
                        f"the sandbox server did not start within {self.startup_timeout:g} s "
                        f"(log: {self.log_path})"
                    ) from None
                self._connection = self._parse(line)
            return self._connection

    async def _ready_line(self) -> bytes:
        """Read the line in a daemon thread of our own, not the loop's executor.

        The loop's executor is joined when the app's loop closes, so a quit
        while the server starts would wait for it; a daemon thread is not.
        """
        import asyncio

        assert self._process is not None and self._process.stdout is not None
        stdout = self._process.stdout
        loop = asyncio.get_running_loop()
        arrived: asyncio.Future[bytes] = loop.create_future()

        def deliver(line: bytes) -> None:
            if not arrived.done():
                arrived.set_result(line)

        def read() -> None:
            try:
                line = stdout.readline()
            except (OSError, ValueError):
                line = b""
            with suppress(RuntimeError):  # the loop may be closed by now
                loop.call_soon_threadsafe(deliver, line)

        threading.Thread(target=read, name="docdeck-sandbox-ready", daemon=True).start()
        return await arrived

    def _parse(self, line: bytes) -> SandboxConnection:
        try:
            data = json.loads(line)
            return SandboxConnection(str(data["base_url"]), str(data["token"]))
        except (ValueError, KeyError, TypeError):
            pass
        code = None
        if self._process is not None:
            with suppress(subprocess.TimeoutExpired):  # alive but not making sense
                code = self._process.wait(timeout=5)
        self.stop()
        raise SandboxError(f"the sandbox server {self._why_dead(code)}")

    def _why_dead(self, code: int | None) -> str:
        try:
            lines = self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            lines = []
        said = next((text.strip() for text in reversed(lines) if text.strip()), "")
        exited = f"exited with code {code}" if code is not None else "gave no connection line"
        return f"{exited}: {said}" if said else f"{exited} (log: {self.log_path})"

    def stop(self, timeout: float = 3.0) -> None:
        """Close its stdin (it shuts down gracefully), then terminate, then kill."""
        process, self._process, self._connection = self._process, None, None
        if process is None:
            return
        atexit.unregister(self.stop)
        steps: tuple[Callable[[], None], ...] = (
            lambda: self._close_stdin(process),
            process.terminate,
            process.kill,
        )
        for step in steps:
            if process.poll() is not None:
                break
            step()
            try:
                process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                continue
        self.exit_code = process.poll()
        if process.stdout is not None:
            process.stdout.close()

    @staticmethod
    def _close_stdin(process: subprocess.Popen[bytes]) -> None:
        if process.stdin is not None:
            with suppress(OSError):
                process.stdin.close()


@contextmanager
def open_account(
    account: Account, *, db_path: Path | None = None, sandbox: SandboxProcess | None = None
) -> Iterator[Connect]:
    """A `connect()` coroutine function for the account; the sandbox is stopped on exit.

    The sandbox is spawned before this yields (or earlier, by the caller, passed
    as `sandbox`) so it starts while the UI loads.
    """
    if not account.is_sandbox:
        assert account.base_url is not None and account.token is not None
        base_url, secret = account.base_url, account.token

        async def connect_remote() -> Client:
            from docdeck.gateway import Client

            return Client(base_url, secret.get_secret_value())

        yield connect_remote
        return

    with open_sandbox(sandbox or SandboxProcess(db_path or sandbox_db_path())) as connect:
        yield connect


@contextmanager
def open_sandbox(running: SandboxProcess) -> Iterator[Connect]:
    """A `connect()` for the embedded sandbox, started now if it is not yet; stopped on exit."""
    running.start()

    async def connect_sandbox() -> Client:
        import httpx

        from docdeck.gateway import Client

        # Built while the server still starts, off the critical path. The sandbox speaks
        # plain HTTP on loopback, so skipping the CA bundle load loses nothing.
        plain_http = httpx.AsyncHTTPTransport(verify=False)
        connection = await running.wait_ready()
        return Client(connection.base_url, connection.token, transport=plain_http)

    try:
        yield connect_sandbox
    finally:
        running.stop()
