"""`docdeck` / `docdeck tui`: resolve the account, start the sandbox if needed, run the app.

Everything checkable before the UI starts (config file, profile, flags) fails
here as one line; connection problems are the app's to show, because it is
already on screen by then (an unknown theme too: it warns and carries on).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from typing import TYPE_CHECKING

from docdeck._cli.locations import (
    SANDBOX_LABEL,
    nothing_configured,
    sandbox_db_path,
    surely_sandbox,
)
from docdeck.cli import EXIT_OK, CLIError

if TYPE_CHECKING:
    from docdeck.launcher import Connect, SandboxProcess

__all__ = ["run_tui"]


def run_tui(args: argparse.Namespace) -> int:
    flags = {
        "base_url": getattr(args, "base_url", None),
        "token": getattr(args, "token", None),
        "profile": getattr(args, "profile", None),
    }
    from docdeck.launcher import SandboxProcess

    # Start the sandbox first when nothing can name another account: its imports and
    # demo load then overlap ours (pydantic, Textual) instead of following them.
    early = (
        SandboxProcess(sandbox_db_path()) if surely_sandbox(**flags, environ=os.environ) else None
    )
    if early is not None:
        early.start()
    try:
        return _run(flags, early)
    finally:
        if early is not None:
            early.stop()


def _run(flags: dict[str, str | None], early: SandboxProcess | None) -> int:
    from docdeck.launcher import open_account, open_sandbox

    if importlib.util.find_spec("docdeck.tui.app") is None:
        raise CLIError(
            "the terminal UI is not part of this build yet; "
            "run the sandbox API with: docdeck serve --demo"
        )
    if early is not None and nothing_configured(os.environ):
        # Every setting is at its default: no need to load the settings model (pydantic)
        # before the first frame.
        with open_sandbox(early) as connect:
            return _run_app(connect, SANDBOX_LABEL, keymap={}, theme=None)

    from docdeck.config import load_settings, resolve_account

    settings = load_settings()
    account = resolve_account(**flags, environ=os.environ, settings=settings)
    with open_account(account, sandbox=early if account.is_sandbox else None) as connect:
        return _run_app(connect, account.label, dict(settings.keymap), settings.ui.theme)


def _has_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _run_app(connect: Connect, label: str, keymap: dict[str, str], theme: str | None) -> int:
    # Without a terminal Textual cannot read keys (stdin at EOF makes it spin at full CPU)
    # and its output is escape codes in a file: say so instead.
    if not _has_terminal():
        raise CLIError(
            "the terminal UI needs a terminal: standard input and output are not one "
            "(for scripts, use `docdeck serve` and the API)"
        )
    from docdeck.tui.app import DocdeckApp

    app = DocdeckApp(connect, label, keymap=keymap, theme=theme)
    app.run()
    return app.return_code or EXIT_OK
