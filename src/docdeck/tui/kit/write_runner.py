"""An invisible widget that holds a screen's writes (`docdeck.tui.kit.in_flight.Writes`).

The writes themselves run on the app (they outlive the screen) and tell their own end. The
reads a screen's part makes for its actions run here: a worker's state changes go to the
node that runs it and do not bubble, so their failures are reported once, here, and not by
the screen's own handler as well. A screen composes one for each part that writes (the
space screen's new change request, the review pane's actions).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.widget import Widget
from textual.worker import Worker

from docdeck.tui.kit.in_flight import Subject, Writes
from docdeck.tui.kit.workers import report_worker_failure

__all__ = ["WriteRunner"]


class WriteRunner(Widget):
    DEFAULT_CSS = "WriteRunner { display: none; }"

    def __init__(self, changed: Callable[[Subject], None] | None = None) -> None:
        super().__init__()
        self.writes = Writes(self, changed or (lambda subject: None))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A worker run here that fails (a read of these actions) is reported once,
        through the app's one error handler; writes run on the app and tell their own end."""
        event.stop()
        report_worker_failure(self, event)
