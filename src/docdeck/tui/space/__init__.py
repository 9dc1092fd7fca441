"""The space screen's widgets: page tree, preview, and the links, files, search and history
views. They show what they are given (pages, markdown, files of one revision), so the
review pane can show a change request's content with the same widgets."""

from docdeck.tui.widgets.space._chooser import Chooser
from docdeck.tui.widgets.space._page_tree import PageTree
from docdeck.tui.widgets.space._preview import PagePreview

__all__ = ["Chooser", "PagePreview", "PageTree"]
