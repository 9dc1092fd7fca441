"""Reacting: an emoji picker, and a toggle (reacting again with the same emoji removes it).

The API adds or removes the caller's own reaction (`addedReactions`/`removedReactions`),
idempotently. Whether the caller has already reacted comes from `Me`; while the caller is
not known yet, the toggle adds first and, when the count did not change (the reaction was
already there), removes it: the answer is right either way, and the user who appeared or
went away is the caller (docs/tui.md).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text

from docdeck.gateway import Client
from docdeck.models import emoji_characters
from docdeck.tui.kit.formatting import emoji_text
from docdeck.tui.threads._model import Me, Scope, ThreadItem

if TYPE_CHECKING:  # the comment models are built when a thread is read, not with the pane
    from docdeck.models.comments import Comment, CommentReply, EmojiReaction

__all__ = ["EMOJI_CHOICES", "choose_emoji", "toggle_reaction", "update_item"]

EMOJI_CHOICES: tuple[tuple[str, str], ...] = (
    ("👍", "thumbs up"),
    ("👎", "thumbs down"),
    ("😄", "smile"),
    ("🎉", "hooray"),
    ("😕", "confused"),
    ("❤", "heart"),
    ("🚀", "rocket"),
    ("👀", "eyes"),
    ("🙏", "thanks"),
    ("✅", "done"),
)


def _find(reactions: list[EmojiReaction], emoji: str) -> EmojiReaction | None:
    """The reaction of `emoji`, whichever form each is written in (the platform may answer
    with codepoints, `1f44d`, where docdeck sends the character, 👍)."""
    wanted = emoji_characters(emoji)
    return next((r for r in reactions if emoji_characters(r.emoji) == wanted), None)


def _count(reactions: list[EmojiReaction], emoji: str) -> int:
    found = _find(reactions, emoji)
    return found.count if found is not None else 0


async def update_item(
    client: Client, scope: Scope, item: ThreadItem, **change: Any
) -> Comment | CommentReply:
    """The item changed as `change` says: a reply through the replies endpoint, a thread's
    first comment through the comments one."""
    comments, thread, reply = client.comments, item.thread, item.reply
    if reply is not None:
        return await comments.replies.update(
            scope.space_id,
            thread.comment.id,
            reply.id,
            change_request=scope.change_request,
            **change,
        )
    return await comments.update(
        scope.space_id, thread.comment.id, change_request=scope.change_request, **change
    )


def toggle_reaction(
    client: Client, scope: Scope, item: ThreadItem, emoji: str, me: Me
) -> Callable[[], Awaitable[Comment | CommentReply]]:
    """The request that adds the caller's `emoji` to the item, or removes it if given."""

    async def update(**change: Any) -> Comment | CommentReply:
        return await update_item(client, scope, item, **change)

    async def request() -> Comment | CommentReply:
        before = item.subject.reactions
        given = _find(before, emoji)
        mine = me.reacted(given) if given is not None else (False if me.user_id else None)
        if mine and given is not None:
            return await update(removed_reactions=[given.emoji])  # as the server wrote it
        if mine is False:
            return await update(added_reactions=[emoji])
        added = await update(added_reactions=[emoji])
        if _count(added.reactions, emoji) > _count(before, emoji):
            me.learn_from(before, added.reactions, emoji)
            return added
        there = _find(added.reactions, emoji)  # it was there: toggle it off
        removed = await update(removed_reactions=[there.emoji if there is not None else emoji])
        me.learn_from(added.reactions, removed.reactions, emoji)
        return removed

    return request


def choose_emoji(
    owner: Any, item: ThreadItem, me: Me, chosen: Callable[[str | None], None]
) -> None:
    """The picker: the usual emoji, those already on the item first, the caller's marked."""
    from docdeck.tui.kit.chooser import Chooser

    reactions = {emoji_characters(r.emoji): r for r in item.subject.reactions}
    choices = list(dict.fromkeys([*reactions, *(e for e, _ in EMOJI_CHOICES)]))
    names = dict(EMOJI_CHOICES)
    items: list[tuple[Text | str, str]] = []
    for emoji in choices:
        label = Text(f"{emoji_text(emoji)}  {names.get(emoji, '')}")
        reaction = reactions.get(emoji)
        if reaction is not None:
            label.append(f"  {reaction.count}", style="dim")
            if me.reacted(reaction):
                label.append("  yours: enter removes it", style="bold")
        items.append((label, emoji))
    chooser: Chooser[str] = Chooser(
        f"React to this {item.what}", items, hint="enter: react (again: remove) · esc: close"
    )
    owner.app.push_screen(chooser, chosen)
