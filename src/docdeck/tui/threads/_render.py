"""A comment or reply as lines of text: who, when, what it targets, the body, reactions.

Bodies are markdown; they are shown as text with the usual inline marks (bold, italic,
code) applied, not as rendered blocks: a thread reads like a chat log at any width, and
the server has already escaped any HTML (docs/comments.md).
"""

from __future__ import annotations

import re

from rich.text import Text

from docdeck.models.comments import Comment, CommentReply, EmojiReaction
from docdeck.tui.kit.formatting import datetime_text, emoji_text
from docdeck.tui.threads._model import Me, Thread

__all__ = ["body_text", "item_text", "reactions_text", "summary_text", "target_text"]

_MARKS = re.compile(r"\*\*(.+?)\*\*|__(.+?)__|\*(.+?)\*|_(.+?)_|`([^`]+)`")
_STYLES = ("bold", "bold", "italic", "italic", "reverse")


def body_text(markdown: str | None, *, indent: str = "") -> Text:
    text = Text()
    lines = (markdown or "").strip("\n").split("\n")
    for number, line in enumerate(lines):
        if number:
            text.append("\n")
        text.append(indent)
        position = 0
        for match in _MARKS.finditer(line):
            text.append(line[position : match.start()])
            group = next(i for i, g in enumerate(match.groups()) if g is not None)
            text.append(match.group(group + 1), style=_STYLES[group])
            position = match.end()
        text.append(line[position:])
    return text


def reactions_text(reactions: list[EmojiReaction], me: Me) -> Text:
    """`👍 2  🎉 1`, the caller's own highlighted (so `+` on it again removes it)."""
    text = Text()
    for reaction in reactions:
        if text:
            text.append("  ")
        mine = me.reacted(reaction)
        style = "bold reverse" if mine else ""
        text.append(f"{emoji_text(reaction.emoji)} {reaction.count}", style=style)
        if mine:
            text.append(" (you)", style="dim")
    return text


def target_text(comment: Comment) -> Text:
    """Where the thread is: the page and the block's text when posted, or the whole scope."""
    target = comment.target
    text = Text()
    if target.page is None:
        where = "change request" if target.changeRequest else "space"
        text.append(f"on the whole {where}", style="dim")
        return text
    text.append("on ", style="dim")
    text.append(target.page.title or "(untitled)", style="bold")
    if target.node is not None:
        preview = (target.node.preview or "").strip()
        if len(preview) > 80:
            preview = preview[:79] + "…"
        text.append(f" › “{preview}”" if preview else " › a block", style="italic")
    if target.page.outdated:
        text.append("  ⚠ outdated", style="bold yellow")
    return text


def _head(subject: Comment | CommentReply, *, reply: bool) -> Text:
    text = Text()
    if reply:
        text.append("  ↳ ", style="dim")
    text.append(subject.postedBy.displayName, style="bold")
    text.append(f"  {datetime_text(subject.postedAt)}", style="dim")
    if subject.editedAt is not None:
        text.append("  (edited)", style="dim italic")
    return text


def status_text(thread: Thread) -> Text:
    comment = thread.comment
    if thread.resolved:
        who = comment.resolvedBy.displayName if comment.resolvedBy is not None else "someone"
        return Text.assemble((f"✓ resolved by {who}", "green"))
    return Text.assemble(("● open", "bold cyan"))


def item_text(thread: Thread, reply: CommentReply | None, me: Me) -> Text:
    """One comment (with its status and target) or one reply, as the thread list shows it."""
    if reply is None:
        comment = thread.comment
        text = status_text(thread)
        text.append("  ")
        text.append_text(target_text(comment))
        text.append("\n")
        text.append_text(_head(comment, reply=False))
        text.append("\n")
        text.append_text(body_text(comment.body.markdown, indent="  "))
        reactions, replies = comment.reactions, comment.replies
        if reactions:
            text.append("\n  ")
            text.append_text(reactions_text(reactions, me))
        if replies and not thread.replies:
            text.append(f"\n  {replies} repl{'y' if replies == 1 else 'ies'}…", style="dim")
        return text
    text = _head(reply, reply=True)
    text.append("\n")
    text.append_text(body_text(reply.body.markdown, indent="      "))
    if reply.reactions:
        text.append("\n      ")
        text.append_text(reactions_text(reply.reactions, me))
    return text


def summary_text(thread: Thread, me: Me) -> Text:
    """A thread in one or two lines, for showing it inline after the block it targets."""
    comment = thread.comment
    text = Text("💬 ", style="")
    text.append_text(status_text(thread))
    text.append(f"  {comment.postedBy.displayName}: ", style="bold")
    first = (comment.body.markdown or "").strip().split("\n")[0]
    text.append_text(body_text(first[:100] + ("…" if len(first) > 100 else "")))
    if comment.replies:
        text.append(
            f"  · {comment.replies} repl{'y' if comment.replies == 1 else 'ies'}", style="dim"
        )
    if comment.reactions:
        text.append("  ")
        text.append_text(reactions_text(comment.reactions, me))
    if thread.outdated:
        text.append("  ⚠ outdated", style="bold yellow")
    return text
