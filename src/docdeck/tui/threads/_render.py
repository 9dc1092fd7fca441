"""A comment or reply as lines of text: who, when, what it targets, the body, reactions.

Bodies are markdown; they are shown as text with their inline marks (bold, italic,
code, strike, links) applied, not as rendered blocks: a thread reads like a chat log at
any width, and the server has already escaped any HTML (docs/comments.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from docdeck.tui.content.markdown import parser
from docdeck.tui.kit.formatting import datetime_text, emoji_text
from docdeck.tui.threads._model import Me, Thread

if TYPE_CHECKING:
    from markdown_it.token import Token

    from docdeck.models.comments import Comment, CommentReply, EmojiReaction

__all__ = ["body_text", "item_text", "reactions_text", "summary_text", "target_text"]

_STYLES = {"strong": "bold", "em": "italic", "s": "strike", "link": "underline"}


def body_text(markdown: str | None, *, indent: str = "") -> Text:
    """The body line by line, each line's inline marks from markdown-it's inline tokens:
    escapes are honoured, code spans keep their characters, and emphasis that begins or
    ends inside a word (`2*3*4`, `file*.md`) is shown as typed."""
    text = Text()
    lines = (markdown or "").strip("\n").split("\n")
    for number, line in enumerate(lines):
        if number:
            text.append("\n")
        text.append(indent)
        text.append_text(_line_text(line))
    return text


def _line_text(line: str) -> Text:
    text = Text()
    if not line:
        return text
    # The inline rules of the parser the rest of docdeck reads markdown with (~~strike~~ too).
    tokens = parser().parseInline(line)[0].children or []
    literal = _intraword_marks(tokens)
    styles: list[str] = []
    for index, token in enumerate(tokens):
        kind = token.type
        if index in literal:
            text.append(token.markup, style=" ".join(styles))
        elif kind.endswith("_open"):
            styles.append(_STYLES.get(kind.removesuffix("_open"), ""))
        elif kind.endswith("_close"):
            if styles:
                styles.pop()
            if kind == "link_close":
                opener = _opener(tokens, index)
                href = str(opener.attrs.get("href", "")) if opener is not None else ""
                if opener is not None and opener.markup != "autolink" and href:
                    text.append(f" ({href})", style="dim")
        elif kind == "code_inline":
            text.append(token.content, style=" ".join([*styles, "reverse"]))
        elif kind == "image":
            text.append(f"[image: {token.content}]" if token.content else "[image]", style="dim")
        elif kind in ("softbreak", "hardbreak"):
            text.append(" ")
        else:  # text, html_inline (the server escaped HTML already), anything new
            text.append(token.content, style=" ".join(styles))
    return text


def _opener(tokens: list[Token], close: int) -> Token | None:
    depth = 0
    for token in reversed(tokens[:close]):
        if token.type == "link_close":
            depth += 1
        elif token.type == "link_open":
            if not depth:
                return token
            depth -= 1
    return None


def _intraword_marks(tokens: list[Token]) -> set[int]:
    """Indexes of emphasis open/close pairs that touch a word character on their outside."""
    literal: set[int] = set()
    stack: list[int] = []
    for index, token in enumerate(tokens):
        if token.type in ("em_open", "strong_open"):
            stack.append(index)
        elif token.type in ("em_close", "strong_close") and stack:
            opened = stack.pop()
            before = tokens[opened - 1] if opened else None
            after = tokens[index + 1] if index + 1 < len(tokens) else None
            inside_word = (
                before is not None and before.type == "text" and before.content[-1:].isalnum()
            ) or (after is not None and after.type == "text" and after.content[:1].isalnum())
            if inside_word:
                literal.update((opened, index))
    return literal


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
    # 0.202.0 may name the page by its id alone: it has a title, just not given here.
    text.append(target.page.title or "a page", style="bold")
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
