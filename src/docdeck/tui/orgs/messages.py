"""Messages the TUI's workers and widgets post; dataclasses so they read as plain records."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from docdeck.tui.kit.entries import Entry, LoadMoreEntry


@dataclass
class ChildrenLoaded(Message):
    """A page of an entry's children arrived (`replacing` is the "load more…" entry it fills)."""

    entry: Entry
    children: list[Entry]
    replacing: LoadMoreEntry | None = None


@dataclass
class ChildrenFailed(Message):
    """Loading an entry's children failed; the tree shows a retry hint in place."""

    entry: Entry
    replacing: LoadMoreEntry | None = None
    error: BaseException | None = None
    """Why (kept with a stale list, so the detail pane can say it)."""


@dataclass
class EntrySelected(Message):
    """The tree cursor moved to an entry: the detail pane and the bindings follow it."""

    entry: Entry | None


@dataclass
class RowChanged(Message):
    """The highlighted row of a detail table changed (a member or a team membership)."""


@dataclass
class EntryOpened(Message):
    """Enter on an entry whose content is a table (Members, a team): focus goes into it."""

    entry: Entry


@dataclass
class SpaceOpened(Message):
    """Enter on a space in the tree: the screen below pushes the space screen."""

    entry: Entry
