"""The base of every dialog that sends a request: on failure it stays open, input intact."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Generic, TypeVar

from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from docdeck.tui.errors import describe

__all__ = ["RequestDialog"]

T = TypeVar("T")


class RequestDialog(ModalScreen[T], Generic[T]):
    """Runs `submit` in a worker; dismisses with its result, or shows why it failed and waits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # q too, as in help: without it the app's q would quit from a dialog. Text inputs
        # take the letter before any binding, so typing q in a form still types it.
        Binding(
            "escape,q",
            "cancel",
            "Cancel",
            id="dialog.cancel",
            tooltip="Close without changing anything",
        ),
    ]

    def __init__(self, title: str, doing: str, submit: Callable[..., Awaitable[T]]) -> None:
        super().__init__()
        self.dialog_title = title
        self.doing = doing
        self._submit = submit

    def send(self, *args: Any) -> None:
        """Send the request with what the user chose; a second press while one runs is ignored."""
        if self.workers and any(w.group == "submit" and w.is_running for w in self.workers):
            return
        self._set_error("")
        self.query_one("#dialog").loading = True
        self.run_worker(
            self._send(*args), name=self.doing, group="submit", exclusive=True, exit_on_error=False
        )

    async def _send(self, *args: Any) -> T:
        return await self._submit(*args)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.SUCCESS and event.worker.group == "submit":
            self.dismiss(event.worker.result)
            return
        if event.state in (WorkerState.ERROR, WorkerState.CANCELLED):
            self.query_one("#dialog").loading = False
        if event.state is WorkerState.ERROR and event.worker.error is not None:
            problem = describe(event.worker.error, self.doing, in_dialog=True)
            self._set_error(problem.message)
            # The reason shows in the dialog; a notification would cover it at 80x24. Only a
            # refused token goes to the app, which shows the connection screen.
            report = getattr(self.app, "report_error", None)
            if problem.fatal and report is not None:
                report(event.worker.error, self.doing)

    def _set_error(self, message: str) -> None:
        error = self.query_one("#dialog-error", Static)
        error.update(message)
        error.display = bool(message)

    def action_cancel(self) -> None:
        self.dismiss(None)
