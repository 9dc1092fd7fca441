"""A dialog to pick one of a few values and send a request with it (a collection to move
into, a role). A choice that sends nothing is a `ChooseDialog`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from textual import on
from textual.app import ComposeResult
from textual.widgets import OptionList

from docdeck.tui.kit.dialogs.choose import choice_box, highlight_choice
from docdeck.tui.kit.dialogs.request import RequestDialog

__all__ = ["PickDialog"]

T = TypeVar("T")


class PickDialog(RequestDialog[T]):
    """Enter on an option sends the request with that option's value."""

    def __init__(
        self,
        title: str,
        choices: list[tuple[str, Any]],
        submit: Callable[[Any], Awaitable[T]],
        *,
        doing: str,
        current: int = 0,
    ) -> None:
        super().__init__(title, doing, submit)
        self.choices = choices
        self.current = current

    def compose(self) -> ComposeResult:
        yield choice_box(self.dialog_title, self.choices, errors=True)

    def on_mount(self) -> None:
        self._set_error("")
        highlight_choice(self.query_one(OptionList), self.current)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.send(self.choices[event.option_index][1])
