"""What the space screen's comments need besides the `ThreadsPanel`, which shows and loads
the space's own threads (`6`, the page being read first; not its change requests').

The screen runs `c` and `C` (the flow from the page read to the panel's composer is
between two of its parts). In the pages view `c` comments on the block under the cursor:
the raw view's cursor line, or the block at the top of the rendered view; the block's key
comes from the page's document (`docdeck.tui.content.block_map`), and the composer shows the
block's text so the reader sees what the comment will be on.

`c` comments on the page the tree's cursor is on, even while that page is still loading (a
key typed right after `G` or `j`): it shows that page at once, waits for it, then reads its
blocks; the keys typed after `c` wait meanwhile and become the comment's text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from docdeck.tui.content import RenderedPage

if TYPE_CHECKING:
    from docdeck.tui.content import RawPage
    from docdeck.tui.content.block_map import Block

__all__ = ["COMMENT_ACTIONS", "block_context", "line_in_view"]

COMMENT_ACTIONS = frozenset({"comment_on_block", "comment_on_page"})
"""The screen's own thread keys (in the pages view); the panel has the rest."""


def line_in_view(view: RenderedPage | RawPage) -> int:
    """The markdown line under the cursor (raw) or of the block at the top (rendered)."""
    if isinstance(view, RenderedPage):
        return view.top_line
    return view.cursor_location[0]


def block_context(title: str, block: Block) -> Text:
    text = Text("A new thread on ")
    text.append(title or "(untitled)", style="bold")
    preview = block.text if len(block.text) <= 160 else block.text[:159] + "…"
    text.append(f" › “{preview}”", style="italic")
    text.append(f"\n(line {block.start + 1}; move the cursor or scroll to pick another block)")
    return text
