"""The review pane's thread keys, declared apart from the threads' code: the pane binds them
(they work from the diff and from the threads list) before it mounts its threads panel,
once the first diff is drawn (`ReviewLoading.show_threads`)."""

from __future__ import annotations

from textual.binding import BindingType

from docdeck.tui.threads.keys import thread_binding

__all__ = ["CHECKED", "THREAD_BINDINGS", "binds"]

CHECKED = {
    "thread_comment_block": "comment_block",
    "thread_comment_scope": "comment_scope",
    "thread_filter": "thread_filter",
    "thread_reply": "reply",
    "thread_edit": "edit_comment",
    "thread_delete": "delete_comment",
    "thread_react": "react",
    "thread_resolve": "resolve",
}
"""The screen's thread keys and the availability each asks (`thread_availability`)."""

THREAD_BINDINGS: list[BindingType] = [
    thread_binding(
        "comment_block",
        "thread_comment_block",
        "Comment",
        "Comment on the block of the line under the cursor",
    ),
    thread_binding(
        "comment_scope",
        "thread_comment_scope",
        "Comment…",
        "Comment on the page or the change request",
    ),
    thread_binding("reply", "thread_reply", "Reply", "Reply to the thread at the cursor"),
    thread_binding("edit_comment", "thread_edit", "Edit", "Edit your comment at the cursor"),
    thread_binding(
        "delete_comment",
        "thread_delete",
        "Delete",
        "Delete your comment at the cursor (asks first)",
    ),
    thread_binding("react", "thread_react", "React", "React to the comment at the cursor"),
    thread_binding(
        "resolve", "thread_resolve", "Resolve", "Resolve or reopen the thread at the cursor"
    ),
    thread_binding(
        "thread_filter", "thread_filter", "Open/resolved", "Show all, open or resolved threads"
    ),
]
"""The thread keys, bound by the pane (they work from the diff and the threads list),
under the panel's ids (`thread_binding`)."""


def binds(action: str) -> bool:
    """`action` is one of the pane's thread keys (`DiffThreads` runs them)."""
    return action in CHECKED
