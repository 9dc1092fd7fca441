"""Copy a value, or open a URL, from any screen: the clipboard and browser rules of
`clipboard.py` and `opening.py`, with the notification that shows what was copied and
by which route (so it can be selected by hand where no route reaches the clipboard)."""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from docdeck.tui.kit.clipboard import copy_text
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.opening import browser_problem, open_in_browser
from docdeck.tui.kit.workers import start

__all__ = ["copy_value", "open_url"]


def copy_value(screen: Screen[Any], value: CopyValue, *, why: str = "") -> None:
    async def send() -> None:
        driver = screen.app._driver
        result = await copy_text(
            value.value,
            driver.write if driver is not None else _discard,
            copy=screen.app.copy_to_clipboard,
        )
        message = f"{why}{value.value}\n(to the {result.route})"
        if result.problem:
            message += f"; {result.problem}"
        screen.notify(message, title=f"Copied: {value.label}", timeout=8)

    start(screen, send, name=f"Copying the {value.label.lower()}", group="copy")


def open_url(screen: Screen[Any], url: str, label: str = "URL") -> None:
    """Open in the desktop's browser; over SSH or without a display, copy instead."""

    async def go() -> None:
        problem = browser_problem() or await open_in_browser(url)
        if not problem:
            screen.notify(url, title="Opened in the browser", timeout=6)
            return
        copy_value(screen, CopyValue(label, url), why=f"{problem}: copied instead.\n")

    start(screen, go, name="Opening the browser", group="open")


def _discard(_text: str) -> None:
    """Without a terminal (headless) there is nowhere to send the escape sequence."""
