"""Change requests from the space screen: `N` asks for a subject, creates one and opens it
in the review pane; `E` edits the page shown in `$EDITOR` in a change request (an open or
draft one, or a new one), through the review pane's authoring."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from docdeck.tui.kit.navigation import OpenChangeRequest
from docdeck.tui.kit.workers import client_of, read
from docdeck.tui.kit.write_runner import WriteRunner

if TYPE_CHECKING:  # a space's first page is shown without the change request models
    from docdeck.models import ChangeRequest, Space
    from docdeck.tui.content.page_tree import PageInfo
    from docdeck.tui.space._source import SpaceSource

_NEW = "new"

__all__ = ["ChangeRequestStarter"]


@dataclass(eq=False)
class _SpaceSubject:
    title: str
    busy: int = 0


class ChangeRequestStarter(WriteRunner):
    """Runs `N` and `E` for the screen, which binds them (they work wherever focus is), and
    holds the create's write (`Writes`: a second `N` while one is sent rings the bell)."""

    def __init__(self, source: SpaceSource) -> None:
        super().__init__()
        self.source = source

    @property
    def space(self) -> Space:
        return self.source.space

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

    _new_cr_subject: _SpaceSubject | None = None

    def new(self, then_edit: str | None = None) -> None:
        """N (and E's "New change request…", which then edits `then_edit` in it)."""
        if not self._may_create():
            return
        if self._new_cr_subject is None:
            self._new_cr_subject = _SpaceSubject(self.space.title)
        space_id = self.space.id
        # The dialogs on use: the space screen's first page does not wait for their imports
        # (the form's text area among them).
        from docdeck.tui.kit.dialogs.form import FormDialog, FormField

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
        writes = self.writes
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

    def edit(self, page: PageInfo | None) -> None:
        """E: the page shown, edited in a change request: pick an open or draft one, or a
        new one; the review pane opens on it and runs the editor."""
        if page is None or not page.readable:
            self.notify("Open a document page first.", title="Nothing to edit", severity="warning")
            return
        if not self._may_create():
            return
        self._pick_change_request(page.id)

    @read("space-edit-cr", "Reading the change requests", opens_a_screen=True)
    async def _pick_change_request(self, page_id: str) -> None:
        client = client_of(self)
        found: list[ChangeRequest] = []
        for status in ("open", "draft"):  # every page: a busy space has more than one
            listed = client.change_requests.list(self.space.id, status=status, limit=100)
            found += [cr async for cr in listed]
        choices: list[tuple[str, ChangeRequest | str]] = [("New change request…", _NEW)]
        choices += [
            (f"#{cr.number} {cr.subject or '(no subject)'} · {cr.status}", cr) for cr in found
        ]

        from docdeck.tui.kit.dialogs.choose import ChooseDialog

        def chosen(choice: ChangeRequest | str | None) -> None:
            if choice == _NEW:
                self.new(then_edit=page_id)
            elif choice is not None and not isinstance(choice, str):
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
        self.screen.call_after_refresh(open_pane)
