"""What every group of browser actions relies on: the tree, the detail pane, the client, and
the writes in flight (`docdeck.tui.kit.in_flight`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from functools import cached_property
from typing import Any, TypeVar

from textual.screen import Screen
from textual.widget import Widget

from docdeck.gateway import Client
from docdeck.tui.kit.dialogs.request import RequestDialog
from docdeck.tui.kit.entries import Entry
from docdeck.tui.kit.in_flight import Subject, Write, Writes
from docdeck.tui.kit.workers import client_of
from docdeck.tui.orgs._detail_pane import DetailPane
from docdeck.tui.orgs._org_tree import OrgTree

__all__ = ["BrowserBase"]

T = TypeVar("T")
W = TypeVar("W", bound=Widget)


class BrowserBase(Screen[None]):
    @property
    def org_tree(self) -> OrgTree:
        return self._part(OrgTree) or self.query_one(OrgTree)

    @property
    def detail(self) -> DetailPane:
        return self._part(DetailPane) or self.query_one(DetailPane)

    def _part(self, kind: type[W]) -> W | None:
        """The screen's one `kind` widget, or None before it is mounted. Kept once found:
        the footer asks for the selection (so for the tree and the detail pane) for every
        key it shows, and a DOM query each time made every footer update cost ~1 ms a key."""
        parts: dict[type[Widget], Widget] = self.__dict__.setdefault("_parts", {})
        found = parts.get(kind)
        if found is None or not found.is_attached or found.screen is not self:
            found = next(iter(self.query(kind)), None)
            if found is None:
                return None
            parts[kind] = found
        assert isinstance(found, kind)
        return found

    @property
    def client(self) -> Client:
        return client_of(self)

    @cached_property
    def writes(self) -> Writes:
        return Writes(self, self._busy_changed)

    def _busy_changed(self, subject: Subject) -> None:
        if isinstance(subject, Entry):
            self.org_tree.show_marks(subject)

    def open_write(
        self,
        dialog: RequestDialog[T],
        subject: Entry,
        action: str,
        *,
        applied: Callable[[T], None] | None = None,
        reread: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """Open a dialog whose request is a write on `subject`; while the same action on it
        still runs (its dialog closed early), the key is ignored (the tree shows it busy)."""
        if self.writes.running(subject, action):
            self.app.bell()
            return
        self.app.push_screen(
            dialog.follow(self.writes, subject, action, applied=applied, reread=reread)
        )

    def send_write(
        self,
        subject: Entry,
        action: str,
        doing: str,
        request: Callable[[], Awaitable[Any]],
        *,
        applied: Callable[[Any], None] | None = None,
        reread: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """A write without a dialog (a key does it at once); repeats are ignored while it runs."""
        self.writes.start(Write(subject, action, doing, request, applied=applied, reread=reread))
