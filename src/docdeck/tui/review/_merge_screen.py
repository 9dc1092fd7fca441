"""Merge readiness and merging: a checklist (permission, status, outdated, conflict markers,
reviews), then update from main when outdated and merge — each step's `result` read.

Closes with "merged", "conflicts" (the update wrote markers: the pane opens the conflict
view), "updated", or None when nothing was done.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Label, Static

from docdeck.gateway import APIError
from docdeck.models import ChangeRequest, Space
from docdeck.models.change_requests import ChangeRequestRequestedReviewer, ChangeRequestReview
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.workers import client_of, read
from docdeck.tui.review._change_request_dialog import ChangeRequestDialog
from docdeck.tui.review._header import review_state
from docdeck.tui.review.conflict_pages import conflicted_pages, describe_result
from docdeck.tui.review.conflicts import ConflictedPage

__all__ = ["MergeScreen", "Readiness"]

OK, NO, NOTE = "✓", "✗", "!"


@dataclass
class Readiness:
    """What the checklist says; `blocker` is why merging is not possible ("" when it is)."""

    lines: list[tuple[str, str]]
    blocker: str


def readiness(
    space: Space,
    change_request: ChangeRequest,
    conflicts: list[ConflictedPage],
    reviews: list[ChangeRequestReview],
    requested: list[ChangeRequestRequestedReviewer],
) -> Readiness:
    lines: list[tuple[str, str]] = []
    blockers: list[str] = []
    if space.permissions.merge:
        lines.append((OK, "You may merge into this space."))
    else:
        why = "Your role on this space does not allow merging: it needs the edit role or above."
        lines.append((NO, why))
        blockers.append(why)
    status = change_request.status
    if status == "open":
        lines.append((OK, "Open for merging."))
    else:
        why = {
            "draft": "It is a draft: mark it ready (D) first.",
            "merged": "It is already merged.",
            "archived": "It is archived.",
        }.get(status, f"Its status is {status}.")
        lines.append((NO, why))
        blockers.append(why)
    if change_request.outdated:
        lines.append((NOTE, "Outdated: main moved since; merging updates from main first."))
    else:
        lines.append((OK, "Up to date with main."))
    if conflicts:
        titles = ", ".join(f"“{page.title}”" for page in conflicts)
        count = sum(len(page.conflicts) for page in conflicts)
        why = f"{count} unresolved conflict(s) in {titles}: c resolves them."
        lines.append((NO, why))
        blockers.append(why)
    else:
        lines.append((OK, "No unresolved conflicts."))
    verdicts = review_state(reviews, change_request)
    approved = verdicts.pop("approved", [])
    outdated = verdicts.pop("outdated approved", []) + verdicts.pop(
        "outdated changes-requested", []
    )
    against = [name for names in verdicts.values() for name in names]
    if approved:
        lines.append((OK, f"Approved by {', '.join(approved)}."))
    if against:
        lines.append((NOTE, f"Changes requested by {', '.join(against)}."))
    if outdated:
        lines.append(
            (NOTE, f"Outdated review by {', '.join(outdated)}: made on an older revision.")
        )
    if not (approved or against or outdated):
        lines.append((NOTE, "No reviews yet."))
    waiting = [item.user.displayName for item in requested if item.user is not None]
    if waiting:
        lines.append((NOTE, f"Waiting for a review from {', '.join(waiting)}."))
    return Readiness(lines, blockers[0] if blockers else "")


class MergeScreen(ChangeRequestDialog[str | None]):
    AUTO_FOCUS = "#merge-close"
    """Enter closes: merging and updating are asked by their keys (m, u). Left to Textual,
    the first focus was the first enabled button (Merge is disabled while the checklist is
    read), Update from main, so an Enter typed with `m` brought main's changes in unasked."""
    help_intro = (
        "Merge: the checklist says whether the change request can merge (reviews, conflicts, "
        "draft, your role) and why not. m merges into main, u first brings main's changes "
        "in, c resolves conflicts. Escape closes without merging.\n"
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="merge.close", tooltip="Close"),
        Binding("m", "merge", "Merge", id="merge.merge", tooltip="Merge into main"),
        Binding("u", "update", "Update", id="merge.update", tooltip="Update from main"),
        Binding("c", "conflicts", "Conflicts", id="merge.conflicts", tooltip="Resolve conflicts"),
    ]

    def __init__(self, space: Space, change_request: ChangeRequest) -> None:
        super().__init__(space, change_request)
        self.state: Readiness | None = None
        self.conflicts: list[ConflictedPage] = []
        self.running = ""

    def compose(self) -> ComposeResult:
        number, subject = self.change_request.number, self.change_request.subject
        with Vertical(id="dialog", classes="merge"):
            yield Label(f"Merge #{number} “{subject}”", id="dialog-title", markup=False)
            yield Static("Checking…", id="merge-checklist", markup=False)
            yield Static("", id="dialog-error", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Merge (m)", variant="primary", id="merge-ok", disabled=True)
                yield Button("Update (u)", id="merge-update")
                yield Button("Close", id="merge-close")
            yield Static("", id="merge-reason", markup=False)

    def on_mount(self) -> None:
        self._set_error("")
        self.check()

    @read("merge-check", "Checking merge readiness")
    async def check(self) -> None:
        client = client_of(self)
        try:
            self.change_request = await client.change_requests.get(*self._ref)
            self.conflicts = await conflicted_pages(client, *self._ref)
            reviews = [r async for r in client.change_requests.reviews.list(*self._ref)]
            requested = (await client.change_requests.requested_reviewers.list(*self._ref)).items
        except APIError as error:
            self._set_error(describe(error, "Checking merge readiness", in_dialog=True).message)
            return
        self.state = readiness(self.space, self.change_request, self.conflicts, reviews, requested)
        text = Text()
        for mark, line in self.state.lines:
            style = {OK: "green", NO: "red"}.get(mark, "yellow")
            text.append(f"{mark} ", style=f"bold {style}")
            text.append(f"{line}\n")
        self.query_one("#merge-checklist", Static).update(text)
        self.query_one("#merge-ok", Button).disabled = bool(self.state.blocker)
        reason = f"Merge is disabled: {self.state.blocker}" if self.state.blocker else ""
        self.query_one("#merge-reason", Static).update(reason)

    def action_close(self) -> None:
        if self.running:
            self.notify(
                f"{self.running} is running: this closes when the server answers.",
                title="Still running",
            )
            return
        self.dismiss(None)

    def action_conflicts(self) -> None:
        if self.conflicts and not self.running:
            self.dismiss("conflicts")

    def action_merge(self) -> None:
        if self.running:
            return
        if self.state is None:
            self._set_error("Still checking whether it can merge; try again in a moment.")
            return
        if self.state.blocker:
            self._set_error(f"Cannot merge: {self.state.blocker}")
            return
        self.merge()

    def action_update(self) -> None:
        if self.running:
            return
        if not self.space.permissions.merge:
            self._set_error("Your role does not allow updating from main: it needs edit.")
            return
        self.update()

    @read("merge-run", "Updating the change request")
    async def update(self) -> None:
        if await self._update() is not None:
            self.dismiss("updated")

    async def _update(self) -> str | None:
        """Update from main; the result as answered, or None after a failure (shown)."""
        number = self.change_request.number
        self._set_running(f"Updating #{number} from main")
        try:
            result = (await client_of(self).change_requests.update_from_main(*self._ref)).result
        except APIError as error:
            self._failed(error)
            return None
        self._set_running("")
        title, message, severity = describe_result("update", result, number)
        self.app.notify(message, title=title, severity=severity, timeout=8)
        if result == "conflicts":
            self.dismiss("conflicts")
            return None
        if result != "update":
            self._set_error(message)
            return None
        return result

    @read("merge-run", "Merging the change request")
    async def merge(self) -> None:
        number = self.change_request.number
        if self.change_request.outdated and await self._update() is None:
            return
        self._set_running(f"Merging #{number}")
        try:
            result = (await client_of(self).change_requests.merge(*self._ref)).result
        except APIError as error:
            self._failed(error)
            return
        self._set_running("")
        title, message, severity = describe_result("merge", result, number)
        self.app.notify(message, title=title, severity=severity, timeout=8)
        if result in ("merge", "conflicts"):
            self.dismiss("merged")
        else:
            self._set_error(message)

    def _set_running(self, doing: str) -> None:
        self.running = doing
        self.query_one("#dialog").loading = bool(doing)

    def _failed(self, error: APIError) -> None:
        doing = self.running
        self._set_running("")
        self._set_error(describe(error, doing, in_dialog=True).message)
        self.check()

    @on(Button.Pressed, "#merge-ok")
    def _ok(self) -> None:
        self.action_merge()

    @on(Button.Pressed, "#merge-update")
    def _update_pressed(self) -> None:
        self.action_update()

    @on(Button.Pressed, "#merge-close")
    def _close(self) -> None:
        self.action_close()
