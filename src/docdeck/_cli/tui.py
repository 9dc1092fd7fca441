"""`docdeck` / `docdeck tui`: resolve the account, start the sandbox if needed, run the app.

Everything checkable before the UI starts (config file, profile, flags) fails
here as one line; connection problems are the app's to show, because it is
already on screen by then (an unknown theme too: it warns and carries on).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
from typing import TYPE_CHECKING

from docdeck._cli.locations import sandbox_db_path, surely_sandbox
from docdeck.cli import EXIT_OK, CLIError

if TYPE_CHECKING:
    from docdeck.launcher import SandboxProcess

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
    from docdeck.config import load_settings, resolve_account
    from docdeck.launcher import open_account

    settings = load_settings()
    account = resolve_account(**flags, environ=os.environ, settings=settings)
    if importlib.util.find_spec("docdeck.tui.app") is None:
        raise CLIError(
            "the terminal UI is not part of this build yet; "
            "run the sandbox API with: docdeck serve --demo"
        )
    with open_account(account, sandbox=early if account.is_sandbox else None) as connect:
        from docdeck.tui.app import DocdeckApp

        app = DocdeckApp(
            connect, account.label, keymap=dict(settings.keymap), theme=settings.ui.theme
        )
        app.run()
    return app.return_code or EXIT_OK
