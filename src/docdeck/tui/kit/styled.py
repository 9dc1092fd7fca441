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
"""

from __future__ import annotations

from textual import events
from textual.screen import Screen

__all__ = ["StyledOnMount"]


class StyledOnMount(Screen[None]):
    """Skips the restyle of its resumes until first covered, while the stylesheet is as it
    was at mount."""

    _styled_at: int | None = None
    """The app's stylesheet count at mount (None: covered once already, or not mounted)."""

    def _on_mount(self, event: events.Mount) -> None:
        self._styled_at = self.app._css_update_count

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        if self._styled_at is not None and self._styled_at == self.app._css_update_count:
            event.refresh_styles = False

    def on_screen_suspend(self) -> None:
        self._styled_at = None
