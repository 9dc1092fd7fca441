"""Everything a reviewer or author does to a change request from the review pane: review,
requested reviewers, update from main, merge (with its checklist and conflict view), subject,
draft/ready, archive, PDF (authoring is `_authoring.py`).

An invisible part of the review pane (`ChangeRequestWrites`), reading the pane's change
request as last read; the pane binds the keys (they work wherever the focus is in it). Every
write runs in a worker; the result of update and merge is read from the answer's `result`,
never from the status code.
"""

from __future__ import annotations

from typing import Literal

from docdeck.models import ChangeRequest
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.in_flight import Said
from docdeck.tui.kit.sharing import copy_value, open_url
from docdeck.tui.kit.workers import read
from docdeck.tui.review._base import ChangeRequestWrites

__all__ = ["ChangeRequestActions"]


class ChangeRequestActions(ChangeRequestWrites):
    """`a`, `w`, `u`, `m`, `S`, `D`, `X` and `P` on the pane's change request."""

    # -- reviews ------------------------------------------------------------------------

    def review(self) -> None:
        from docdeck.tui.review._dialogs import review_dialog

        if not self.may_write("review", "reviewing"):
            return
        self.open_cr_write(review_dialog(self.client, self.space, self.change_request), "review")

    def reviewers(self) -> None:
        from docdeck.tui.review._dialogs import RequestedReviewersScreen

        self.app.push_screen(
            RequestedReviewersScreen(self.space, self.change_request), self._reload_if
        )

    def _reload_if(self, changed: bool | None) -> None:
        if changed:
            self.reload()

    # -- update and merge -----------------------------------------------------------------

    def update_from_main(self) -> None:
        if not self.may_write("merge", "updating from main"):
            return
        space_id, number = self.cr_ref

        async def request() -> str:
            result = await self.client.change_requests.update_from_main(space_id, number)
            return result.result

        def said(result: str) -> Said:
            # On use, as the merge and conflict screens are: the pane's first diff does
            # not wait for the conflict markers' parser.
            from docdeck.tui.review.conflict_pages import describe_result

            return describe_result("update", result, number)

        def applied(result: str) -> None:
            title, message, severity = said(result)
            self.notify(message, title=title, severity=severity, timeout=8)
            if result == "conflicts":
                self.open_conflicts()

        self.send_cr_write(
            "update", f"Updating #{number} from main", request, applied=applied, said=said
        )

    def open_conflicts(self) -> None:
        from docdeck.tui.review._conflict_screen import ConflictScreen

        self.app.push_screen(ConflictScreen(self.space, self.change_request), self._after_merge)

    def merge(self) -> None:
        from docdeck.tui.review._merge_screen import MergeScreen

        self.app.push_screen(MergeScreen(self.space, self.change_request), self._after_merge)

    def _after_merge(self, outcome: str | None) -> None:
        if outcome == "conflicts":
            self.open_conflicts()
        if outcome:
            self.reload()

    # -- the change request itself --------------------------------------------------------

    def edit_subject(self) -> None:
        from docdeck.tui.kit.dialogs.form import FormDialog, FormField

        if not self.may_write("edit", "editing the subject"):
            return
        space_id, number = self.cr_ref

        async def submit(values: dict[str, str]) -> ChangeRequest:
            return await self.client.change_requests.update(
                space_id, number, subject=values["subject"].strip()
            )

        field = FormField("subject", "Subject", value=self.change_request.subject, max_length=100)
        dialog = FormDialog(f"Subject of #{number}", [field], submit, doing="Saving the subject")
        self.open_cr_write(dialog, "subject")

    def toggle_draft(self) -> None:
        if not self.may_write("edit", "changing the status"):
            return
        space_id, number = self.cr_ref
        status: Literal["open", "draft"] = (
            "open" if self.change_request.status == "draft" else "draft"
        )
        doing = f"Marking #{number} {'ready' if status == 'open' else 'draft'}"

        async def request() -> ChangeRequest:
            return await self.client.change_requests.update(space_id, number, status=status)

        def applied(change_request: ChangeRequest) -> None:
            said = "ready for review (open)" if change_request.status == "open" else "a draft"
            self.notify(f"#{number} is now {said}.", title="Status changed")

        self.send_cr_write("status", doing, request, applied=applied)

    def archive(self) -> None:
        """Archive the change request, or reopen an archived one (the API lets any status
        but merged change: archiving is not one-way). Both ask first."""
        number, subject = self.change_request.number, self.change_request.subject
        if self.change_request.status == "archived":
            if self.allowed("edit", "reopening"):
                self._set_status_asking(
                    "open",
                    "Reopen the change request",
                    f"Reopen #{number} “{subject}”? It is open for review and merge again, "
                    "with its content and comments.",
                    doing="Reopening",
                    label="Reopen",
                )
            return
        if self.may_write("edit", "archiving"):
            self._set_status_asking(
                "archived",
                "Archive the change request",
                f"Archive #{number} “{subject}”? It is no longer open for review or merge; "
                "its content and comments are kept.",
                doing="Archiving",
                label="Archive",
            )

    def _set_status_asking(
        self,
        status: Literal["open", "archived"],
        title: str,
        question: str,
        *,
        doing: str,
        label: str,
    ) -> None:
        from docdeck.tui.kit.dialogs.confirm import ConfirmDialog

        space_id, number = self.cr_ref

        async def submit() -> ChangeRequest:
            return await self.client.change_requests.update(space_id, number, status=status)

        dialog = ConfirmDialog(title, question, submit, doing=doing, action_label=label)
        self.open_cr_write(dialog, "archive")

    def pdf(self) -> None:
        self._pdf()

    @read("review-pdf", "Exporting the PDF", opens_a_screen=True)
    async def _pdf(self) -> None:
        from docdeck.tui.kit.dialogs.choose import ChooseDialog

        space_id, number = self.cr_ref
        pdf = await self.client.change_requests.pdf(space_id, number)
        choices = [("Open it in the browser", "open"), ("Copy the link", "copy")]

        def chosen(choice: str | None) -> None:
            if choice == "open":
                open_url(self.screen, pdf.url, "PDF link")
            elif choice == "copy":
                copy_value(self.screen, CopyValue("PDF link", pdf.url), why="Valid for one hour: ")

        self.app.push_screen(
            ChooseDialog(f"PDF of #{number} (link valid one hour)", choices), chosen
        )
