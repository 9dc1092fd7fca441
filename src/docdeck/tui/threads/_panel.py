"""The threads of a scope (a space, or a change request), with every thread key.

Used by the space screen's comments view and by the review pane: it is given a `Scope`
and loads, shows and changes that scope's threads itself. Each write goes through the
screen-wide write mechanism (`docdeck.tui.kit.in_flight`), with the thread as its subject:
a key pressed twice sends one request, a composer whose post fails stays open with the
reason and the text, and a write whose dialog was closed is followed to its end.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from functools import cached_property
from typing import ClassVar, Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.dom import DOMNode
from textual.message import Message
from textual.widgets import Static
from textual.worker import Worker

from docdeck.gateway import Client
from docdeck.tui.kit.availability import Availability
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.explained import ExplainsKeys
from docdeck.tui.kit.in_flight import Writes
from docdeck.tui.kit.session import session_of
from docdeck.tui.kit.workers import client_of, read, report_worker_failure
from docdeck.tui.threads._actions import ThreadActions
from docdeck.tui.threads._model import (
    THREAD_ACTIONS,
    Me,
    Scope,
    Thread,
    ThreadItem,
    comments_of,
    thread_availability,
)
from docdeck.tui.threads._thread_list import ThreadList, group_threads
from docdeck.tui.threads.keys import PANEL_BINDINGS

__all__ = ["FILTERS", "ThreadsPanel", "me_of"]

FILTERS: tuple[Literal["all", "open", "resolved"], ...] = ("all", "open", "resolved")
REPLY_READS = 8
"""Threads whose replies are read at once."""


def me_of(node: DOMNode) -> Me:
    """The session's one `Me` (who the caller is, learnt from the comments)."""
    return session_of(node).me


@dataclass(eq=False)
class _ScopeSubject:
    """The subject of a new thread's write (a scope has no thread yet)."""

    title: str
    busy: int = 0


