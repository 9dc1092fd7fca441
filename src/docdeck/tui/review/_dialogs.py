"""Reviewing a change request: the verdict dialog (approve / request changes, with an optional
comment) and the requested reviewers (list, add from the organization's members, remove)."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from docdeck.gateway import APIError, Client
from docdeck.models import ChangeRequest, Space
from docdeck.models.change_requests import (
    ChangeRequestRequestedReviewer,
    ChangeRequestReview,
    ChangeRequestReviewStatus,
)
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.kit.dialogs.form import FormDialog, FormField
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.list_keys import NavOptionList
from docdeck.tui.kit.workers import client_of, read
from docdeck.tui.review._change_request_dialog import ChangeRequestDialog

__all__ = ["APPROVE", "REQUEST_CHANGES", "RequestedReviewersScreen", "review_dialog"]

CAN_REVIEW = ("review", "edit", "create", "admin")
"""Organization roles that include reviewing (comment and read do not)."""

APPROVE = "approve"
REQUEST_CHANGES = "request changes"
_STATUS: dict[str, ChangeRequestReviewStatus] = {
    APPROVE: "approved",
    REQUEST_CHANGES: "changes-requested",
}


def review_dialog(
    client: Client, space: Space, change_request: ChangeRequest
) -> FormDialog[ChangeRequestReview]:
    number = change_request.number

    async def submit(values: dict[str, str]) -> ChangeRequestReview:
        comment = values["comment"].strip() or None
        return await client.change_requests.reviews.submit(
            space.id,
            number,
            status=_STATUS[values["verdict"]],
            comment=comment,
        )

    return FormDialog(
        f"Review #{number} “{change_request.subject}”",
        [
            FormField("verdict", "Verdict", choices=(APPROVE, REQUEST_CHANGES)),
            FormField(
                "comment",
                "Comment (optional, markdown; several lines; posted as a comment on the change "
                "request). ctrl+s sends",
                multiline=True,
            ),
        ],
        submit,
        doing="Sending the review",
        action_label="Send review",
    )


class RequestedReviewersScreen(ChangeRequestDialog[bool]):
    """Who is asked to review; `a` adds one of the organization's members, `d` removes the
    highlighted one. Closes with True when something changed (the pane reloads)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="reviewers.close", tooltip="Close"),
        Binding("a", "add", "Add", id="reviewers.add", tooltip="Ask a member to review"),
        Binding("d,delete", "remove", "Remove", id="reviewers.remove", tooltip="Withdraw"),
    ]

    def __init__(self, space: Space, change_request: ChangeRequest) -> None:
        super().__init__(space, change_request)
        self.reviewers: list[ChangeRequestRequestedReviewer] = []
        self.changed = False
        self._names: dict[str, str] = {}
        """User id -> name of the people shown, so an error can name them."""

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="pick"):
            yield Label(
                f"Requested reviewers of #{self.change_request.number}",
                id="dialog-title",
                markup=False,
            )
            yield NavOptionList(id="reviewer-list")
            yield Static("", id="dialog-error", markup=False)
            yield Label("a: add   d: remove   escape: close", classes="dialog-keys", markup=False)

    def on_mount(self) -> None:
        self._set_error("")
        self.load()

    @read("reviewers", "Reading the requested reviewers")
    async def load(self) -> None:
        try:
            page = await client_of(self).change_requests.requested_reviewers.list(*self._ref)
        except APIError as error:
            self._set_error(describe(error, "Reading the reviewers", in_dialog=True).message)
            return
        self.reviewers = [item for item in page.items if item.user is not None]
        options = self.query_one("#reviewer-list", OptionList)
        options.clear_options()
        for item in self.reviewers:
            assert item.user is not None
            self._names[item.user.id] = item.user.displayName
            options.add_option(
                Option(f"{item.user.displayName}  (asked by {item.requestedBy.displayName})")
            )
        if not self.reviewers:
            options.add_option(
                Option("Nobody is asked to review yet: a adds someone.", disabled=True)
            )
        else:
            options.highlighted = 0
        options.focus()

    def action_close(self) -> None:
        self.dismiss(self.changed)

    def action_add(self) -> None:
        if not self.space.permissions.edit:
            self._set_error("Your role does not allow asking for reviews: it needs the edit role.")
            return
        self.pick_member()

    @read("reviewers", "Reading the members", opens_a_screen=True)
    async def pick_member(self) -> None:
        try:
            # every page: in an organization of more than 1,000 members, those after the
            # first page could not be asked (the chooser lists 200 at once, filtered as typed)
            listed = client_of(self).members.list(self.space.organization, limit=1000)
            members = [member async for member in listed]
        except APIError as error:
            self._set_error(describe(error, "Reading the members", in_dialog=True).message)
            return
        asked = {item.user.id for item in self.reviewers if item.user is not None}
        author = self.change_request.createdBy.id
        choices: list[tuple[str, str]] = []
        below = 0
        for member in members:
            user = member.user
            if user.id in asked or user.id == author or member.disabled:
                continue
            self._names[user.id] = user.displayName
            if member.role not in CAN_REVIEW:
                below += 1  # reading or commenting only: the server would refuse them
                continue
            choices.append((f"{user.displayName} · {member.role}", user.id))
        if not choices:
            self._set_error("Every member who may review is already asked.")
            return
        hint = "enter: ask · esc: close · type to filter"
        if below:
            hint += f" · {below} member(s) below the review role not listed"
        self.app.push_screen(Chooser("Ask to review", choices, hint=hint), self._picked)

    def _picked(self, user_id: str | None) -> None:
        if user_id is not None:
            self.request(user_id)

    def _named(self, message: str) -> str:
        """An error names people, never a raw user id."""
        for user_id, name in self._names.items():
            message = message.replace(user_id, name)
        return message

    @read("reviewers-write", "Requesting a review")
    async def request(self, user_id: str) -> None:
        reviewers = client_of(self).change_requests.requested_reviewers
        await self._change(reviewers.request(*self._ref, [user_id]), "Asking for a review")

    def action_remove(self) -> None:
        options = self.query_one("#reviewer-list", OptionList)
        index = options.highlighted
        if index is None or index >= len(self.reviewers):
            return
        if not self.space.permissions.edit:
            self._set_error("Your role does not allow removing reviewers: it needs the edit role.")
            return
        user = self.reviewers[index].user
        if user is not None:
            self.remove_reviewer(user.id)

    @read("reviewers-write", "Removing the reviewer")
    async def remove_reviewer(self, user_id: str) -> None:
        reviewers = client_of(self).change_requests.requested_reviewers
        await self._change(reviewers.remove(*self._ref, user_id), "Removing the reviewer")

    async def _change(self, sent: Awaitable[object], doing: str) -> None:
        """A change to the reviewers: refused, the dialog says why (naming people); done,
        the list is read again."""
        try:
            await sent
        except APIError as error:
            problem = describe(error, doing, in_dialog=True)
            self._set_error(self._named(problem.message))
            return
        self.changed = True
        self._set_error("")
        self.load()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
