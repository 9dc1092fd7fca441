"""Comment threads: the thread list, the composer, reactions, written once for the space
screen's comments view and the review pane."""

from docdeck.tui.widgets.threads._composer import Composer
from docdeck.tui.widgets.threads._model import THREAD_FOOTER, Me, Scope, Thread, ThreadItem
from docdeck.tui.widgets.threads._panel import ThreadsPanel, me_of
from docdeck.tui.widgets.threads._render import summary_text

__all__ = [
    "THREAD_FOOTER",
    "Composer",
    "Me",
    "Scope",
    "Thread",
    "ThreadItem",
    "ThreadsPanel",
    "me_of",
    "summary_text",
]
