"""Creating a change request from the space screen (`N`): asks for a subject, creates it, and
opens it in the review pane."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.screen import Screen

from docdeck.models import ChangeRequest
from docdeck.tui.screens._form import FormDialog, FormField
from docdeck.tui.widgets._write_runner import WriteRunner
from docdeck.tui.workers import client_of

if TYPE_CHECKING:
    from docdeck.models import Space

__all__ = ["SpaceChangeRequest"]


@dataclass(eq=False)
class _SpaceSubject:
    title: str
    busy: int = 0


class SpaceChangeRequest(Screen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "N",
            "new_change_request",
            "New CR",
            show=False,
            id="space.new_change_request",
            tooltip="Create a change request of this space and open it",
        ),
    ]

    if TYPE_CHECKING:
        space: Space

    _new_cr_subject: _SpaceSubject | None = None

    def _cr_runner(self) -> WriteRunner:
        runners = self.query(WriteRunner)
        if runners:
            return runners.first()
        runner = WriteRunner()
        self.mount(runner)
        return runner

    def action_new_change_request(self) -> None:
        if not self.space.permissions.edit:
            self.notify(
                f"Your role on “{self.space.title}” does not allow creating a change "
                "request: it needs the edit role or above. Ask a space or organization admin.",
                title="Cannot create a change request",
                severity="warning",
                timeout=8,
            )
            return
        if self._new_cr_subject is None:
            self._new_cr_subject = _SpaceSubject(self.space.title)
        space_id = self.space.id

        async def submit(values: dict[str, str]) -> ChangeRequest:
            subject = values["subject"].strip()
            return await client_of(self).change_requests.create(space_id, subject=subject)

        dialog = FormDialog(
            f"New change request of “{self.space.title}”",
            [FormField("subject", "Subject", required=True, max_length=100)],
            submit,
            doing="Creating the change request",
            action_label="Create",
        )
        writes = self._cr_runner().writes
        if writes.running(self._new_cr_subject, "create-cr"):
            self.app.bell()
            return
        self.app.push_screen(
            dialog.follow(writes, self._new_cr_subject, "create-cr", applied=self._created)
        )

    def _created(self, change_request: ChangeRequest) -> None:
        from docdeck.tui.screens._review import ReviewScreen  # it imports the space screen

        self.notify(
            f"#{change_request.number} “{change_request.subject}” is created.",
            title="Change request created",
        )
        # After the dialog has closed (it closes right after this): pushed now, the pane
        # would be the top screen the dialog's dismissal pops.
        self.call_after_refresh(self.app.push_screen, ReviewScreen(self.space, change_request))
