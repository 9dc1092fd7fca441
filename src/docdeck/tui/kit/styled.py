"""A new screen is not restyled all over on its resumes until something first covers it.

Textual styles each widget as it mounts, by the stylesheet as it is. Then, on every
resume of a screen (`ScreenResume(refresh_styles=True)`, posted by `push_screen`), it
restyles every node again, for what a screen covered meanwhile may have missed. Until it
is first covered, a screen has missed nothing: its resumes come right after its mount
(the org browser's install resumes it twice), and a change of the stylesheet meanwhile (a
theme) is passed to every screen in the stack by `App.refresh_css`; the count of those
changes is checked too. On the review pane that restyle cost about 60 ms of its first
frame on the 2-core machine (`docdeck open <change request URL>`), on the browser ~25 ms
before the first live view.

And it is born with the terminal's width and height classes (`HORIZONTAL_BREAKPOINTS`),
as its first resize event would give them: its widgets are then styled for them as they
mount, not all restyled again on that event (on the review pane, ~15 ms of its first
frame).
"""

from __future__ import annotations

from textual import events
from textual._context import NoActiveAppError
from textual.screen import Screen

__all__ = ["StyledOnMount"]


class StyledOnMount(Screen[None]):
    """Skips the restyle of its resumes until first covered, while the stylesheet is as it
    was at mount."""

    _styled_at: int | None = None
    """The app's stylesheet count at mount (None: covered once already, or not mounted)."""

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None):
        super().__init__(name, id, classes)
        try:
            app = self.app
        except NoActiveAppError:
            return  # made outside a running app: its first resize gives the classes
        if not app.is_running:
            return
        width, height = app.size
        horizontal = self.HORIZONTAL_BREAKPOINTS
        vertical = self.VERTICAL_BREAKPOINTS
        horizontal = (app.HORIZONTAL_BREAKPOINTS if horizontal is None else horizontal) or []
        vertical = (app.VERTICAL_BREAKPOINTS if vertical is None else vertical) or []
        self.add_class(
            *self._get_breakpoint_classes(width, horizontal),
            *self._get_breakpoint_classes(height, vertical),
            update=False,
        )

    def _on_mount(self, event: events.Mount) -> None:
        self._styled_at = self.app._css_update_count

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self._styled_at is not None and self._styled_at == self.app._css_update_count:
            event.refresh_styles = False

    def on_screen_suspend(self) -> None:
        self._styled_at = None
