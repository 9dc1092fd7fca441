"""Where to save a file: a path, checked and written by the caller's `save`, which returns
why it failed (the dialog then stays open with the path as typed) or "" when done."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from docdeck.tui.kit.workers import read

__all__ = ["SaveDialog"]


class SaveDialog(ModalScreen[str | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="dialog.cancel"),
    ]
    DEFAULT_CSS = """
    SaveDialog { align: center middle; }
    SaveDialog > #save { width: 80; max-width: 95%; height: auto;
        background: $surface; border: round $primary; padding: 0 1; }
    SaveDialog #save-why { color: $error; height: auto; }
    SaveDialog #save-hint { color: $text-muted; height: auto; }
    """

    def __init__(self, title: str, path: str, save: Callable[[str], Awaitable[str]]) -> None:
        super().__init__()
        self.title_text = title
        self.path = path
        self.save = save

    def compose(self) -> ComposeResult:
        with Vertical(id="save"):
            yield Static(Text(self.title_text, style="bold"), markup=False)
            yield Input(self.path, id="save-path")
            yield Static("", id="save-why", markup=False)
            yield Static(
                "enter: save · esc: cancel (an existing file is never replaced)",
                id="save-hint",
                markup=False,
            )

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._save(event.value)

    @read("save", "Saving the file")
    async def _save(self, path: str) -> None:
        field = self.query_one(Input)
        field.disabled = True
        why = self.query_one("#save-why", Static)
        why.update("saving…")
        problem = await self.save(path)
        if problem:
            field.disabled = False
            field.focus()
            why.update(problem)
            return
        self.dismiss(path)

    def action_cancel(self) -> None:
        self.dismiss(None)
