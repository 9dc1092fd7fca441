"""The shared embedded sandbox's files: state, token, lock and client leases. Standard library only.

One sandbox server per data directory outlives the `docdeck` that started it,
so the next `docdeck` opens at once instead of waiting for the server to
start. Who may reuse it is decided from files next to the database:

- `sandbox.json`: pid, port, database, docdeck version and schema of the
  running server, written by the server once it accepts requests;
- `sandbox.token`: the demo admin's token for it, mode 0600;
- `sandbox.lock`: an exclusive `flock` held while one process checks, starts,
  replaces or stops the sandbox, so two `docdeck` started together share one;
- `sandbox.clients`: every `docdeck` that uses the sandbox holds a shared
  `flock` on it until it exits (the kernel drops it even on a crash); the
  server stops after its idle time only when nobody holds one.

A pid can be reused and a port taken by another program, so the state is
trusted only when the server on that port says, on `GET /_docdeck/sandbox`,
that it is that pid.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any

from docdeck._cli.locations import DEFAULT_IDLE_MINUTES, write_private

__all__ = [
    "DEFAULT_IDLE_MINUTES",
    "PROBE_PATH",
    "SandboxState",
    "clear_state",
    "has_clients",
    "http_get",
    "pid_alive",
    "probe",
    "read_state",
    "read_token",
    "state_lock",
    "take_lease",
    "write_state",
]

PROBE_PATH = "/_docdeck/sandbox"
"""Answered by the sandbox process itself (not an API route): who it is and how idle."""

STATE_NAME = "sandbox.json"
TOKEN_NAME = "sandbox.token"
LOCK_NAME = "sandbox.lock"
CLIENTS_NAME = "sandbox.clients"


@dataclass(frozen=True)
class SandboxState:
    pid: int
    port: int
    db: str
    version: str
    schema: int
    idle_timeout_s: float
    started_at: float

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def _open_private(path: Path) -> int:
    return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)


@contextlib.contextmanager
def state_lock(directory: Path, *, blocking: bool = True) -> Iterator[bool]:
    """Hold `sandbox.lock`; yields False (and holds nothing) when not blocking and it is taken."""
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = _open_private(directory / LOCK_NAME)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | (0 if blocking else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(fd)  # closing drops the lock


def take_lease(directory: Path) -> IO[bytes]:
    """A shared lock on `sandbox.clients` for as long as the returned file stays open.

    The launcher keeps it open until its process ends; the kernel then drops the
    lock, so a `docdeck` that crashes never keeps the sandbox alive.
    """
    directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    lease = os.fdopen(_open_private(directory / CLIENTS_NAME), "rb", buffering=0)
    fcntl.flock(lease.fileno(), fcntl.LOCK_SH)
    return lease


def has_clients(directory: Path) -> bool:
    """True while any `docdeck` holds a lease (an exclusive try-lock fails)."""
    try:
        fd = _open_private(directory / CLIENTS_NAME)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def write_state(directory: Path, state: SandboxState, token: str) -> None:
    write_private(directory / TOKEN_NAME, token + "\n")
    write_private(directory / STATE_NAME, json.dumps(asdict(state)) + "\n")


def read_state(directory: Path) -> SandboxState | None:
    """The recorded sandbox, or None when there is none or the file is not one we wrote."""
    try:
        data = json.loads((directory / STATE_NAME).read_text(encoding="utf-8"))
        return SandboxState(
            pid=int(data["pid"]),
            port=int(data["port"]),
            db=str(data["db"]),
            version=str(data["version"]),
            schema=int(data["schema"]),
            idle_timeout_s=float(data["idle_timeout_s"]),
            started_at=float(data["started_at"]),
        )
    except (OSError, ValueError, KeyError, TypeError):
        return None


def read_token(directory: Path) -> str | None:
    try:
        token = (directory / TOKEN_NAME).read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return token or None


def clear_state(directory: Path, *, pid: int | None = None) -> None:
    """Remove the state and token files (only if they still describe `pid`, when given)."""
    if pid is not None:
        state = read_state(directory)
        if state is not None and state.pid != pid:
            return
    for name in (STATE_NAME, TOKEN_NAME):
        with contextlib.suppress(FileNotFoundError):
            (directory / name).unlink()


def pid_alive(pid: int) -> bool:
    """Whether process `pid` runs. A zombie does not: it has exited and only waits for its
    parent to read its status. A sandbox outlives the docdeck that started it, so its parent
    is then the init process, which may reap late (once a second in some containers, never
    in others); `docdeck sandbox stop` said "did not stop" of a server that had stopped."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process: alive, and certainly not our sandbox
    return not _zombie(pid)


def _zombie(pid: int) -> bool:
    """True when /proc says the process has exited and is not reaped yet (Linux); where
    there is no /proc, False (the signal's answer stands)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            line = stat.read()
    except OSError:
        return False
    # "pid (command) state ...": the command may hold spaces and parentheses
    state = line.rfind(b")") + 2
    return line[state : state + 1] == b"Z"


def http_get(
    port: int, target: str, headers: dict[str, str] | None = None, timeout: float = 1.0
) -> tuple[int, dict[str, str], bytes] | None:
    """GET `target` (a path with its query) from the loopback port: status, headers (names
    in lower case) and body, or None when there was no complete HTTP answer in time.

    Plain HTTP/1.0 over a socket (the server closes the connection after the body):
    this runs before the first frame, where importing httpx would cost more than the
    whole exchange.
    """
    lines = [f"GET {target} HTTP/1.0", f"Host: 127.0.0.1:{port}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode()
    chunks: list[bytes] = []
    deadline = time.monotonic() + timeout
    try:
        # Not `create_connection`: its getaddrinfo encodes the host with the "idna" codec
        # (encodings.idna and stringprep imported: ~2 ms before the first frame).
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as conn:
            conn.settimeout(timeout)
            conn.connect(("127.0.0.1", port))
            conn.sendall(request)
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None  # cut short: not an answer to trust
                conn.settimeout(left)
                chunk = conn.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
    except OSError:
        return None
    head, _, body = b"".join(chunks).partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parts = status_line.split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/1."):
        return None
    if not (parts[1].isascii() and parts[1].isdigit()):  # "²00" is a digit, not a number
        return None
    fields: dict[str, str] = {}
    for line in header_lines:
        name, colon, value = line.partition(":")
        if colon:
            fields[name.strip().lower()] = value.strip()
    length = fields.get("content-length")
    if "transfer-encoding" in fields or (length is not None and length != str(len(body))):
        return None  # framing this reader does not undo, or a body cut short
    return int(parts[1]), fields, body


def probe(port: int, timeout: float = 1.0) -> dict[str, Any] | None:
    """What the server on the loopback port says about itself, or None if it is not a sandbox."""
    answer = http_get(port, PROBE_PATH, timeout=timeout)
    if answer is None or answer[0] != 200:
        return None
    try:
        data = json.loads(answer[2])
    except ValueError:
        return None
    return data if isinstance(data, dict) and data.get("service") == "docdeck-sandbox" else None
