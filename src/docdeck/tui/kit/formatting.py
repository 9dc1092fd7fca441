"""How values read on screen. Dates are absolute (UTC), so a view reads the same tomorrow."""

from __future__ import annotations

from datetime import datetime, timedelta

from docdeck.models import MemberRoleOrGuest, emoji_characters

__all__ = ["RESTORE_WINDOW", "date", "datetime_text", "emoji_text", "quoted", "role_text", "yes_no"]

RESTORE_WINDOW = timedelta(days=7)
"""A deleted space can be restored for this long, then it is removed for good."""


def datetime_text(value: datetime | None) -> str:
    if value is None:
        return "—"
    return value.strftime("%Y-%m-%d %H:%M UTC")


def date(value: datetime | None) -> str:
    if value is None:
        return "—"
    return value.strftime("%Y-%m-%d")


def role_text(role: MemberRoleOrGuest) -> str:
    return role if role is not None else "guest"


def yes_no(value: bool | None) -> str:
    if value is None:
        return "—"
    return "yes" if value else "no"


def emoji_text(emoji: str) -> str:
    """An emoji as the terminal can align it: its characters, where the platform answered
    with its codepoints (`1f389` is 🎉: `emoji_characters`), without U+FE0F (emoji
    presentation selector).

    Terminals draw "🗓️" two cells wide while Rich counts it as one, which shifts
    everything after it on the line; the bare "🗓" is one cell for both.
    """
    return emoji_characters(emoji).replace("\ufe0f", "")


def quoted(text: str, limit: int = 60) -> str:
    """Text the user typed, quoted in a message: cut to `limit` characters (a pasted page
    of text filled the screen with its echo) and with control characters shown as escapes."""
    shown = text if len(text) <= limit else text[: limit - 1] + "…"
    shown = "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in shown)
    return f"“{shown}”"
