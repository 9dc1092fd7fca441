"""A dialog to choose one of a few values, which sends nothing: it closes with the value.

For choices that are not writes (what to copy, later: which view to open). A choice
that sends a request is a `PickDialog`, which follows it as a write; both show the
same body (`choice_box`), so they look and move alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Generic, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from docdeck.tui.kit.list_keys import NavOptionList

__all__ = ["ChooseDialog", "choice_box", "choice_list", "highlight_choice"]

V = TypeVar("V")


def choice_list(labels: list[str]) -> NavOptionList:
    """The options of a choosing dialog, with the shared list keys (j/k, g/G, …)."""
    return NavOptionList(
        *(Option(label, id=str(index)) for index, label in enumerate(labels)),
        id="dialog-options",
    )


def choice_box(
    title: str, choices: Sequence[tuple[str, object]], *, errors: bool = False
) -> Vertical:
    """The body of a choosing dialog: its title, the labels of `choices` and its keys (and,
    with `errors`, the line a failed request is told on)."""
    return Vertical(
        Label(title, id="dialog-title", markup=False),
        choice_list([label for label, _ in choices]),
        *([Static("", id="dialog-error", markup=False)] if errors else []),
        Label("enter: choose   escape: cancel", classes="dialog-keys", markup=False),
        id="dialog",
        classes="pick",
    )


def highlight_choice(options: OptionList, current: int) -> None:
    if options.option_count:
        options.highlighted = min(max(current, 0), options.option_count - 1)
    options.focus()


class ChooseDialog(ModalScreen[V | None], Generic[V]):
    """Enter on an option closes with its value; Escape (or q) closes with None."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "escape,q",
            "cancel",
            "Cancel",
            id="dialog.cancel",
            tooltip="Close without choosing",
        ),
    ]

    def __init__(self, title: str, choices: list[tuple[str, V]], *, current: int = 0) -> None:
        super().__init__()
        self.dialog_title = title
        self.choices = choices
        self.current = current

    def compose(self) -> ComposeResult:
        yield choice_box(self.dialog_title, self.choices)

    def on_mount(self) -> None:
        highlight_choice(self.query_one(OptionList), self.current)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.choices[event.option_index][1])

    def action_cancel(self) -> None:
        self.dismiss(None)
