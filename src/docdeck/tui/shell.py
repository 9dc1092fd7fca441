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
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

__all__ = ["ShellScreen"]


class ShellScreen(Screen[None]):
    """Looks like the browser while it loads: empty tree saying loading…, detail saying
    Connecting…; only quitting works yet."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", "Quit", id="app.quit", tooltip="Leave docdeck"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="browser"):
            with Vertical(id="tree-panel"):
                yield Static(Text("loading…", style="dim italic"), id="shell-tree")
            with Vertical(id="detail"):
                with Vertical(id="detail-body"):
                    yield Static(Text("Connecting…", style="italic"), classes="hint")
                yield Static("", id="detail-why")
        yield Footer()

    def on_mount(self) -> None:
        for footer in self.query(Footer):
            footer.compact = self.size.width < 120
