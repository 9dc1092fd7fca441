"""A profile switch from the command palette.

"Switch profile…" lists the profiles of `config.toml` and the embedded sandbox, the one
open now marked. Choosing another ends this session and `docdeck` opens that account at
once, as `docdeck --profile NAME` would (`docdeck._cli.tui` runs the app again): every
cache, the first view and the place to return to are kept per account, so a fresh app is
the one way nothing of the first account shows in the second. A write still on its way
holds the switch back (it says which), so nothing typed is lost; a config file that does
not read is named with its error, and the session stays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from rich.text import Text

from docdeck.tui.kit.palette import OneCommand

__all__ = ["SANDBOX", "ProfileCommands", "SwitchProfile", "profile_choices"]

SANDBOX = "sandbox"
"""The embedded sandbox's label, as the header shows it."""


@dataclass(frozen=True)
class SwitchProfile:
    """What the app exits with to have another account opened: a profile's name, or
    None for the embedded sandbox."""

    profile: str | None


def profile_choices(current: str, source: str) -> list[tuple[Text, SwitchProfile | None]]:
    """The accounts to switch to: each profile (its host beside it), then the sandbox; the
    one open now is marked and chosen as None (nothing to do). Raises `ConfigError` when
    `config.toml` does not read."""
    from docdeck.config import load_settings

    settings = load_settings()
    items: list[tuple[Text, SwitchProfile | None]] = []
    for name, profile in sorted(settings.profiles.items()):
        is_current = source == "profile" and name == current
        host = urlsplit(profile.base_url).netloc
        mark = "  (open now)" if is_current else ""
        items.append(
            (
                Text.assemble(name, (f"  {host}{mark}", "dim")),
                None if is_current else SwitchProfile(name),
            )
        )
    is_sandbox = source == "sandbox"
    mark = "  (open now)" if is_sandbox else ""
    items.append(
        (
            Text.assemble(SANDBOX, (f"  the embedded sandbox on this machine{mark}", "dim")),
            None if is_sandbox else SwitchProfile(None),
        )
    )
    return items


class ProfileCommands(OneCommand):
    """ "Switch profile…" in the palette (not on dialogs)."""

    NAME = "Switch profile…"
    HELP = "Open another account: a profile of config.toml, or the embedded sandbox"

    def _go(self) -> None:
        choose_profile(self.app)


def choose_profile(app: Any) -> None:
    """Show the accounts; the chosen one is opened once no write is on its way."""
    from docdeck.config import ConfigError
    from docdeck.tui.kit.chooser import Chooser

    current = getattr(app, "account_label", SANDBOX)
    source = getattr(app, "account_source", "sandbox")
    try:
        items = profile_choices(current, source)
    except ConfigError as error:
        app.notify(f"{error}", title="config.toml does not read", severity="error")
        return
    if len(items) == 1 and source == "sandbox":
        app.notify(
            "No profile yet: add one with `docdeck profile add NAME URL` (it asks for the "
            "token), then choose it here.",
            title="Switch profile",
        )
        return

    def chosen(value: SwitchProfile | None) -> None:
        if value is None:
            return  # closed, or the account open now
        pending = _writes_on_their_way(app)
        if pending:
            app.notify(
                f"{pending} is still being saved; switch once it has landed.",
                title="Not yet",
                severity="warning",
            )
            return
        app.exit(value)

    app.push_screen(Chooser("Switch profile", items), chosen)


def _writes_on_their_way(app: Any) -> str | None:
    """A write still on its way (`kit/in_flight.py`), named; None when there is none."""
    from docdeck.tui.kit.in_flight import running_writes

    writes = running_writes(app)
    return f"“{writes[0]}”" if writes else None
