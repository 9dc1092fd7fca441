"""A screen pushed new is not restyled all over on its first resume.

Textual styles each widget as it mounts, by the stylesheet as it is. Then, on every
resume of a screen (`ScreenResume(refresh_styles=True)`, posted by `push_screen`), it
restyles every node again, for what a screen covered meanwhile may have missed. For a
screen just pushed, nothing was missed: its first resume comes right after its mount, and
a change of the stylesheet meanwhile (a theme) is passed to every screen in the stack by
`App.refresh_css`. On the review pane that restyle cost about 60 ms of its first frame on
the 2-core machine (`docdeck open <change request URL>`). The org browser does the same for
its own first resumes (`orgs/_main.py`).
"""

from __future__ import annotations

from textual import events
from textual.screen import Screen

__all__ = ["StyledOnMount"]


class StyledOnMount(Screen[None]):
    """Skips the restyle of the first resume when the stylesheet is as it was at mount."""

    _styled_at: int | None = None
    """The app's stylesheet count at mount (None: resumed once already, or not mounted)."""

    def _on_mount(self, event: events.Mount) -> None:
        self._styled_at = self.app._css_update_count

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        styled_at, self._styled_at = self._styled_at, None
        if styled_at is not None and styled_at == self.app._css_update_count:
            event.refresh_styles = False
