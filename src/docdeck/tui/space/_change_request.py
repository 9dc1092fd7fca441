"""Change requests from the space screen: `N` asks for a subject, creates one and opens it
in the review pane; `E` edits the page shown in `$EDITOR` in a change request (an open or
draft one, or a new one), through the review pane's authoring."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from textual.binding import Binding, BindingType
from textual.screen import Screen

from docdeck.models import ChangeRequest
from docdeck.tui.kit.dialogs.choose import ChooseDialog
from docdeck.tui.kit.dialogs.form import FormDialog, FormField
from docdeck.tui.kit.navigation import OpenChangeRequest
from docdeck.tui.kit.workers import client_of
from docdeck.tui.kit.write_runner import WriteRunner

if TYPE_CHECKING:
    from docdeck.models import Space
    from docdeck.tui.content.page_tree import PageInfo

_NEW = "new"

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
        Binding(
            "E",
            "edit_in_change_request",
            "Edit in CR",
            show=False,
            id="space.edit_in_change_request",
            tooltip="Edit this page in $EDITOR in a change request (an open one or a new one)",
        ),
    ]

    if TYPE_CHECKING:
        space: Space

        @property
        def current_page(self) -> PageInfo | None: ...

    _new_cr_subject: _SpaceSubject | None = None

    def _cr_runner(self) -> WriteRunner:
        runners = self.query(WriteRunner)
        if runners:
            return runners.first()
        runner = WriteRunner()
        self.mount(runner)
        return runner

    def _may_create(self) -> bool:
        if self.space.permissions.edit:
            return True
        self.notify(
            f"Your role on “{self.space.title}” does not allow change requests: it needs "
            "the edit role or above. Ask a space or organization admin.",
            title="Cannot create a change request",
            severity="warning",
            timeout=8,
        )
        return False

    def action_new_change_request(self, then_edit: str | None = None) -> None:
        """N (and E's "New change request…", which then edits `then_edit` in it)."""
        if not self._may_create():
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
            dialog.follow(
                writes,
                self._new_cr_subject,
                "create-cr",
                applied=lambda created: self._created(created, then_edit),
            )
        )

    def action_edit_in_change_request(self) -> None:
        """E: the page shown, edited in a change request: pick an open or draft one, or a
        new one; the review pane opens on it and runs the editor."""
        page = self.current_page
        if page is None or not page.readable:
            self.notify("Open a document page first.", title="Nothing to edit", severity="warning")
            return
        if not self._may_create():
            return
        self._cr_runner().run_worker(
            self._pick_change_request(page.id),
            name="Reading the change requests",
            group="space-edit-cr",
            exclusive=True,
            exit_on_error=False,
        )

    async def _pick_change_request(self, page_id: str) -> None:
        client = client_of(self)
        found: list[ChangeRequest] = []
        for status in ("open", "draft"):
            found += (await client.change_requests.list(self.space.id, status=status)).items
        choices: list[tuple[str, ChangeRequest | str]] = [("New change request…", _NEW)]
        choices += [
            (f"#{cr.number} {cr.subject or '(no subject)'} · {cr.status}", cr) for cr in found
        ]

        def chosen(choice: ChangeRequest | str | None) -> None:
            if choice == _NEW:
                self.action_new_change_request(then_edit=page_id)
            elif isinstance(choice, ChangeRequest):
                self._created(choice, page_id)

        self.app.push_screen(ChooseDialog("Edit this page in", choices), chosen)

    def _created(self, change_request: ChangeRequest, then_edit: str | None = None) -> None:
        if then_edit is None:
            self.notify(
                f"#{change_request.number} “{change_request.subject}” is created.",
                title="Change request created",
            )

        def open_pane() -> None:
            self.app.post_message(OpenChangeRequest(self.space, change_request, then_edit))

        # After the dialog has closed (it closes right after this): pushed now, the pane
        # would be the top screen the dialog's dismissal pops.
        self.call_after_refresh(open_pane)