class ThreadsPanel(ExplainsKeys, ThreadActions):
    EXPLAINED_ACTIONS = THREAD_ACTIONS
    BINDINGS: ClassVar[list[BindingType]] = PANEL_BINDINGS
    DEFAULT_CSS = """
    ThreadsPanel { height: 1fr; }
    ThreadsPanel > #threads-status { height: auto; padding: 0 1; background: $boost; }
    ThreadsPanel > #threads-status.-error { color: $error; }
    /* Docked under another view (the review pane's diff): a share of the height, the
       status line alone when there is no thread, a few lines on a narrow terminal until
       it has focus. */
    ThreadsPanel.-docked { height: 35%; border-top: hkey $foreground 20%; }
    ThreadsPanel.-docked.-empty { height: auto; }
    ThreadsPanel.-docked.-empty > ThreadList { display: none; }
    ThreadsPanel.-docked.-narrow { height: 5; }
    ThreadsPanel.-docked.-narrow:focus-within { height: 60%; }
    """

    class Loaded(Message):
        """The threads shown changed (read, written, filtered): views showing them
        elsewhere (inline in a diff) follow."""

        def __init__(self, panel: ThreadsPanel) -> None:
            super().__init__()
            self.panel = panel

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.scope: Scope | None = None
        self.only_page: str | None = None
        self.page_id: str | None = None
        self.page_title = ""
        self.threads: list[Thread] = []
        self.filter: Literal["all", "open", "resolved"] = "all"
        self.loaded = False
        self._scope_subject = _ScopeSubject("a new thread")

    def compose(self) -> ComposeResult:
        yield Static("", id="threads-status", markup=False)
        yield ThreadList(id="thread-list")

    @property
    def thread_list(self) -> ThreadList:
        return self.query_one(ThreadList)

    @property
    def client(self) -> Client:
        return client_of(self)

    @cached_property
    def writes(self) -> Writes:
        return Writes(self, lambda _subject: self._status())

    @property
    def me(self) -> Me:
        return me_of(self)

    @property
    def item(self) -> ThreadItem | None:
        found = self.query(ThreadList)  # none while the panel is composed or taken down
        return found.first().highlighted_item if found else None

    # ----- scope and loading -------------------------------------------------------------

    def set_scope(self, scope: Scope, *, only_page: str | None = None) -> None:
        """Show `scope`'s threads (of one page only, when `only_page` is given)."""
        if scope == self.scope and only_page == self.only_page and self.loaded:
            return
        self.scope, self.only_page = scope, only_page
        self.threads, self.loaded = [], False
        self.load()

    def set_page(self, page_id: str | None, title: str = "") -> None:
        """The page being read: its threads come first and `C` offers it."""
        if page_id == self.page_id:
            return
        self.page_id, self.page_title = page_id, title
        if self.loaded:
            self._fill()

    def load(self, keep: str | None = None) -> None:
        if self.scope is None:
            return
        self._status("loading threads…")
        self._load(keep)

    @read("threads-load", lambda self, *_: f"Reading the threads of {self.scope.name}")
    async def _load(self, keep: str | None = None) -> None:
        scope = self.scope
        if scope is None:
            return
        try:
            threads = await self.read_threads(scope)
        except Exception as error:
            problem = describe(error, f"Reading the threads of {scope.name}")
            self._status(
                f"{problem.title}: {problem.brief or problem.message}{problem.retry_note}", True
            )
            if problem.fatal:
                self.app.report_error(error, "Reading the threads")  # type: ignore[attr-defined]
            return
        if scope != self.scope:
            return
        self.threads, self.loaded = threads, True
        self.me.learn(comments_of(threads))
        self._fill(keep)

    async def read_threads(self, scope: Scope) -> list[Thread]:
        comments = self.client.comments
        threads = [
            Thread(comment)
            async for comment in comments.list(
                scope.space_id,
                change_request=scope.change_request,
                target_page=self.only_page,
                limit=100,
            )
        ]
        gate = asyncio.Semaphore(REPLY_READS)

        async def replies(thread: Thread) -> None:
            async with gate:
                thread.replies = [
                    reply
                    async for reply in comments.replies.list(
                        scope.space_id,
                        thread.comment.id,
                        change_request=scope.change_request,
                        limit=100,
                    )
                ]

        await asyncio.gather(*(replies(t) for t in threads if t.comment.replies))
        return threads

    def shown_threads(self) -> list[Thread]:
        if self.filter == "all":
            return list(self.threads)
        return [t for t in self.threads if (t.resolved == (self.filter == "resolved"))]

    def _fill(self, keep: str | None = None) -> None:
        if not self.is_mounted:
            return
        self.thread_list.show(group_threads(self.shown_threads(), self.page_id), self.me, keep=keep)
        self._status()
        self.screen.refresh_bindings()
        self.post_message(self.Loaded(self))

    def _status(self, message: str | None = None, error: bool = False) -> None:
        if not self.is_mounted:
            return
        status = self.query_one("#threads-status", Static)
        status.set_class(error, "-error")
        if message is not None:
            status.update(message)
            return
        self.set_class(self.loaded and not self.threads, "-empty")
        opened = sum(1 for t in self.threads if not t.resolved)
        resolved = len(self.threads) - opened
        text = Text()
        where = self.scope.name if self.scope is not None else ""
        text.append(f"Threads in {where}: ", style="bold")
        text.append(f"{opened} open, {resolved} resolved")
        text.append(f" · showing {self.filter} (F)", style="dim")
        if any(t.busy for t in self.threads) or self._scope_subject.busy:
            text.append(" · sending…", style="italic")
        if not self.shown_threads():
            can = self.scope is not None and self.scope.can_comment
            hint = "C starts one." if can else ""
            text.append(f"\nNo {'' if self.filter == 'all' else self.filter + ' '}threads. {hint}")
        status.update(text)

    # ----- keys: availability ------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in THREAD_ACTIONS:
            return True
        state = thread_availability(action, self.item, self.scope)
        if not state.applies:
            return False
        return True if state.allowed else None

    def availability_of(self, action: str) -> Availability:
        return thread_availability(action, self.item, self.scope)

    def on_option_list_option_highlighted(self) -> None:
        self.screen.refresh_bindings()

    def action_thread_filter(self) -> None:
        self.filter = FILTERS[(FILTERS.index(self.filter) + 1) % len(FILTERS)]
        self._fill()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        event.stop()
        report_worker_failure(self, event)
