"""The threads panel's keys, declared apart from the panel: a view beside the panel that runs
them on its own cursor (the review pane's diff) binds them before the panel's code is
imported (the pane mounts its panel once its first diff is drawn)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from docdeck.tui.kit.bindings import binder

__all__ = ["PANEL_BINDINGS", "thread_binding"]

_b = binder("threads")

PANEL_BINDINGS: list[BindingType] = [
    _b("c", "comment_block", "Comment here", "A new thread on the highlighted thread's block"),
    _b("C", "comment_scope", "Comment…", "A new thread on the page or the whole scope"),
    _b("R", "reply", "Reply", "Reply to the highlighted thread"),
    _b("e", "edit_comment", "Edit comment", "Edit your comment or reply"),
    _b("delete", "delete_comment", "Delete", "Delete your comment or reply (asks first)"),
    _b("plus", "react", "React", "Add a reaction, or remove yours"),
    _b("x", "resolve", "Resolve", "Resolve the thread, or reopen it"),
    _b("F", "thread_filter", "Open/resolved", "Show all, open or resolved threads"),
]
"""`ThreadsPanel`'s keys."""


def thread_binding(panel_action: str, action: str, description: str, tooltip: str) -> Binding:
    """The panel's key for `panel_action`, bound by a view beside the panel that runs it on
    its own cursor (`action`, as the review pane's diff): under the panel's id, so one
    `[keymap]` entry remaps a thread key wherever it works."""
    for binding in PANEL_BINDINGS:
        if isinstance(binding, Binding) and binding.action == panel_action:
            return Binding(binding.key, action, description, id=binding.id, tooltip=tooltip)
    raise ValueError(f"the threads panel has no action {panel_action!r}")
