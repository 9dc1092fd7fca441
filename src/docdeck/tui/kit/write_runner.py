"""An invisible widget that carries a screen's writes (`docdeck.tui.kit.in_flight.Writes`).

A worker's state changes go to the node that runs it and do not bubble, so writes run by this
widget end here: a screen that also reports its own failed reads (`report_worker_failure`)
does not report a failed write a second time over the dialog that already shows it. Reads a
mixin runs for its actions run here too, for the same reason. A mixin adds this widget to a
screen it does not compose (the review pane, the space screen).
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
        """Writes end as `Writes` says; any other worker run here that fails is reported
        once, through the app's one error handler."""
        event.stop()
        if not self.writes.handle(event):
            report_worker_failure(self, event)
