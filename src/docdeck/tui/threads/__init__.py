"""Comment threads: the thread list, the composer, reactions, written once for the space
screen's comments view and the review pane."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docdeck.tui.kit.lazy import lazy_exports

if TYPE_CHECKING:
    from docdeck.tui.threads._composer import Composer, DiscardDraft
    from docdeck.tui.threads._model import (
        THREAD_FOOTER,
        Me,
        Scope,
        Thread,
        ThreadItem,
        thread_availability,
    )
    from docdeck.tui.threads._panel import ThreadsPanel, me_of
    from docdeck.tui.threads._render import body_text, summary_text
    from docdeck.tui.threads.keys import thread_binding

__all__ = [
    "THREAD_FOOTER",
    "Composer",
    "DiscardDraft",
    "Me",
    "Scope",
    "Thread",
    "ThreadItem",
    "ThreadsPanel",
    "body_text",
    "me_of",
    "summary_text",
    "thread_availability",
    "thread_binding",
]

_LAZY: dict[str, str] = {
    "Composer": "docdeck.tui.threads._composer",
    "DiscardDraft": "docdeck.tui.threads._composer",
    "Me": "docdeck.tui.threads._model",
    "Scope": "docdeck.tui.threads._model",
    "THREAD_FOOTER": "docdeck.tui.threads._model",
    "Thread": "docdeck.tui.threads._model",
    "ThreadItem": "docdeck.tui.threads._model",
    "ThreadsPanel": "docdeck.tui.threads._panel",
    "body_text": "docdeck.tui.threads._render",
    "me_of": "docdeck.tui.threads._panel",
    "summary_text": "docdeck.tui.threads._render",
    "thread_availability": "docdeck.tui.threads._model",
    "thread_binding": "docdeck.tui.threads.keys",
}
"""Each public name and the module that defines it, imported on first use."""

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
