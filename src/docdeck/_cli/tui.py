"""`docdeck` / `docdeck tui`: resolve the account, find or start the sandbox, run the app.

Everything checkable before the UI starts (config file, profile, flags) fails
here as one line; connection problems are the app's to show, because it is
already on screen by then (an unknown theme too: it warns and carries on).
"""

from __future__ import annotations

import importlib.util
import os
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docdeck._cli.locations import (
    SANDBOX_LABEL,
    first_view_path,
    nothing_configured,
    sandbox_db_path,
    sandbox_settings,
    surely_sandbox,
)
from docdeck.cli import EXIT_OK, CLIError

if TYPE_CHECKING:
    import argparse
    from collections.abc import Mapping

    from docdeck._cli.first_answer import FirstReads
    from docdeck.config import Account
    from docdeck.launcher import Connect, EmbeddedSandbox
    from docdeck.tui.kit.profiles import SwitchProfile

__all__ = ["run_tui"]


@dataclass
class _Launch:
    """What the app is handed besides `connect()`: plain data only."""

    label: str
    keymap: dict[str, str] = field(default_factory=dict)
    theme: str | None = None
    first_view: str | None = None
    """The first-view cache file, or None when the account keeps none."""
    sandbox_log: str | None = None
    """For the embedded sandbox: its log, named when it has died."""
    mouse: bool = True
    """False: the app does not capture the mouse (`[ui] mouse = false`)."""
    open_at: object | None = None
    """`docdeck open`: the parsed target (`tui.open_target.OpenTarget`)."""
    source: str = "sandbox"
    """How the account was chosen (flags, environment, profile, sandbox): the connection
    screen's advice names that setting."""


def run_tui(args: argparse.Namespace) -> int:
    flags = {
        "base_url": getattr(args, "base_url", None),
        "token": getattr(args, "token", None),
        "profile": getattr(args, "profile", None),
    }
    from docdeck.tui.kit.heap import hold_collections, release_collections

    hold_collections()  # until the first view is live: see `docdeck.tui.kit.heap`
    try:
        return _start(flags, args)
    finally:
        release_collections()  # a start that ended before any view: collect as usual


def _start(flags: dict[str, str | None], args: argparse.Namespace) -> int:
    outcome = _first_run(flags, args)
    # "Switch profile…" in the palette: the app ended asking for another account, opened
    # here as `docdeck --profile NAME` would (the environment and flags no longer apply:
    # the user chose), or the sandbox.
    while not isinstance(outcome, int):
        outcome = _run(
            {"base_url": None, "token": None, "profile": outcome.profile},
            None,
            environ={},
            to_sandbox=outcome.profile is None,
        )
    return outcome


def _first_run(flags: dict[str, str | None], args: argparse.Namespace) -> int | SwitchProfile:
    from docdeck.launcher import EmbeddedSandbox

    # Look for (or start) the sandbox first when nothing can name another account: a
    # server start then overlaps our imports (pydantic, Textual) instead of following them.
    early = None
    # Without a terminal nothing starts: a script gets one line (after any config error).
    if surely_sandbox(**flags, environ=os.environ) and _has_terminal():
        idle_minutes, _ = sandbox_settings(os.environ)
        from docdeck.tui.orgs.first_request import ROOT_REQUEST

        early = EmbeddedSandbox(
            sandbox_db_path(),
            idle_timeout=idle_minutes * 60,
            first_request=ROOT_REQUEST,
            first_reads=_first_reads(getattr(args, "open_at", None)),
        )
        early.begin()
    return _run(flags, early, getattr(args, "open_at", None))


def _first_reads(open_at: object | None) -> FirstReads | None:
    """What the launcher asks the sandbox while the TUI starts, under `docdeck open`: what
    the target's first screen shows (a change request's first diff, a space's first page);
    None: the organization tree's first page (`first_request`)."""
    if open_at is None:
        return None
    from docdeck.tui.kit.open_target import OpenTarget

    if not isinstance(open_at, OpenTarget) or not open_at.space or open_at.site:
        return None
    if open_at.change_request:
        from docdeck.tui.review.first_reads import change_request_reads

        return change_request_reads(open_at.space, open_at.change_request)
    if open_at.revision or open_at.page_path:
        return None
    from docdeck.tui.space.first_reads import space_reads

    return space_reads(open_at.space, open_at.page)


