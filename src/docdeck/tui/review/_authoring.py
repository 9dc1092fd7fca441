"""Authoring a change request from the review pane: edit the current page in `$EDITOR`, add
a page, delete one, revert one to the base. Each is one `POST {CR}/content` (one new revision
of the change request), then the pane reloads so the diff shows it.

An edit that fails to save is never lost: a dialog says why (the server's 400 names
`changes[0].<field>`) and offers to save it again, to re-open the editor with it, or to copy it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from docdeck.gateway import APIError
from docdeck.tui.content.page_tree import PageInfo, SpacePages
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.sharing import copy_value
from docdeck.tui.kit.workers import read
from docdeck.tui.review._base import ChangeRequestWrites

if TYPE_CHECKING:
    from docdeck.models.change_request_content import ChangeRequestContentUpdate

__all__ = ["TOP_LEVEL", "PageAuthoring"]

TOP_LEVEL = "(top level)"


def _path_label(pages: SpacePages, info: PageInfo) -> str:
    """“Guides › Webhooks”: a page named with the pages above it, as a picker shows it."""
    return " › ".join(page.title for page in [*pages.ancestors(info), info])


class PageAuthoring(ChangeRequestWrites):
    """The pane's page writes (`E`, `N`, `K`, `U`, which the pane binds: they work wherever
    the focus is in it)."""

    async def author(self, changes: list[dict[str, Any]]) -> ChangeRequestContentUpdate:
        space_id, number = self.cr_ref
        return await self.client.change_requests.content.update(space_id, number, changes)

    def _page_or_say(self, doing: str) -> str | None:
        page_id = self.current_page_id()
        if page_id is None:
            self.notify(
                f"Move to a changed page first: {doing} acts on the page shown.",
                title="No page shown",
                severity="warning",
            )
        return page_id

    # -- E: edit in $EDITOR ---------------------------------------------------------------

    def edit_shown(self) -> None:
        if not self.may_write("edit", "editing a page"):
            return
        page_id = self.current_page_id()
        if page_id is None:
            # Nothing changed yet (a new change request): any of its pages can be edited.
            self._pick_page_to_edit()
            return
        self._edit_page(page_id)

    def edit_page(self, page_id: str) -> None:
        """Edit a page of the change request in $EDITOR (the space screen's E opens the pane
        with this)."""
        if self.may_write("edit", "editing a page"):
            self._edit_page(page_id)

    @read("review-edit", "Reading the change request's pages", opens_a_screen=True)
    async def _pick_page_to_edit(self) -> None:
        from docdeck.tui.kit.dialogs.choose import ChooseDialog

        space_id, number = self.cr_ref
        listed = await self.client.change_requests.content.pages(space_id, number)
        pages = SpacePages(listed.pages)
        choices = [(_path_label(pages, info), info.id) for info in pages.order if info.readable]
        if not choices:
            self.notify("It has no document page yet: N adds one.", title="Nothing to edit")
            return

        def chosen(page_id: str | None) -> None:
            if page_id is not None:
                self._edit_page(page_id)

        self.app.push_screen(ChooseDialog(f"Edit a page of #{number}", choices), chosen)

    @read("review-edit", "Opening the page in the editor")
    async def _edit_page(self, page_id: str, text: str | None = None, title: str = "") -> None:
        from docdeck.tui.kit.editor import edit_text

        if text is None:
            space_id, number = self.cr_ref
            page = await self.client.change_requests.content.page_markdown(
                space_id, number, page_id
            )
            markdown = page.markdown
            if markdown is None:
                self.notify(
                    f"“{page.title}” is not a document page: it has no markdown to edit.",
                    title="Cannot edit this page",
                    severity="warning",
                )
                return
            edited = await edit_text(self.app, markdown)
            if edited is None:
                return
            await self._save(page_id, page.title, edited)
            return
        again = await edit_text(self.app, text)
        # Unchanged (or the editor failed): the edit is still the one that did not save.
        await self._save(page_id, title, again if again is not None else text)

    @read("review-edit", lambda self, page_id, title, markdown: f"Saving “{title}”")
    async def _save_edit(self, page_id: str, title: str, markdown: str) -> None:
        await self._save(page_id, title, markdown)

    async def _save(self, page_id: str, title: str, markdown: str) -> None:
        change = {"operation": "update_page", "page": page_id, "document": {"markdown": markdown}}
        try:
            await self.author([change])
        except APIError as error:
            self._offer_again(page_id, title, markdown, error)
            return
        self.notify(f"“{title}” saved in #{self.change_request.number}.", title="Page saved")
        self.source.show_next = page_id  # the pane then shows the page just edited
        self.reload()

    def _offer_again(self, page_id: str, title: str, markdown: str, error: APIError) -> None:
        """The save failed: say why and keep the text until the user decides."""
        from docdeck.tui.kit.dialogs.choose import ChooseDialog

        problem = describe(error, f"Saving “{title}”", in_dialog=True)
        choices = [
            ("Save it again", "save"),
            ("Edit it again in $EDITOR (your text is kept)", "edit"),
            ("Copy your text", "copy"),
            ("Discard your edit", "discard"),
        ]

        def chosen(choice: str | None) -> None:
            if choice == "save":
                self._save_edit(page_id, title, markdown)
            elif choice == "edit":
                self._edit_page(page_id, markdown, title)
            elif choice == "copy":
                copy_value(self.screen, CopyValue("Your edit", markdown))
                self._offer_again(page_id, title, markdown, error)
            elif choice is None:
                # Escape is not a decision to throw the text away: ask again.
                self._offer_again(page_id, title, markdown, error)

        self.app.push_screen(
            ChooseDialog(f"Saving “{title}” failed: {problem.message}", choices), chosen
        )

    # -- N: add a page --------------------------------------------------------------------

    def add_page(self) -> None:
        if not self.may_write("edit", "adding a page"):
            return
        self._add_page()

    @read("review-add", "Reading the change request's pages", opens_a_screen=True)
    async def _add_page(self) -> None:
        from docdeck.tui.kit.dialogs.form import FormDialog, FormField

        space_id, number = self.cr_ref
        listed = await self.client.change_requests.content.pages(space_id, number)
        pages = SpacePages(listed.pages)
        parents: dict[str, str | None] = {TOP_LEVEL: None}
        for info in pages.order:
            parents.setdefault(_path_label(pages, info), info.id)
        current = self.current_page_id()
        current_label = next((k for k, v in parents.items() if v == current), TOP_LEVEL)

        async def submit(values: dict[str, str]) -> ChangeRequestContentUpdate:
            change: dict[str, Any] = {
                "operation": "insert_page",
                "title": values["title"].strip(),
                "document": {"markdown": f"# {values['title'].strip()}\n"},
            }
            parent = parents.get(values["parent"])
            if parent is not None:
                change["into"] = parent
            return await self.author([change])

        dialog = FormDialog(
            f"Add a page to #{number}",
            [
                FormField("title", "Title", required=True, max_length=100),
                FormField("parent", "Under", value=current_label, choices=tuple(parents.keys())),
            ],
            submit,
            doing="Adding the page",
            action_label="Add",
        )
        self.open_cr_write(dialog, "add-page")

    # -- K: delete, U: revert ---------------------------------------------------------------

    def _page_title(self, page_id: str) -> str:
        """“Title” of a changed page the pane lists, for the question asked before a write."""
        changes = self.source.changes
        for page in changes.pages if changes is not None else []:
            if page.page_id == page_id and page.title:
                return f"“{page.title}”"
        return "this page"

    def delete_page(self) -> None:
        self._page_operation(
            "delete_page",
            "deleting a page",
            lambda title, number: (
                f"Delete {title} and its subpages in #{number}? Main is not "
                "touched until the change request is merged; U (revert) brings it back."
            ),
            "Delete the page",
            doing="Deleting the page",
            action_label="Delete",
        )

    def revert_page(self) -> None:
        self._page_operation(
            "revert_page",
            "reverting a page",
            lambda title, number: (
                f"Discard every change #{number} makes to {title}? It gets "
                "the base revision's content back (an added page is removed)."
            ),
            "Revert the page",
            doing="Reverting the page",
            action_label="Revert",
        )

    def _page_operation(
        self,
        operation: str,
        checking: str,
        question: Callable[[str, int], str],
        heading: str,
        *,
        doing: str,
        action_label: str,
    ) -> None:
        """K and U: one operation on the page shown (`delete_page`, `revert_page`), asked
        first; the write is named after it (`delete-page`)."""
        from docdeck.tui.kit.dialogs.confirm import ConfirmDialog

        page_id = self._page_or_say(checking)
        if page_id is None or not self.may_write("edit", checking):
            return
        title = self._page_title(page_id)

        async def submit() -> ChangeRequestContentUpdate:
            return await self.author([{"operation": operation, "page": page_id}])

        asked = question(title, self.change_request.number)
        dialog = ConfirmDialog(heading, asked, submit, doing=doing, action_label=action_label)
        self.open_cr_write(dialog, operation.replace("_", "-"))
