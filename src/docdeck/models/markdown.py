"""How page bodies are read as markdown, on both ends: one markdown-it-py configuration.

The sandbox makes a page's JSON document (whose block keys comments target), its published
HTML and its PDF from the tokens of this parser; the TUI finds the lines of each block
(block map) and draws the page from the same tokens. Both ends must read a body the same
way, so both build their parser here (each side caches its own instance: the server's
`server/content/markdown.py`, the TUI's `tui/content/markdown.py`).

CommonMark, with GitHub's tables and `~~strikethrough~~`, and markdown-it-py's own task
lists (`- [x] done`: the item's `meta["checked"]`, the `[x] ` not in its text) and alerts
(`> [!NOTE]` alone on the quote's first line: an `alert_open` token whose `meta["kind"]`
is NOTE, TIP, IMPORTANT, WARNING or CAUTION, then a title paragraph, then the quote's
content). A marker followed by text on its line (`> [!NOTE] Beware`) is a plain quote, as
on GitHub.

How each is shown is written here once too: an alert's title (`alert_title`) and a task
item's box (`task_box`), for the renderers that draw them as text (the TUI and the PDF;
the published HTML draws the box as a checkbox).
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

__all__ = ["ALERT_KINDS", "alert_title", "markdown_parser", "task_box"]

ALERT_KINDS = ("NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION")
"""The alerts markdown-it recognises (`> [!NOTE]`, any case), as its tokens name them."""

_ALERT_ICONS = {"NOTE": "ℹ", "TIP": "✔", "IMPORTANT": "❗", "WARNING": "⚠", "CAUTION": "⛔"}


def markdown_parser(*, html: bool = True) -> "MarkdownIt":
    """A new parser of page bodies. `html=False` leaves raw HTML as text (the published
    site); every other setting is the same, so the token stream has the same blocks."""
    from markdown_it import MarkdownIt  # ~45 ms: when a body is first read, not before

    options = {"html": html, "tasklists": True, "alerts": True}
    return MarkdownIt("commonmark", options).enable(["table", "strikethrough"])


def alert_title(kind: str, *, icon: bool = True) -> str:
    """`ℹ Note`, `⚠ Warning`, …: the title an alert of `kind` is shown with (the word is
    markdown-it's own title; `icon=False` where the symbol cannot be drawn)."""
    word = kind.capitalize()
    symbol = _ALERT_ICONS.get(kind.upper())
    return f"{symbol} {word}" if icon and symbol else word


def task_box(checked: bool) -> str:
    """A task item's box drawn as text: `☑` done, `☐` to do."""
    return "☑" if checked else "☐"
