"""The base of every dialog that sends a request: on failure it stays open, input intact.

The request is a write of the screen below (`docdeck.tui.kit.in_flight`): it runs in
that screen's worker, so Escape while it runs closes the dialog without
cancelling a request the server may already have applied, and the screen
follows it to its end. While it runs the dialog is read-only: keys typed during
the wait must not land in an input the loading overlay hides.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Generic, TypeVar

from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.in_flight import Subject, Write, Writes
from docdeck.tui.kit.session import session_of

__all__ = ["RequestDialog", "show_dialog_error"]

T = TypeVar("T")


def show_dialog_error(screen: Screen[Any], message: str) -> None:
    """Say `message` on a dialog's error line, `#dialog-error` (an empty message hides it)."""
    error = screen.query_one("#dialog-error", Static)
    error.update(message)
    error.display = bool(message)


class RequestDialog(ModalScreen[None], Generic[T]):
    """Sends `submit` as a write; closes when it succeeds, shows why it failed and waits."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape",
            "cancel",
            "Cancel",
            id="dialog.cancel",
            tooltip="Close without changing anything",
        ),
        # q too, as in help: without it the app's q would quit from a dialog. Text inputs
        # take the letter before any binding, so typing q in a form still types it. While
        # the request runs q does nothing but say so: a letter typed ahead must not close
        # a dialog whose change may still land; Escape is the deliberate way out.
        Binding(
            "q",
            "close_if_idle",
            "Cancel",
            show=False,
            id="dialog.quit",
            tooltip="Close without changing anything (not while a request runs)",
        ),
    ]

    def __init__(self, title: str, doing: str, submit: Callable[..., Awaitable[T]]) -> None:
        super().__init__()
        self.dialog_title = title
        self.doing = doing
        self._submit = submit
        self._writes: Writes | None = None
        self._subject: Subject | None = None
        self._action = ""
        self._applied: Callable[[T], None] | None = None
        self._reread: Callable[[], Awaitable[None]] | None = None
        self._write: Write | None = None
        self._focused: Widget | None = None
        self._hinted = False

    def follow(
        self,
        writes: Writes,
        subject: Subject,
        action: str,
        *,
        applied: Callable[[T], None] | None = None,
        reread: Callable[[], Awaitable[None]] | None = None,
    ) -> RequestDialog[T]:
        """Send through a screen's writes: `applied` puts the answer in its model, `reread`
        reads the subject again if the write fails or this dialog is closed while it runs."""
        self._writes = writes
        self._subject = subject
        self._action = action
        self._applied = applied
        self._reread = reread
        return self

    @property
    def sending(self) -> bool:
        return self._write is not None

    def send(self, *args: Any) -> None:
        """Send the request with what the user chose; a second press while one runs is ignored."""
        if self._write is not None:
            return
        if self._writes is None or self._subject is None:
            raise RuntimeError(f"{type(self).__name__} was opened without `follow`")
        submit = self._submit

        async def request() -> T:
            return await submit(*args)

        write = Write(
            self._subject,
            self._action,
            self.doing,
            request,
            applied=self._applied,
            reread=self._reread,
            dialog=self,
        )
        if not self._writes.start(write):
            self._set_error(f"{self.doing} is still being sent; wait for it to finish.")
            return
        self._write = write
        self._hinted = False
        self._set_error("")
        self._read_only(True)

    def _read_only(self, read_only: bool) -> None:
        dialog = self.query_one("#dialog")
        if read_only:
            self._focused = self.focused
            self.set_focus(None)
        dialog.loading = read_only
        for widget in dialog.query("Input, OptionList, Button"):
            widget.disabled = read_only
        if not read_only and self._focused is not None and self._focused.is_attached:
            self._focused.focus()

    def write_succeeded(self) -> None:
        self._write = None
        self.dismiss(None)

    def write_failed(self, error: BaseException) -> None:
        self._write = None
        self._read_only(False)
        problem = describe(error, self.doing, in_dialog=True)
        self._set_error(problem.message)
        # The reason shows in the dialog; a notification would cover it at 80x24. Only a
        # refused token goes to the app, which shows the connection screen.
        if problem.fatal:
            session_of(self).report_error(error, self.doing)

    def _set_error(self, message: str) -> None:
        show_dialog_error(self, message)

    def action_close_if_idle(self) -> None:
        """q (and a dialog's "no"): close only when nothing is being sent; else say why not."""
        if self._write is None:
            self.action_cancel()
            return
        if not self._hinted:  # once per request: held or repeated keys raise no pile of toasts
            self._hinted = True
            self.notify(
                f"{self.doing} is being sent; this closes when the server answers. "
                "Escape closes it now (the change may still be applied).",
                title="Still sending",
                timeout=4,
            )

    @property
    def edited(self) -> bool:
        """The user typed something the dialog did not open with: closing it asks first
        (`DiscardDraft`). A dialog with fields says how (the form, the composer)."""
        return False

    discard_question = "Throw away what you typed?"

    def action_cancel(self) -> None:
        """Escape (and Cancel): close; a dialog holding what the user typed asks first, and
        one whose request runs closes at once (the request runs on)."""
        if self._write is None and self.is_mounted and self.edited:
            from docdeck.tui.kit.dialogs.discard import DiscardDraft

            def answered(discard: bool | None) -> None:
                if discard:
                    self._close()

            self.app.push_screen(DiscardDraft(self.discard_question), answered)
            return
        self._close()

    def _close(self) -> None:
        write = self._write
        if write is not None and self._writes is not None:
            # The request may have reached the server: it runs on, and the screen shows
            # what the server has when it ends.
            self._writes.abandon(write)
            self._write = None
            self.notify(
                f"{self.doing} was already sent and may still be applied; the tree shows "
                "the result when the server answers.",
                title="Closed while sending",
                severity="warning",
            )
        self.dismiss(None)
