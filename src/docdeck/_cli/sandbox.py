"""`docdeck sandbox status|stop`: the background sandbox server, seen and stopped by hand."""

from __future__ import annotations

import argparse
import time

from docdeck._cli import sandbox_state as files
from docdeck._cli.locations import sandbox_db_path
from docdeck.cli import EXIT_OK, CLIError

__all__ = ["run_sandbox_status", "run_sandbox_stop"]


def _duration(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"


def run_sandbox_status(args: argparse.Namespace) -> int:
    """Prints what runs (exit 0) or that nothing does (exit 3, for scripts)."""
    directory = sandbox_db_path().parent
    state = files.read_state(directory)
    about = None
    if state is not None and files.pid_alive(state.pid):
        about = files.probe(state.port)
    if state is None or about is None or about.get("pid") != state.pid:
        print(f"no sandbox server is running (database: {sandbox_db_path()})")
        return 3
    idle = float(about.get("idle_s", 0))
    timeout = float(about.get("idle_timeout_s", state.idle_timeout_s))
    in_use = bool(about.get("clients"))
    if in_use:
        stops = "in use by a running docdeck; stops after it quits and"
        stops += f" {_duration(timeout)} without requests"
    else:
        stops = f"stops in {_duration(max(0.0, timeout - idle))} unless used"
    print(
        "\n".join(
            [
                "sandbox server running",
                f"  pid       {state.pid}",
                f"  url       {state.base_url}/v1",
                f"  port      {state.port}",
                f"  database  {about.get('db', state.db)}",
                f"  version   docdeck {about.get('version')} (schema {about.get('schema')})",
                f"  up        {_duration(time.time() - state.started_at)}",
                f"  idle      {_duration(idle)} ({stops})",
                "  stop it   docdeck sandbox stop",
            ]
        )
    )
    return EXIT_OK


def run_sandbox_stop(args: argparse.Namespace) -> int:
    from docdeck.launcher import SandboxError, stop_sandbox

    try:
        stopped = stop_sandbox(sandbox_db_path().parent)
    except SandboxError as error:
        raise CLIError(str(error)) from None
    if stopped is None:
        print("no sandbox server was running")
    else:
        print(f"sandbox server stopped (pid {stopped.pid}, port {stopped.port})")
    return EXIT_OK
