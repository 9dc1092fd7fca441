"""The thread keys that write: a new thread, reply, edit, delete, react, resolve.

Mixed into `ThreadsPanel`, which holds the scope, the threads and the list. Every write
runs through the panel's writes in flight (`docdeck.tui.kit.in_flight`) with the thread as its
subject, and the server's answer is put in the thread (or the threads are read again).
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, Literal

from rich.text import Text
from textual.containers import Vertical

from docdeck.gateway import Client
from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from docdeck.tui.kit.dialogs.request import RequestDialog
from docdeck.tui.kit.in_flight import Write, Writes
from docdeck.tui.threads._model import Me, Scope, Thread, ThreadItem
from docdeck.tui.threads._reactions import choose_emoji, toggle_reaction, update_item
from docdeck.tui.threads._render import body_text, target_text

if TYPE_CHECKING:  # the comment models are built when a thread is read, not with the pane
    from docdeck.models.comments import Comment, CommentReply

__all__ = ["ThreadActions"]


class ThreadActions(Vertical):
    scope: Scope | None
    threads: list[Thread]
    filter: Literal["all", "open", "resolved"]
    page_id: str | None
    page_title: str
    _scope_subject: Any

    @property
    def client(self) -> Client:
        raise NotImplementedError

    @property
    def me(self) -> Me:
        raise NotImplementedError

    @property
    def item(self) -> ThreadItem | None:
        raise NotImplementedError

    @cached_property
    def writes(self) -> Writes:
        raise NotImplementedError

    def load(self, keep: str | None = None) -> None:
        raise NotImplementedError

    def _fill(self, keep: str | None = None) -> None:
        raise NotImplementedError

    def explain(self, action: str) -> bool:
        raise NotImplementedError

    def _open(self, dialog: RequestDialog[Any], subject: Any, action: str, applied: Any) -> None:
        if self.writes.running(subject, action):
            self.app.bell()
            return
        self.app.push_screen(dialog.follow(self.writes, subject, action, applied=applied))

    def _target(self) -> tuple[ThreadItem, Scope] | None:
        """What a thread key acts on: the highlighted comment or reply and the scope its
        requests name; None when nothing is highlighted."""
        item, scope = self.item, self.scope
        if item is None or scope is None:
            return None
        return item, scope

    def compose_thread(self, page_id: str | None, node: str | None, context: Text) -> None:
        """Open the composer for a new thread: on a block (`node`), a page, or the scope."""
        scope = self.scope
        if scope is None:
            return
        if not scope.can_comment:
            self.explain("comment_scope")
            return

        async def submit(text: str) -> Comment:
            return await self.client.comments.post(
                scope.space_id, text, change_request=scope.change_request, page=page_id, node=node
            )

        def applied(comment: Comment) -> None:
            if self.filter == "resolved":
                self.filter = "all"
            self.load(keep=comment.id)
            if not self.display:  # posted from another view (the page being read)
                self.notify("Your comment is posted; the threads view shows it.", title="Posted")

        from docdeck.tui.threads._composer import Composer  # a TextArea: on first use

        self._open(
            Composer("New comment", context, submit, doing="Posting the comment"),
            self._scope_subject,
            "post",
            applied,
        )

    def action_comment_block(self) -> None:
        item = self.item
        if item is None:
            self.action_comment_scope()
            return
        thread = item.thread
        node = thread.node_id if not thread.outdated else None
        page = thread.page_id
        target_page = thread.comment.target.page
        if target_page is not None and thread.outdated and target_page.title == "(deleted page)":
            page = None
        context = Text("A new thread ")
        context.append_text(target_text(thread.comment))
        if thread.outdated:
            context.append("\n(the block has changed: the new thread is on the page)", style="dim")
        self.compose_thread(page, node, context)

    def action_comment_scope(self) -> None:
        scope = self.scope
        if scope is None:
            return
        whole = "the whole " + ("change request" if scope.change_request is not None else "space")
        if self.page_id is None:
            self.compose_thread(None, None, Text(f"A new thread on {whole}"))
            return
        from docdeck.tui.kit.chooser import Chooser

        page_id, page_label = self.page_id, f"the page “{self.page_title or self.page_id}”"
        items: list[tuple[Text | str, str]] = [
            (f"On {page_label}", "page"),
            (f"On {whole}", "whole"),
        ]

        def chosen(where: str | None) -> None:
            if where == "page":
                self.compose_thread(page_id, None, Text(f"A new thread on {page_label}"))
            elif where == "whole":
                self.compose_thread(None, None, Text(f"A new thread on {whole}"))

        chooser: Chooser[str] = Chooser("Comment on…", items, hint="enter: choose · esc: close")
        self.app.push_screen(chooser, chosen)

    def action_reply(self) -> None:
        target = self._target()
        if target is None:
            return
        item, scope = target
        thread = item.thread

        async def submit(text: str) -> CommentReply:
            return await self.client.comments.replies.post(
                scope.space_id, thread.comment.id, text, change_request=scope.change_request
            )

        def applied(reply: CommentReply) -> None:
            thread.replies.append(reply)
            thread.comment = thread.comment.model_copy(update={"replies": len(thread.replies)})
            self._fill(keep=reply.id)

        context = Text(f"Reply to {thread.comment.postedBy.displayName}: ")
        context.append_text(body_text((thread.comment.body.markdown or "").split("\n")[0][:160]))
        from docdeck.tui.threads._composer import Composer

        self._open(
            Composer("Reply", context, submit, doing="Posting the reply"), thread, "reply", applied
        )

    def action_edit_comment(self) -> None:
        target = self._target()
        if target is None:
            return
        item, scope = target

        async def submit(text: str) -> Comment | CommentReply:
            return await update_item(self.client, scope, item, markdown=text)

        from docdeck.tui.threads._composer import Composer

        composer = Composer(
            f"Edit your {item.what}",
            target_text(item.thread.comment),
            submit,
            doing=f"Saving your {item.what}",
            text=item.subject.body.markdown or "",
            action_label="Save",
        )
        self._open(composer, item.thread, f"edit-{item.key}", self._replace)

    def _replace(self, updated: Comment | CommentReply) -> None:
        """Put the server's answer for a comment or reply in its thread."""
        from docdeck.models.comments import Comment, CommentReply

        for thread in self.threads:
            if isinstance(updated, Comment) and thread.comment.id == updated.id:
                thread.comment = updated
            elif isinstance(updated, CommentReply):
                thread.replies = [updated if r.id == updated.id else r for r in thread.replies]
        self._fill()

    def action_delete_comment(self) -> None:
        target = self._target()
        if target is None:
            return
        item, scope = target
        thread, reply = item.thread, item.reply

        async def submit() -> None:
            comments = self.client.comments
            if reply is not None:
                await comments.replies.delete(
                    scope.space_id, thread.comment.id, reply.id, change_request=scope.change_request
                )
            else:
                await comments.delete(
                    scope.space_id, thread.comment.id, change_request=scope.change_request
                )

        def applied(_: None) -> None:
            if reply is not None:
                thread.replies = [r for r in thread.replies if r.id != reply.id]
                thread.comment = thread.comment.model_copy(update={"replies": len(thread.replies)})
                self._fill(keep=thread.comment.id)
            else:
                self.threads = [t for t in self.threads if t is not thread]
                self._fill()

        first = (item.subject.body.markdown or "").strip().split("\n")[0][:80]
        extra = (
            f" and its {thread.comment.replies} replies"
            if reply is None and thread.comment.replies
            else ""
        )
        dialog: ConfirmDialog[None] = ConfirmDialog(
            f"Delete your {item.what}?",
            f"“{first}”{extra} will be deleted for everyone.",
            submit,
            doing=f"Deleting the {item.what}",
        )
        self._open(dialog, thread, f"delete-{item.key}", applied)

    def action_react(self) -> None:
        target = self._target()
        if target is None:
            return
        item, scope = target

        def chosen(emoji: str | None) -> None:
            if emoji is None:
                return
            request = toggle_reaction(self.client, scope, item, emoji, self.me)
            write = Write(
                item.thread, f"react-{item.key}", "Reacting", request, applied=self._replace
            )
            if not self.writes.start(write):
                self.app.bell()

        choose_emoji(self, item, self.me, chosen)

    def action_resolve(self) -> None:
        target = self._target()
        if target is None:
            return
        item, scope = target
        thread = item.thread
        resolve = not thread.resolved

        async def request() -> Comment:
            return await self.client.comments.update(
                scope.space_id,
                thread.comment.id,
                change_request=scope.change_request,
                resolved=resolve,
            )

        def applied(comment: Comment) -> None:
            self._replace(comment)
            if self.filter != "all" and comment.status != self.filter:
                shown = "resolved" if resolve else "open"
                self.notify(f"The thread is {shown} now: F shows {shown} threads.", title="Thread")

        doing = "Resolving the thread" if resolve else "Reopening the thread"
        if not self.writes.start(Write(thread, "resolve", doing, request, applied=applied)):
            self.app.bell()
