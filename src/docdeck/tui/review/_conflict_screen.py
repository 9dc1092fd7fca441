"""The conflict view: each conflict an update wrote into a change request's pages, main's
version beside the change request's; keep one side or edit it in `$EDITOR`, then save every
resolved page through authoring (one revision) and merge.

Closes with "merged", "saved", or None (nothing saved). Resolutions not yet saved are not
dropped by one stray Escape: the first one says so, a second one closes.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from docdeck.gateway import APIError
from docdeck.models import ChangeRequest, Space
from docdeck.tui.kit.editor import edit_text
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.list_keys import NavOptionList
from docdeck.tui.kit.workers import client_of, read
from docdeck.tui.review._change_request_dialog import ChangeRequestDialog
from docdeck.tui.review.conflict_pages import conflicted_pages, describe_result, save_resolutions
from docdeck.tui.review.conflicts import Conflict, ConflictedPage, has_markers

__all__ = ["ConflictScreen"]

_CHOSEN = {"main": "keeps main", "change": "keeps the change request", "edited": "edited"}


class ConflictScreen(ChangeRequestDialog[str | None]):
    help_intro = (
        "Conflicts: each block that main and the change request both changed. 1 keeps "
        "main's side, 2 the change request's, e writes it yourself in $EDITOR; s saves the "
        "resolved pages to the change request. Escape closes; nothing is saved until s.\n"
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="conflicts.close", tooltip="Close"),
        Binding("1", "keep('main')", "Keep main", id="conflicts.main", tooltip="Keep main's"),
        Binding("2", "keep('change')", "Keep CR", id="conflicts.change", tooltip="Keep the CR's"),
        Binding("e", "edit", "Edit", id="conflicts.edit", tooltip="Write it in $EDITOR"),
        Binding("s", "save", "Save", id="conflicts.save", tooltip="Save the resolved pages"),
        Binding("m", "save_and_merge", "Save+merge", id="conflicts.merge", tooltip="Then merge"),
    ]

    def __init__(self, space: Space, change_request: ChangeRequest) -> None:
        super().__init__(space, change_request)
        self.pages: list[ConflictedPage] = []
        self.entries: list[tuple[ConflictedPage, Conflict]] = []
        self.unsaved = False
        self.warned = False
        self.running = ""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="conflicts"):
            yield Label(
                f"Conflicts in #{self.change_request.number}", id="dialog-title", markup=False
            )
            yield NavOptionList(id="conflict-list")
            with Horizontal(id="conflict-sides"):
                with VerticalScroll(classes="conflict-side"):
                    yield Static("", id="conflict-main", markup=False)
                with VerticalScroll(classes="conflict-side"):
                    yield Static("", id="conflict-change", markup=False)
            yield Static("", id="dialog-error", markup=False)
            yield Label(
                "1 keep main  2 keep change request  e edit  s save  m save and merge",
                classes="dialog-keys",
                markup=False,
            )

    def on_mount(self) -> None:
        self._set_error("")
        self.load()

    @read("conflicts-load", "Reading the conflicts")
    async def load(self) -> None:
        try:
            self.pages = await conflicted_pages(client_of(self), *self._ref)
        except APIError as error:
            self._set_error(describe(error, "Reading the conflicts", in_dialog=True).message)
            return
        self.entries = [(page, conflict) for page in self.pages for conflict in page.conflicts]
        if not self.entries:
            self._set_error("No page of this change request holds conflict markers.")
        self._fill()
        self.query_one("#conflict-list", OptionList).focus()

    def _label(self, index: int) -> str:
        page, conflict = self.entries[index]
        number = page.conflicts.index(conflict) + 1
        state = _CHOSEN.get(conflict.chosen, "unresolved")
        mark = "✓" if conflict.resolution is not None else "✗"
        return f"{mark} “{page.title}” conflict {number} of {len(page.conflicts)}: {state}"

    def _fill(self) -> None:
        options = self.query_one("#conflict-list", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        for index in range(len(self.entries)):
            options.add_option(Option(self._label(index), id=str(index)))
        if self.entries:
            options.highlighted = min(highlighted or 0, len(self.entries) - 1)
        self._show()

    def _current(self) -> tuple[ConflictedPage, Conflict] | None:
        index = self.query_one("#conflict-list", OptionList).highlighted
        if index is None or index >= len(self.entries):
            return None
        return self.entries[index]

    @on(OptionList.OptionHighlighted)
    def _highlighted(self) -> None:
        self._show()

    def _show(self) -> None:
        current = self._current()
        main = self.query_one("#conflict-main", Static)
        change = self.query_one("#conflict-change", Static)
        if current is None:
            main.update("")
            change.update("")
            return
        _, conflict = current
        main.update(Text.assemble((f"{conflict.main_label}\n", "bold"), conflict.main))
        change.update(Text.assemble((f"{conflict.change_label}\n", "bold"), conflict.change))

    def _changed(self) -> None:
        self.unsaved = True
        self.warned = False
        self._set_error("")
        self._fill()

    def action_keep(self, side: str) -> None:
        current = self._current()
        if current is None or self.running:
            return
        current[1].keep(side)
        self._changed()

    def action_edit(self) -> None:
        current = self._current()
        if current is not None and not self.running:
            self.edit(current[1])

    @read("conflicts-edit", "Editing the conflict in $EDITOR")
    async def edit(self, conflict: Conflict) -> None:
        start = conflict.resolution if conflict.resolution is not None else conflict.as_markers()
        edited = await edit_text(self.app, start)
        if edited is None:
            return
        if has_markers(edited):
            self._set_error(
                "The text still has conflict markers (<<<<<<<): press e and remove them, "
                "keeping what should stay."
            )
            return
        conflict.edited(edited)
        self._changed()

    def action_close(self) -> None:
        if self.running:
            self.notify(f"{self.running} is running: wait for it.", title="Still running")
            return
        if self.unsaved and not self.warned:
            self.warned = True
            self._set_error(
                "Your resolutions are not saved: s saves them; escape again discards them."
            )
            return
        self.dismiss(None)

    def _ready(self, merging: bool) -> bool:
        if not any(page.resolved for page in self.pages):
            self._set_error("Resolve every conflict of a page first (1, 2 or e).")
            return False
        if merging and not all(page.resolved for page in self.pages):
            self._set_error("Every conflict must be resolved before merging; s saves these.")
            return False
        if not self.space.permissions.edit:
            self._set_error("Your role does not allow editing this space: it needs edit.")
            return False
        if merging and not self.space.permissions.merge:
            self._set_error("Your role does not allow merging: s saves the resolutions.")
            return False
        return True

    def action_save(self) -> None:
        if not self.running and self._ready(merging=False):
            self.save(merge=False)

    def action_save_and_merge(self) -> None:
        if not self.running and self._ready(merging=True):
            self.save(merge=True)

    @read("conflicts-save", "Saving the resolutions")
    async def save(self, merge: bool) -> None:
        client = client_of(self)
        number = self.change_request.number
        try:
            self._set_running(f"Saving the resolutions to #{number}")
            await save_resolutions(client, *self._ref, self.pages)
            self.unsaved = False
            if not merge:
                self._set_running("")
                self.app.notify(f"Resolutions saved to #{number}.", title="Saved")
                self.dismiss("saved")
                return
            self._set_running(f"Merging #{number}")
            result = (await client.change_requests.merge(*self._ref)).result
        except APIError as error:
            doing = self.running
            self._set_running("")
            self._set_error(describe(error, doing, in_dialog=True).message)
            return
        self._set_running("")
        title, message, severity = describe_result("merge", result, number)
        self.app.notify(message, title=title, severity=severity, timeout=8)
        self.dismiss("merged" if result in ("merge", "conflicts") else "saved")

    def _set_running(self, doing: str) -> None:
        self.running = doing
        self.query_one("#dialog").loading = bool(doing)
