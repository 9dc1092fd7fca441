"""What every dialog about one change request shares: its space and change request, the
`(space id, number)` pair each request names it by, and the error line (`#dialog-error`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from textual.screen import ModalScreen

from docdeck.tui.kit.dialogs.request import show_dialog_error

if TYPE_CHECKING:
    from docdeck.models import ChangeRequest, Space

__all__ = ["ChangeRequestDialog"]

R = TypeVar("R")


class ChangeRequestDialog(ModalScreen[R]):
    def __init__(self, space: Space, change_request: ChangeRequest) -> None:
        super().__init__()
        self.space = space
        self.change_request = change_request

    @property
    def _ref(self) -> tuple[str, int]:
        return self.space.id, self.change_request.number

    def _set_error(self, message: str) -> None:
        show_dialog_error(self, message)
