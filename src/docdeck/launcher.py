"""Opening the account the TUI shows; the only module that knows both server and TUI ends.

The embedded sandbox is one server per data directory, shared by every
`docdeck` and left running between sessions (see `docdeck._cli.sandbox_state`
for the files and locks, `docdeck._cli.background` for the server's side). A
`docdeck` reuses the running one when it is this version and schema, starts
one otherwise, and holds a lease on it until it exits; the server stops by
itself after its idle time with no lease. Quitting therefore never waits for a
server to stop.

The TUI only ever receives a `docdeck.gateway.Client` built from a base URL
and a token (and, for the sandbox, the path of its log to point at when it
has died).
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, TYPE_CHECKING

from docdeck import __version__
from docdeck._cli import sandbox_state as files
from docdeck._cli.locations import sandbox_db_path

if TYPE_CHECKING:
    import httpx

    from docdeck._cli.first_answer import FirstAnswer, FirstReads, FirstRequest
    from docdeck.config import Account
    from docdeck.gateway import Client

__all__ = [
    "SANDBOX_LOG_NAME",
    "Connect",
    "EmbeddedSandbox",
    "SandboxConnection",
    "SandboxError",
    "open_account",
    "stop_sandbox",
]

SANDBOX_LOG_NAME = "sandbox.log"
STARTUP_TIMEOUT = 30.0
"""Seconds to wait for a new sandbox's ready line; a first demo load takes well under one."""
STOP_TIMEOUT = 5.0

Connect = Callable[[], Awaitable["Client"]]


class SandboxError(RuntimeError):
    """The embedded sandbox server could not be started; the message says why."""


@dataclass(frozen=True)
class SandboxConnection:
    base_url: str
    token: str
    pid: int
    reused: bool
    """True when a sandbox already running was reused, False when this launch started it."""
    first_answers: tuple[FirstAnswer, ...] = ()
    """The sandbox's answers to the TUI's first requests, asked while the TUI was starting
    (`docdeck._cli.first_answer`)."""

    def __repr__(self) -> str:
        return (
            f"SandboxConnection(base_url={self.base_url!r}, token='**********', "
            f"pid={self.pid}, reused={self.reused})"
        )


def _schema() -> int:
    from docdeck.server.store.schema import SCHEMA_VERSION

    return SCHEMA_VERSION


