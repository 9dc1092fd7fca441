"""Threads as the widgets show them: a comment with its replies, in a scope.

A scope is what `client.comments` takes (a space, or a space and one of its change
requests), narrowed to a page when a view shows one page's threads. `ThreadItem` is the
comment or the reply under the cursor: every action (reply, edit, delete, react,
resolve) is about one, and its `permissions` say whether the caller may.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from docdeck.tui.kit.availability import ALLOWED, NOT_HERE, Availability, allowed_if
from docdeck.tui.kit.session import Me

if TYPE_CHECKING:  # the space screen names a scope before any comment is read
    from docdeck.models.comments import Comment, CommentReply

__all__ = ["Me", "Scope", "Thread", "ThreadItem", "thread_availability"]

THREAD_ACTIONS = (
    "comment_block",
    "comment_scope",
    "reply",
    "edit_comment",
    "delete_comment",
    "react",
    "resolve",
    "thread_filter",
)
"""The thread keys (c C R e delete + x F): each asks `thread_availability`."""

THREAD_FOOTER = (
    "reply",
    "comment_block",
    "react",
    "resolve",
    "edit_comment",
    "delete_comment",
    "thread_filter",
    "comment_scope",
)
"""The thread keys in the order a narrow footer keeps them."""


@dataclass(frozen=True)
class Scope:
    space_id: str
    change_request: str | int | None = None
    """The change request's id or number: its threads instead of the space's own."""
    can_comment: bool = True
    """The space's (or change request's) `permissions.comment`."""

    @property
    def name(self) -> str:
        if self.change_request is None:
            return "the space"
        return f"change request #{self.change_request}"


@dataclass(eq=False)
class Thread:
    comment: Comment
    replies: list[CommentReply] = field(default_factory=list)
    busy: int = 0
    """Writes running on it (`docdeck.tui.kit.in_flight.Subject`)."""

    @property
    def title(self) -> str:
        return f"the thread of {self.comment.postedBy.displayName}"

    @property
    def resolved(self) -> bool:
        return self.comment.status == "resolved"

    @property
    def outdated(self) -> bool:
        page = self.comment.target.page
        return page is not None and page.outdated

    @property
    def page_id(self) -> str | None:
        page = self.comment.target.page
        return page.id if page is not None else None

    @property
    def node_id(self) -> str | None:
        node = self.comment.target.node
        return node.id if node is not None else None


@dataclass(frozen=True)
class ThreadItem:
    thread: Thread
    reply: CommentReply | None = None

    @property
    def subject(self) -> Comment | CommentReply:
        return self.reply if self.reply is not None else self.thread.comment

    @property
    def what(self) -> str:
        return "reply" if self.reply is not None else "comment"

    @property
    def key(self) -> str:
        return self.reply.id if self.reply is not None else self.thread.comment.id


def comments_of(threads: list[Thread]) -> Iterator[Comment | CommentReply]:
    """Every comment and reply of the threads, in order."""
    for thread in threads:
        yield thread.comment
        yield from thread.replies


_NO_COMMENT = "needs the comment role in the space"


def thread_availability(action: str, item: ThreadItem | None, scope: Scope | None) -> Availability:
    """Whether a thread key applies to the item under the cursor, and if not allowed, why."""
    if action in ("comment_block", "comment_scope"):
        if scope is None:
            return NOT_HERE
        return allowed_if(
            scope.can_comment,
            f"You may not comment in {scope.name}: it {_NO_COMMENT}.",
            _NO_COMMENT,
        )
    if action == "thread_filter":
        return ALLOWED if scope is not None else NOT_HERE
    if item is None:
        return NOT_HERE
    comment = item.thread.comment
    if action in ("reply", "react", "resolve"):
        allowed = comment.permissions.reply if action != "react" else item.subject.permissions.reply
        verb = {"reply": "reply to", "react": "react to", "resolve": "resolve or reopen"}[action]
        return allowed_if(
            allowed, f"You may not {verb} this {item.what}: it {_NO_COMMENT}.", _NO_COMMENT
        )
    subject = item.subject
    if action == "edit_comment":
        return allowed_if(
            subject.permissions.edit,
            f"You may not edit this {item.what}: only its author "
            f"({subject.postedBy.displayName}) may.",
            "only the author may",
        )
    if action == "delete_comment":
        return allowed_if(
            subject.permissions.delete,
            f"You may not delete this {item.what}: only its author "
            f"({subject.postedBy.displayName}) or a space admin may.",
            "only the author or an admin may",
        )
    return ALLOWED
