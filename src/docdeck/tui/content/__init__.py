"""A revision's content as every reading job shows it: the revision cache, the page tree
model, the block map, the page text, and the page preview that renders a page."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from docdeck.tui.content._page_lines import look_of
    from docdeck.tui.content._preview import PagePreview
    from docdeck.tui.content._rendered_page import RawPage, RenderedPage

__all__ = [
    "PagePreview",
    "RawPage",
    "RenderedPage",
    "look_of",
]

_LAZY: dict[str, str] = {
    "PagePreview": "docdeck.tui.content._preview",
    "RawPage": "docdeck.tui.content._rendered_page",
    "RenderedPage": "docdeck.tui.content._rendered_page",
    "look_of": "docdeck.tui.content._page_lines",
}
"""Each public name and the module that defines it, imported on first use."""


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
