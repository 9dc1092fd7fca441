"""`docdeck` / `docdeck tui`: resolve the account, start the sandbox if needed, run the app.

Everything checkable before the UI starts (config file, profile, flags) fails
here as one line; connection problems are the app's to show, because it is
already on screen by then (an unknown theme too: it warns and carries on).
"""

from __future__ import annotations

import argparse
import importlib.util
import os

from docdeck.cli import EXIT_OK, CLIError
from docdeck.config import load_settings, resolve_account

__all__ = ["run_tui"]


def run_tui(args: argparse.Namespace) -> int:
    settings = load_settings()
    account = resolve_account(
        base_url=getattr(args, "base_url", None),
        token=getattr(args, "token", None),
        profile=getattr(args, "profile", None),
        environ=os.environ,
        settings=settings,
    )
    if importlib.util.find_spec("docdeck.tui.app") is None:
        raise CLIError(
            "the terminal UI is not part of this build yet; "
            "run the sandbox API with: docdeck serve --demo"
        )
    from docdeck.launcher import open_account

    with open_account(account) as connect:
        from docdeck.tui.app import DocdeckApp

        app = DocdeckApp(
            connect, account.label, keymap=dict(settings.keymap), theme=settings.ui.theme
        )
        app.run()
    return app.return_code or EXIT_OK