class EmbeddedSandbox:
    """This process's use of the shared sandbox on one database.

    `begin()` finds or starts the server in a daemon thread (a second `docdeck`
    may wait there on the lock while the first one's server starts), so the UI
    loads meanwhile; `wait_ready()` awaits the result. Once connected, the
    process holds its lease until it exits.
    """

    def __init__(
        self,
        db_path: Path,
        *,
        idle_timeout: float | None = None,
        startup_timeout: float = STARTUP_TIMEOUT,
        first_request: FirstRequest | None = None,
        first_reads: FirstReads | None = None,
    ) -> None:
        """`first_request`: asked of the sandbox as soon as it is found or started, for the
        client's first request (`docdeck._cli.first_answer`); `first_reads`, when given:
        what to ask instead, several requests (`docdeck open`'s first screen)."""
        self.db_path = db_path
        self.directory = db_path.parent
        self.log_path = self.directory / SANDBOX_LOG_NAME
        self.idle_timeout = idle_timeout or files.DEFAULT_IDLE_MINUTES * 60
        self.startup_timeout = startup_timeout
        self.first_request = first_request
        self.first_reads = first_reads
        self._lease: IO[bytes] | None = None
        self._thread: threading.Thread | None = None
        self._outcome: SandboxConnection | BaseException | None = None
        self._done = threading.Event()
        self._waiters: list[Callable[[], None]] = []
        self._waiters_lock = threading.Lock()

    # ----- from the event loop ---------------------------------------------------------------

    def begin(self, *, again: bool = False) -> None:
        """Find or start the sandbox in the background, unless under way or already done."""
        if self._thread is not None:
            if not self._done.is_set():
                return
            if not again and not isinstance(self._outcome, BaseException):
                return
        self._done.clear()
        self._outcome = None
        self._thread = threading.Thread(target=self._run, name="docdeck-sandbox", daemon=True)
        self._thread.start()

    def restart(self) -> None:
        """Look again (the server died): reuse what runs now, or start a new one."""
        self.begin(again=True)

    async def wait_ready(self) -> SandboxConnection:
        """The sandbox's base URL and token (a failed attempt is tried again)."""
        import asyncio

        self.begin()
        if not self._done.is_set():
            # A daemon thread of our own, not the loop's executor: that one is joined when the
            # app's loop closes, so a quit while the server starts would wait for it.
            loop = asyncio.get_running_loop()
            arrived: asyncio.Future[None] = loop.create_future()

            def wake() -> None:
                if not arrived.done():
                    arrived.set_result(None)

            def deliver() -> None:
                with suppress(RuntimeError):  # the loop may be closed by now
                    loop.call_soon_threadsafe(wake)

            with self._waiters_lock:
                self._waiters.append(deliver)
                finished = self._done.is_set()
            if not finished:
                await arrived
        outcome = self._outcome
        if isinstance(outcome, BaseException):
            raise outcome
        assert outcome is not None
        return outcome

    def release(self) -> None:
        """Give up this process's lease now (it is otherwise dropped when the process exits)."""
        lease, self._lease = self._lease, None
        if lease is not None:
            lease.close()

    @property
    def settled(self) -> bool:
        """True once the sandbox has been found or started (or that failed)."""
        return self._done.is_set()

    # ----- in the thread ---------------------------------------------------------------------

    def _run(self) -> None:
        try:
            connection = self.ensure()
            reads, request = self.first_reads, self.first_request
            if reads is not None or request is not None:
                from docdeck._cli.first_answer import ask_all, reads_of

                if reads is None and request is not None:
                    reads = reads_of(request)
                if reads is not None:
                    answers = ask_all(connection.base_url, connection.token, reads)
                    connection = replace(connection, first_answers=answers)
            self._outcome = connection
        except BaseException as error:
            self._outcome = error
        finally:
            with self._waiters_lock:
                self._done.set()
                waiters, self._waiters = self._waiters, []
            for deliver in waiters:
                deliver()

    def ensure(self) -> SandboxConnection:
        """Reuse the running sandbox or start one; then hold a lease on it. Blocking."""
        try:
            with files.state_lock(self.directory):
                connection = self._reuse()
                if connection is None:
                    connection = self._start()
                if self._lease is None:
                    self._lease = files.take_lease(self.directory)
                return connection
        except OSError as error:
            raise SandboxError(
                f"cannot prepare the sandbox in {self.directory}: {error.strerror or error}"
            ) from None

    def _reuse(self) -> SandboxConnection | None:
        """The recorded sandbox if it is ours to use; anything else recorded is cleared."""
        state = files.read_state(self.directory)
        if state is None:
            files.clear_state(self.directory)
            return None
        about = files.probe(state.port) if files.pid_alive(state.pid) else None
        if about is None or about.get("pid") != state.pid:
            # Dead, or the port now belongs to another program: forget it, quietly.
            files.clear_state(self.directory)
            return None
        token = files.read_token(self.directory)
        same = (
            about.get("version") == __version__
            and about.get("schema") == _schema()
            and about.get("db") == str(self.db_path.resolve())
        )
        if same and token is not None:
            return SandboxConnection(state.base_url, token, state.pid, reused=True)
        _terminate(state.pid)  # another docdeck version's (or a broken) sandbox: replace it
        files.clear_state(self.directory)
        return None

    def _start(self) -> SandboxConnection:
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        command = [
            sys.executable,
            "-m",
            "docdeck",
            "serve",
            "--background",
            "--db",
            str(self.db_path),
            "--idle-timeout",
            f"{self.idle_timeout:g}",
        ]
        with self.log_path.open("wb") as log:
            process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=log,
                # Its own session: it outlives this terminal and ignores its signals.
                start_new_session=True,
                cwd="/",
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        assert process.stdout is not None
        try:
            line = _read_line(process.stdout, self.startup_timeout)
        finally:
            process.stdout.close()
        state = files.read_state(self.directory)
        token = files.read_token(self.directory)
        if line.strip() == b"ready" and state is not None and token and state.pid == process.pid:
            return SandboxConnection(state.base_url, token, state.pid, reused=False)
        if not line:
            code = _exit_code(process)
            if code is None:
                _terminate(process.pid)
                # It may have recorded itself just before it was stopped (or been killed).
                files.clear_state(self.directory, pid=process.pid)
                raise SandboxError(
                    f"the sandbox server did not start within {self.startup_timeout:g} s "
                    f"(log: {self.log_path})"
                )
            raise SandboxError(f"the sandbox server {self._why_dead(code)}")
        _terminate(process.pid)
        files.clear_state(self.directory, pid=process.pid)
        raise SandboxError(f"the sandbox server gave no usable state (log: {self.log_path})")

    def _why_dead(self, code: int) -> str:
        try:
            lines = self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            lines = []
        said = next((text.strip() for text in reversed(lines) if text.strip()), "")
        exited = f"exited with code {code}"
        return f"{exited}: {said}" if said else f"{exited} (log: {self.log_path})"


