"""A revision's content as every reading job shows it: the revision cache, the page tree
model, the block map, the page text, and the page preview that renders a page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from docdeck.tui.kit.lazy import lazy_exports

if TYPE_CHECKING:
    from docdeck.tui.content._page_lines import look_of
    from docdeck.tui.content._preview import PagePreview
    from docdeck.tui.content._raw_page import RawPage
    from docdeck.tui.content._rendered_page import RenderedPage

__all__ = [
    "PagePreview",
    "RawPage",
    "RenderedPage",
    "look_of",
]

_LAZY: dict[str, str] = {
    "PagePreview": "docdeck.tui.content._preview",
    "RawPage": "docdeck.tui.content._raw_page",
    "RenderedPage": "docdeck.tui.content._rendered_page",
    "look_of": "docdeck.tui.content._page_lines",
}
"""Each public name and the module that defines it, imported on first use."""

__getattr__, __dir__ = lazy_exports(__name__, _LAZY)
