"""Widgets of the review pane: the changed pages, the diff and the header."""

from docdeck.tui.widgets.review._changed_pages import ChangedPagesList
from docdeck.tui.widgets.review._diff_view import DiffView
from docdeck.tui.widgets.review._header import header_text

__all__ = ["ChangedPagesList", "DiffView", "header_text"]
