"""Moving focus from a key, before the next key is routed.

`Widget.focus()` only schedules the move (`call_later`), behind every key already
queued: keys typed in the same burst as the one that moves focus (fast typing,
a terminal's key repeat, "/abc" typed at once) went to the old widget. A key
that moves focus is therefore a priority binding (run when the app receives it,
before it routes the next key) and moves focus with `focus_now`.
"""

from __future__ import annotations

from textual.dom import NoScreen
from textual.widget import Widget

__all__ = ["focus_now"]


def focus_now(widget: Widget) -> None:
    """Focus `widget` at once when it can take focus; otherwise as Textual would, later."""
    try:
        screen = widget.screen
    except NoScreen:  # not mounted yet (a view still being swapped in)
        widget.focus()
        return
    if widget.is_mounted and widget.focusable:
        screen.set_focus(widget)
    else:
        widget.focus()
