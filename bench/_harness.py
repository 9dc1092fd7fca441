"""Shared bench plumbing: run a command in a pseudo-terminal and wait for a ready-file timestamp.

A real pty (80x24) rather than Textual's headless driver, so both the bare app
and docdeck pay for real terminal setup and rendering, as a user's would.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import resource
import select
import signal
import statistics
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path(__file__).resolve().parent / "results"
PYTHON = sys.executable


class BenchError(RuntimeError):
    pass


def _compile_sources() -> None:
    """Byte-compile docdeck's sources before anything is timed, as an installed package is.

    With PYTHONDONTWRITEBYTECODE set (it is on some machines, CI's among them) an editable
    install never writes its .pyc files, and every launch compiled docdeck's ~70 modules
    from source first: about 200 ms of CPU counted against docdeck and not against the bare
    app, whose libraries come compiled. `make` does the same after installing."""
    import compileall

    compileall.compile_dir(ROOT / "src", quiet=1)


_compile_sources()


@dataclass(frozen=True)
class Run:
    ready_s: float
    """Spawn to the time the process wrote to the ready file."""
    first_paint_s: float | None
    """Spawn to the first terminal output containing the marker text (None: never seen)."""
    exit_code: int | None
    """How the process ended after the quit keys (None: it had to be killed)."""
    quit_s: float | None = None
    """From writing the quit keys to the process's exit (None: no quit keys, or killed)."""
    cpu_s: float | None = None
    """User + system CPU of the process (and the children it waited for), not of a server it
    left running in the background."""
    first_title_s: float | None = None
    """Spawn to the first terminal output containing `title_marker` (an organization's title)."""


def run_until_ready(
    command: Sequence[str],
    ready_file: Path,
    *,
    env: Mapping[str, str],
    marker: bytes,
    title_marker: bytes | None = None,
    timeout: float = 60.0,
    quit_keys: bytes | None = b"q",
    quiet_before_quit: float = 0.0,
    size: tuple[int, int] = (24, 80),
) -> Run:
    """Run `command` in a pty until it writes a wall-clock time to ready_file, then quit it."""
    ready_file.unlink(missing_ok=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[0], size[1], 0, 0))
    started = time.time()
    process = subprocess.Popen(
        list(command),
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env={**os.environ, **env, "TERM": "xterm-256color", "COLUMNS": str(size[1])},
        start_new_session=True,
        close_fds=True,
    )
    os.close(slave)
    output = bytearray()
    painted: float | None = None
    exit_code: int | None = None
    quit_s: float | None = None
    titled: float | None = None
    try:
        deadline = started + timeout
        while not _has_time(ready_file):
            if time.time() > deadline:
                raise BenchError(f"{command[-1]!r} not ready within {timeout} s: {_tail(output)}")
            if process.poll() is not None:
                raise BenchError(f"{command!r} exited with {process.returncode}: {_tail(output)}")
            # The ready time comes from the file's content, and select wakes at once on
            # output, so a lazy poll costs no accuracy and leaves the CPUs to the app.
            seen = len(output)
            _drain(master, output, 0.02)
            if painted is None and marker in output[max(0, seen - len(marker)) :]:
                painted = time.time()
            if title_marker and titled is None and title_marker in output[max(0, seen - 64) :]:
                titled = time.time()
        ready_at = float(ready_file.read_text())
        if painted is None or (title_marker and titled is None):
            # Painted and ready within one poll: take what is on the pty now.
            _drain(master, output, 0)
            if painted is None and marker in output:
                painted = min(time.time(), ready_at)
        # The live tree is painted just after the ready time is written: wait for it.
        until = time.time() + 5
        while title_marker and titled is None and time.time() < until:
            seen = len(output)
            _drain(master, output, 0.005)
            if title_marker in output[max(0, seen - 64) :]:
                titled = time.time()
        if quiet_before_quit:
            # Quit an app at rest, as a user does, not one still painting its last rows.
            until = time.time() + 10
            while time.time() < until:
                seen = len(output)
                _drain(master, output, quiet_before_quit)
                if len(output) == seen:
                    break
        quit_at = time.time()
        if quit_keys:
            os.write(master, quit_keys)
        end = time.time() + 15
        while process.poll() is None and time.time() < end:
            _drain(master, output, 0.005)
        exit_code = process.poll()
        if quit_keys and exit_code is not None:
            quit_s = time.time() - quit_at
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=10)
        os.close(master)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    first_paint = None if painted is None else painted - started
    first_title = None if titled is None else titled - started
    return Run(ready_at - started, first_paint, exit_code, quit_s, cpu, first_title)


def _has_time(path: Path) -> bool:
    try:
        return bool(path.read_text().strip())
    except OSError:
        return False


def _drain(fd: int, into: bytearray, wait: float) -> None:
    readable, _, _ = select.select([fd], [], [], wait)
    if readable:
        with contextlib.suppress(OSError):
            into += os.read(fd, 65536)


def _tail(output: bytearray) -> str:
    return output[-600:].decode("utf-8", "replace")


def summarize(samples: list[float]) -> dict[str, Any]:
    ordered = sorted(samples)
    return {
        "runs": len(samples),
        "median_s": round(statistics.median(ordered), 4),
        "min_s": round(ordered[0], 4),
        "max_s": round(ordered[-1], 4),
        "samples_s": [round(s, 4) for s in samples],
    }


def percentile(samples: Sequence[float], fraction: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(fraction * (len(ordered) - 1))))
    return ordered[index]


def write_result(name: str, data: dict[str, Any]) -> Path:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.json"
    data = {"benchmark": name, "python": sys.version.split()[0], "cpus": os.cpu_count(), **data}
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path


class Server:
    """`docdeck serve` on a free loopback port in a subprocess (the process under test)."""

    def __init__(self, db: Path, *, demo: bool = True, options: tuple[str, ...] = ()) -> None:
        command = [PYTHON, "-m", "docdeck", "serve", "--db", str(db), "--port", "0"]
        command += ["--log-level", "warning", *options] + (["--demo"] if demo else [])
        self.db = db
        self.log_path = db.with_suffix(".log")
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        if "sandbox API at " not in first:
            self.process.kill()
            raise BenchError(f"docdeck serve did not start: {self.log_path.read_text()[-500:]}")
        self.base_url = first.split("sandbox API at ", 1)[1].split()[0].removesuffix("/v1")

    def token(self, email: str | None = None) -> str:
        from docdeck.server import ensure_demo, mint_token

        return mint_token(self.db, email or ensure_demo(self.db)[0].email)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def tmux(*args: str) -> subprocess.CompletedProcess[str]:
    """One tmux command, its output captured (`new-session`, `capture-pane`, ...)."""
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False)


@contextlib.contextmanager
def tmux_server() -> Iterator[None]:
    """One tmux session kept open for a whole run. tmux's server exits with its last
    session, and a session started while it exits fails ("server exited unexpectedly"):
    a bench that starts one session per launch then died at random between two."""
    name = f"ddk-keep-{os.getpid()}"
    tmux("new-session", "-d", "-s", name, "sleep 86400")
    try:
        yield
    finally:
        tmux("kill-session", "-t", name)
