"""The space screen: pages, preview, links, files, history, search and comments."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docdeck.tui.kit.lazy import lazy_exports

if TYPE_CHECKING:
    from docdeck.tui.space._comments import line_in_view
    from docdeck.tui.space._files_view import FilesView
    from docdeck.tui.space._history_view import HistoryView, merged_name
    from docdeck.tui.space._links_view import LinksView
    from docdeck.tui.space._page_tree import PageTree
    from docdeck.tui.space._screen import SpaceScreen
    from docdeck.tui.space._search_view import SEARCH_PAUSE, SearchView

__all__ = [
    "SEARCH_PAUSE",
    "FilesView",
    "HistoryView",
    "LinksView",
    "PageTree",
    "SearchView",
    "SpaceScreen",
    "line_in_view",
    "merged_name",
]

_LAZY: dict[str, str] = {
    "FilesView": "docdeck.tui.space._files_view",
    "HistoryView": "docdeck.tui.space._history_view",
    "LinksView": "docdeck.tui.space._links_view",
    "PageTree": "docdeck.tui.space._page_tree",
    "SEARCH_PAUSE": "docdeck.tui.space._search_view",
    "SearchView": "docdeck.tui.space._search_view",
    "SpaceScreen": "docdeck.tui.space._screen",
    "line_in_view": "docdeck.tui.space._comments",
    "merged_name": "docdeck.tui.space._history_view",
}
"""Each public name and the module that defines it, imported on first use."""

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
