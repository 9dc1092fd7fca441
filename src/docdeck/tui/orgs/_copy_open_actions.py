"""`y` copies, `Y` chooses what to copy, `o` opens the selection's app URL in a browser.

Copy goes through `tui.clipboard` (OSC 52, or tmux), and the notification
always shows the text itself, so it can be selected by hand where no route
reaches the clipboard. Opening falls back to copying where no browser can be
shown (over SSH, or without a display), and says so.

A part the browser holds (not a base class of it): the keys are the browser's, since they
act on the tree's entry or on the highlighted row of the detail table that has focus.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docdeck.tui.kit.clipboard import copy_text
from docdeck.tui.kit.copy_values import CopyValue, app_url, entry_values, member_values
from docdeck.tui.kit.dialogs.choose import ChooseDialog
from docdeck.tui.kit.opening import browser_problem, open_in_browser
from docdeck.tui.kit.workers import read

if TYPE_CHECKING:
    from docdeck.tui.orgs._browser import OrgBrowser

__all__ = ["CopyOpen"]


class CopyOpen:
    def __init__(self, browser: OrgBrowser) -> None:
        self.browser = browser

    def values(self) -> list[CopyValue]:
        """The highlighted row's member when a detail table has focus, else the tree's entry."""
        browser = self.browser
        if browser.row_focused:
            detail = browser.detail
            row = detail.highlighted_member or detail.highlighted_membership
            values = member_values(row)
            if values:
                return values
        return entry_values(browser.org_tree.current)

    def copy(self) -> None:
        values = self.values()
        if values:
            self._copy(values[0])

    def copy_choose(self) -> None:
        values = self.values()
        if not values:
            return

        def copy(value: CopyValue | None) -> None:
            if value is not None:
                self._copy(value)

        self.browser.app.push_screen(
            ChooseDialog("Copy…", [(f"{value.label}: {value.value}", value) for value in values]),
            callback=copy,
        )

    def _copy(self, value: CopyValue, *, why: str = "") -> None:
        _send_to_clipboard(self.browser, value, why)

    def open(self) -> None:
        url = app_url(self.browser.org_tree.current)
        if url is not None:
            _open(self.browser, url)


# The workers run on the browser, so they end with it.


@read("copy", lambda browser, value, why: f"Copying the {value.label.lower()}")
async def _send_to_clipboard(browser: OrgBrowser, value: CopyValue, why: str) -> None:
    app = browser.app
    driver = app._driver
    result = await copy_text(
        value.value,
        driver.write if driver is not None else _discard,
        copy=app.copy_to_clipboard,  # also what Textual's own paste inside the app uses
    )
    title = f"Copied: {value.label}"
    message = f"{why}{value.value}\n(to the {result.route})"
    if result.problem:
        message += f"; {result.problem}"
    browser.notify(message, title=title, timeout=8)


@read("open", "Opening the browser")
async def _open(browser: OrgBrowser, url: str) -> None:
    problem = browser_problem() or await open_in_browser(url)
    if not problem:
        browser.notify(url, title="Opened in the browser", timeout=6)
        return
    _send_to_clipboard(browser, CopyValue("App URL", url), f"{problem}: copied instead.\n")


def _discard(_text: str) -> None:
    """Without a terminal (headless) there is nowhere to send the escape sequence."""
