"""A yes/no dialog for destructive actions; the request runs only on yes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from docdeck.tui.kit.dialogs.request import RequestDialog

__all__ = ["ConfirmDialog"]

T = TypeVar("T")


class ConfirmDialog(RequestDialog[T]):
    AUTO_FOCUS = "#dialog-cancel"
    """Cancel has the focus from the first key on (an Enter typed with the key that asked
    keeps things as they are); Textual's own first focus is the first button, Delete."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Yes", id="dialog.confirm", tooltip="Do it"),
        Binding("n", "close_if_idle", "No", id="dialog.deny", tooltip="Keep things as they are"),
    ]

    def __init__(
        self,
        title: str,
        question: str,
        submit: Callable[[], Awaitable[T]],
        *,
        doing: str,
        action_label: str = "Delete",
    ) -> None:
        super().__init__(title, doing, submit)
        self.question = question
        self.action_label = action_label

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="confirm"):
            yield Label(self.dialog_title, id="dialog-title", markup=False)
            yield Static(self.question, id="dialog-question", markup=False)
            yield Static("", id="dialog-error", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button(f"{self.action_label} (y)", variant="error", id="dialog-ok")
                yield Button("Cancel (n)", id="dialog-cancel")

    def on_mount(self) -> None:
        self._set_error("")

    def action_confirm(self) -> None:
        self.send()

    @on(Button.Pressed, "#dialog-ok")
    def _ok(self) -> None:
        self.send()

    @on(Button.Pressed, "#dialog-cancel")
    def _cancel(self) -> None:
        self.action_cancel()
