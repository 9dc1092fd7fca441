"""Asked before a dialog is closed with what the user typed in it: y throws it away, n (or
Escape) goes back to it. Every dialog that sends a request asks this (`RequestDialog.edited`),
so a stray Escape loses neither a comment nor a half-filled form."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["DiscardDraft"]


class DiscardDraft(ModalScreen[bool]):
    """y throws the draft away, n (or Escape) goes back to it."""

    # The ids are the composer's, where this question was first asked: a user's `[keymap]`
    # entries for them keep working, now for every dialog.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", "Discard", id="composer.discard"),
        Binding("n,escape", "answer(False)", "Keep writing", id="composer.keep"),
    ]
    DEFAULT_CSS = """
    DiscardDraft { align: center middle; }
    DiscardDraft > Vertical {
        width: 56; max-width: 95%; height: auto; padding: 1 2;
        background: $surface; border: round $warning;
    }
    """

    def __init__(self, question: str = "Throw this draft away?") -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.question, classes="title", markup=False)
            yield Static("y: discard it · n: keep writing", classes="dialog-keys", markup=False)

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
