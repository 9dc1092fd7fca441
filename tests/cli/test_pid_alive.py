"""`pid_alive`: a process that has exited is not alive, reaped or not."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from docdeck._cli import sandbox_state as files


def _state(pid: int) -> str:
    line = Path(f"/proc/{pid}/stat").read_bytes()
    return line[line.rfind(b")") + 2 :].split()[0].decode()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_an_exited_process_not_reaped_yet_is_not_alive() -> None:
    """A sandbox left by a docdeck that has quit is the init process's child; once stopped
    it stays a zombie until init reaps it (late, in some containers). `docdeck sandbox stop`
    asked `pid_alive` and said "did not stop" of a server that had stopped."""
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert files.pid_alive(child.pid)
        child.send_signal(signal.SIGKILL)
        deadline = time.monotonic() + 20
        while _state(child.pid) != "Z":  # exited; nobody has read its status yet
            assert time.monotonic() < deadline, "the child never exited"
            time.sleep(0.01)
        assert not files.pid_alive(child.pid)
    finally:
        child.kill()
        child.wait()
    assert not files.pid_alive(child.pid)
