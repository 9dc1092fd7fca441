"""Change requests: the list (also inside the space screen), the inbox, the review pane,
the diff, merging and conflicts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docdeck.tui.kit.lazy import lazy_exports

if TYPE_CHECKING:
    from docdeck.tui.review._change_requests_view import ChangeRequestsView
    from docdeck.tui.review._changed_pages import ChangedPagesList
    from docdeck.tui.review._conflict_screen import ConflictScreen
    from docdeck.tui.review._diff_text import styled_lines
    from docdeck.tui.review._diff_view import DiffView
    from docdeck.tui.review._header import header_text, review_state
    from docdeck.tui.review._inbox_screen import ReviewInboxScreen
    from docdeck.tui.review._merge_screen import MergeScreen
    from docdeck.tui.review._screen import ReviewScreen

__all__ = [
    "ChangeRequestsView",
    "ChangedPagesList",
    "ConflictScreen",
    "DiffView",
    "MergeScreen",
    "ReviewInboxScreen",
    "ReviewScreen",
    "header_text",
    "review_state",
    "styled_lines",
]

_LAZY: dict[str, str] = {
    "ChangeRequestsView": "docdeck.tui.review._change_requests_view",
    "ChangedPagesList": "docdeck.tui.review._changed_pages",
    "ConflictScreen": "docdeck.tui.review._conflict_screen",
    "DiffView": "docdeck.tui.review._diff_view",
    "MergeScreen": "docdeck.tui.review._merge_screen",
    "ReviewInboxScreen": "docdeck.tui.review._inbox_screen",
    "ReviewScreen": "docdeck.tui.review._screen",
    "header_text": "docdeck.tui.review._header",
    "review_state": "docdeck.tui.review._header",
    "styled_lines": "docdeck.tui.review._diff_text",
}
"""Each public name and the module that defines it, imported on first use."""

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