def _read_line(stream: IO[bytes], timeout: float) -> bytes:
    """One line, or b"" at end of file or when the time is up."""
    deadline = time.monotonic() + timeout
    data = b""
    fd = stream.fileno()
    while not data.endswith(b"\n"):
        left = deadline - time.monotonic()
        if left <= 0:
            return b""
        readable, _, _ = select.select([fd], [], [], left)
        if not readable:
            return b""
        chunk = os.read(fd, 256)
        if not chunk:
            return b""
        data += chunk
    return data


def _exit_code(process: subprocess.Popen[bytes]) -> int | None:
    with suppress(subprocess.TimeoutExpired):
        return process.wait(timeout=2)
    return None


def _terminate(pid: int, timeout: float = STOP_TIMEOUT) -> bool:
    """SIGTERM (a graceful stop), then SIGKILL; True once the process is gone."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return True
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with suppress(ChildProcessError):
                if os.waitpid(pid, os.WNOHANG)[0] == pid:  # our own child: reap it
                    return True
            if not files.pid_alive(pid):
                return True
            time.sleep(0.02)
    return not files.pid_alive(pid)


def stop_sandbox(directory: Path) -> files.SandboxState | None:
    """Stop the shared sandbox of that data directory; the state it had, None if none ran."""
    with files.state_lock(directory):
        state = files.read_state(directory)
        if state is None:
            files.clear_state(directory)
            return None
        about = files.probe(state.port) if files.pid_alive(state.pid) else None
        if about is None or about.get("pid") != state.pid:
            files.clear_state(directory)
            return None
        if not _terminate(state.pid):
            raise SandboxError(f"the sandbox server (pid {state.pid}) did not stop")
        files.clear_state(directory)
        return state


@contextmanager
def open_account(
    account: Account, *, db_path: Path | None = None, sandbox: EmbeddedSandbox | None = None
) -> Iterator[Connect]:
    """A `connect()` coroutine function for the account.

    For the sandbox, `connect()` looks again each time it is called after a
    failure, so the TUI's "restart" is just another `connect()`.
    """
    if not account.is_sandbox:
        assert account.base_url is not None and account.token is not None
        base_url, secret = account.base_url, account.token

        async def connect_remote() -> Client:
            from docdeck.gateway import Client

            return Client(base_url, secret.get_secret_value())

        yield connect_remote
        return

    yield sandbox_connect(sandbox or EmbeddedSandbox(db_path or sandbox_db_path()))


def sandbox_connect(sandbox: EmbeddedSandbox) -> Connect:
    sandbox.begin()
    calls = 0

    async def connect_sandbox() -> Client:
        nonlocal calls
        from docdeck.gateway import Client, Prefetched

        calls += 1
        if calls > 1:
            sandbox.restart()  # the TUI asks again: the server it had may have died

        def plain_http() -> httpx.AsyncBaseTransport:
            import httpx

            # The sandbox speaks plain HTTP on loopback: skipping the CA bundle loses nothing.
            return httpx.AsyncHTTPTransport(verify=False)

        # While a server starts, httpx's transport is built now (the UI waits anyway). With
        # one running, httpx is not imported before the first view: the client is handed the
        # first answer, and builds its transport when it must send (or the app warms it up
        # once the tree is live).
        made = None if sandbox.settled else plain_http()
        connection = await sandbox.wait_ready()
        prefetched = [
            Prefetched(answer.url, answer.authorization, answer.headers, answer.body, answer.status)
            for answer in connection.first_answers
        ]
        return Client(
            connection.base_url,
            connection.token,
            transport=made,
            make_transport=None if made is not None else plain_http,
            prefetched=prefetched,
        )

    return connect_sandbox
