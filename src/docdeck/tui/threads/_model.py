"""Threads as the widgets show them: a comment with its replies, in a scope.

A scope is what `client.comments` takes (a space, or a space and one of its change
requests), narrowed to a page when a view shows one page's threads. `ThreadItem` is the
comment or the reply under the cursor: every action (reply, edit, delete, react,
resolve) is about one, and its `permissions` say whether the caller may.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from docdeck.models.comments import Comment, CommentReply, EmojiReaction
from docdeck.tui.kit.availability import ALLOWED, NOT_HERE, Availability

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


class Me:
    """Who the caller is, as far as the comments tell: the API has no "who am I" row in the
    reference, so the author of anything the caller may edit is the caller, and a reaction
    the caller adds shows which user appeared."""

    def __init__(self) -> None:
        self.user_id: str | None = None

    def learn(self, threads: list[Thread]) -> None:
        if self.user_id is not None:
            return
        for thread in threads:
            subjects: list[Comment | CommentReply] = [thread.comment, *thread.replies]
            for subject in subjects:
                if subject.permissions.edit:
                    self.user_id = subject.postedBy.id
                    return

    def learn_from(
        self, before: list[EmojiReaction], after: list[EmojiReaction], emoji: str
    ) -> None:
        def users(reactions: list[EmojiReaction]) -> set[str]:
            for reaction in reactions:
                if reaction.emoji == emoji:
                    return {u.user.id for u in reaction.users}
            return set()

        changed = users(after) ^ users(before)
        if len(changed) == 1:
            self.user_id = next(iter(changed))

    def reacted(self, reaction: EmojiReaction) -> bool | None:
        """True or False when known; None when the caller is not known yet."""
        if self.user_id is None:
            return None
        return any(u.user.id == self.user_id for u in reaction.users)


def _refused(reason: str, cause: str) -> Availability:
    return Availability(applies=True, reason=reason, cause=cause)


_NO_COMMENT = "needs the comment role in the space"


def thread_availability(action: str, item: ThreadItem | None, scope: Scope | None) -> Availability:
    """Whether a thread key applies to the item under the cursor, and if not allowed, why."""
    if action in ("comment_block", "comment_scope"):
        if scope is None:
            return NOT_HERE
        if not scope.can_comment:
            return _refused(f"You may not comment in {scope.name}: it {_NO_COMMENT}.", _NO_COMMENT)
        return ALLOWED
    if action == "thread_filter":
        return ALLOWED if scope is not None else NOT_HERE
    if item is None:
        return NOT_HERE
    comment = item.thread.comment
    if action in ("reply", "react", "resolve"):
        allowed = comment.permissions.reply if action != "react" else item.subject.permissions.reply
        if allowed:
            return ALLOWED
        verb = {"reply": "reply to", "react": "react to", "resolve": "resolve or reopen"}[action]
        return _refused(f"You may not {verb} this {item.what}: it {_NO_COMMENT}.", _NO_COMMENT)
    subject = item.subject
    if action == "edit_comment":
        if subject.permissions.edit:
            return ALLOWED
        return _refused(
            f"You may not edit this {item.what}: only its author "
            f"({subject.postedBy.displayName}) may.",
            "only the author may",
        )
    if action == "delete_comment":
        if subject.permissions.delete:
            return ALLOWED
        return _refused(
            f"You may not delete this {item.what}: only its author "
            f"({subject.postedBy.displayName}) or a space admin may.",
            "only the author or an admin may",
        )
    return ALLOWED
