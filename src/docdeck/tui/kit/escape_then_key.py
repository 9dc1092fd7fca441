"""Escape then a key, typed quickly, as the two keys they were.

A terminal sends Alt+J as Escape followed by "j", so a program cannot tell the two apart
when they arrive together. tmux makes them arrive together: it holds an Escape for its
`escape-time` (500 ms before tmux 3.5) to see whether a sequence follows, and sends it
with the next key typed in that time. Over a slow SSH link bytes bunch up the same way.
Escape out of the review pane and `j` half a second later: Textual read one Alt+J, docdeck
has no Alt+J, and neither key did anything.

docdeck binds no Alt+letter key, so an Alt+key that nothing on screen binds is taken as
Escape then the key, each routed as if typed (`KeyHold` delivers the second once the
first has gone its way: the screen Escape closed is gone). Not in a text field: there
Textual's fields already take it as the character typed, and Escape would close a dialog
and take what is typed in it along.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.keys import key_to_character
from textual.screen import Screen
from textual.widget import Widget

__all__ = ["split_escape"]


def _plain(key: str) -> tuple[str, str] | None:
    """The key and character `key` is with its Alt taken off, when that is a character."""
    rest = key.removeprefix("alt+")
    if rest == key:
        return None
    if rest.startswith("shift+") and len(rest) == len("shift+") + 1 and rest[-1].isalpha():
        letter = rest[-1].upper()  # what Textual calls a capital typed without Alt
        return letter, letter
    character = key_to_character(rest)
    if character is None or len(character) != 1 or not character.isprintable():
        return None  # Alt+Backspace, Alt+arrows: keys of their own
    return rest, character


def split_escape(event: events.Key, screen: Screen[Any] | None) -> list[events.Key] | None:
    """[Escape, the key] for an Alt+key nothing on `screen` binds; None to leave it as is."""
    plain = _plain(event.key)
    if plain is None or screen is None:
        return None
    from textual.widgets import Input, TextArea  # here: the app's start imports neither

    focused: Widget | None = screen.focused
    if isinstance(focused, Input | TextArea):
        return None
    if event.key in screen.active_bindings:
        return None  # a user's [keymap] may bind it: theirs to keep
    key, character = plain
    return [events.Key("escape", "\x1b"), events.Key(key, character)]