def _sandbox_cache(remember: bool) -> str | None:
    db = sandbox_db_path()
    return str(first_view_path("sandbox", SANDBOX_LABEL, str(db))) if remember else None


def _run(
    flags: dict[str, str | None],
    early: EmbeddedSandbox | None,
    open_at: object | None = None,
    *,
    environ: Mapping[str, str] | None = None,
    to_sandbox: bool = False,
) -> int | SwitchProfile:
    """Run the app on the account `flags` and `environ` name (the sandbox: `to_sandbox`)."""
    from docdeck.launcher import open_account, sandbox_connect

    environ = os.environ if environ is None else environ

    if importlib.util.find_spec("docdeck.tui.app") is None:
        raise CLIError(
            "the terminal UI is not part of this build yet; "
            "run the sandbox API with: docdeck serve --demo"
        )
    if early is not None and nothing_configured(environ):
        # Every setting is at its default: no need to load the settings model (pydantic)
        # before the first frame.
        launch = _Launch(
            SANDBOX_LABEL, first_view=_sandbox_cache(True), sandbox_log=str(early.log_path)
        )
        launch.open_at = open_at
        return _run_app(sandbox_connect(early), launch)

    from docdeck.config import Account, load_settings, resolve_account

    settings = load_settings()
    if to_sandbox:
        remember = settings.sandbox.remember_first_view
        account = Account(SANDBOX_LABEL, "sandbox", remember_first_view=remember)
    else:
        account = resolve_account(**flags, environ=environ, settings=settings)
    launch = _Launch(account.label, dict(settings.keymap), settings.ui.theme)
    launch.source = account.source
    launch.mouse = settings.ui.mouse
    launch.open_at = open_at
    launch.first_view = _first_view(account)
    _require_terminal()
    sandbox = None
    if account.is_sandbox:
        from docdeck.launcher import EmbeddedSandbox
        from docdeck.tui.orgs.first_request import ROOT_REQUEST

        sandbox = early or EmbeddedSandbox(
            sandbox_db_path(),
            idle_timeout=settings.sandbox.idle_minutes * 60,
            first_request=ROOT_REQUEST,
            first_reads=_first_reads(open_at),
        )
        launch.sandbox_log = str(sandbox.log_path)
    with open_account(account, sandbox=sandbox) as connect:
        return _run_app(connect, launch)


def _first_view(account: Account) -> str | None:
    if not account.remember_first_view:
        return None
    if account.is_sandbox:
        return _sandbox_cache(True)
    assert account.base_url is not None
    kind = "profile" if account.source == "profile" else "url"
    return str(first_view_path(kind, account.label, account.base_url))


def _has_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _require_terminal() -> None:
    # Without a terminal Textual cannot read keys (stdin at EOF makes it spin at full CPU)
    # and its output is escape codes in a file: say so instead.
    if not _has_terminal():
        raise CLIError(
            "the terminal UI needs a terminal: standard input and output are not one "
            "(for scripts, use `docdeck serve` and the API)"
        )


def _run_app(connect: Connect, launch: _Launch) -> int | SwitchProfile:
    _require_terminal()
    from docdeck.tui.app import DocdeckApp

    app = DocdeckApp(
        connect,
        launch.label,
        keymap=launch.keymap,
        theme=launch.theme,
        first_view=launch.first_view,
        sandbox_log=launch.sandbox_log,
        account_source=launch.source,
        open_at=launch.open_at,  # type: ignore[arg-type]
        mouse=launch.mouse,
    )
    app.run()
    from docdeck.tui.kit.profiles import SwitchProfile

    chosen = getattr(app, "return_value", None)  # what the app ended with, if anything
    if isinstance(chosen, SwitchProfile):
        return chosen
    return app.return_code or EXIT_OK
