"""The first frame: the browser's layout, painted before the browser's code is imported.

The browser pulls in the gateway, pydantic models and httpx (a few hundred
milliseconds of imports). This screen needs only Textual, so the app shows it
at once and swaps in the browser when that code has loaded in a thread; by then
the data is usually on its way. It must stay free of docdeck's heavy modules.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

from docdeck.tui.kit.header import Header
from docdeck.tui.kit.styled import StyledOnMount
from docdeck.tui.orgs.first_view import FirstView

__all__ = ["ShellScreen", "render_first_view"]


def render_first_view(view: FirstView) -> Text:
    """The cached view drawn as the tree draws it, under a line saying it is being refreshed."""
    text = Text("↻ last session's view — refreshing…\n", style="dim italic")
    for depth, item in view.lines():
        icon = "▼ " if item.expanded else "▶ " if item.expandable else "  "
        text.append("   " * depth + icon, style="dim")
        text.append(item.title + "\n", style="dim")
    text.rstrip()
    return text


class ShellScreen(StyledOnMount):
    """Looks like the browser while it loads: the last session's first view (or loading…),
    detail saying Connecting…; only quitting works yet, other keys wait for the tree."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", "Quit", id="app.quit", tooltip="Leave docdeck"),
    ]

    def __init__(self, first_view: FirstView | None = None) -> None:
        super().__init__()
        self.first_view = first_view

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="browser"):
            with Vertical(id="tree-panel"):
                shown = (
                    render_first_view(self.first_view)
                    if self.first_view is not None
                    else Text("loading…", style="dim italic")
                )
                yield Static(shown, id="shell-tree", markup=False)
            with Vertical(id="detail"):
                with Vertical(id="detail-body"):
                    yield Static(Text("Connecting…", style="italic"), classes="hint", markup=False)
                yield Static("", id="detail-why", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        for footer in self.query(Footer):
            footer.compact = self.size.width < 120
