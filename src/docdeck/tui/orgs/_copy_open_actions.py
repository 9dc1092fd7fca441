"""`y` copies, `Y` chooses what to copy, `o` opens the selection's app URL in a browser.

Copy goes through `tui.clipboard` (OSC 52, or tmux), and the notification
always shows the text itself, so it can be selected by hand where no route
reaches the clipboard. Opening falls back to copying where no browser can be
shown (over SSH, or without a display), and says so.
"""

from __future__ import annotations

from docdeck.tui.kit.clipboard import copy_text
from docdeck.tui.kit.copy_values import CopyValue, app_url, entry_values, member_values
from docdeck.tui.kit.dialogs.choose import ChooseDialog
from docdeck.tui.kit.opening import browser_problem, open_in_browser
from docdeck.tui.orgs._browser_base import BrowserBase

__all__ = ["CopyOpenActions"]


class CopyOpenActions(BrowserBase):
    def copy_values(self) -> list[CopyValue]:
        """The highlighted row's member when a detail table has focus, else the tree's entry."""
        if self.row_focused:
            detail = self.detail
            row = detail.highlighted_member or detail.highlighted_membership
            values = member_values(row)
            if values:
                return values
        return entry_values(self.org_tree.current)

    @property
    def row_focused(self) -> bool:
        focused = self.focused
        return focused is not None and focused.id in ("members", "team-members")

    def action_copy(self) -> None:
        values = self.copy_values()
        if values:
            self._copy(values[0])

    def action_copy_choose(self) -> None:
        values = self.copy_values()
        if not values:
            return

        def copy(value: CopyValue | None) -> None:
            if value is not None:
                self._copy(value)

        self.app.push_screen(
            ChooseDialog("Copy…", [(f"{value.label}: {value.value}", value) for value in values]),
            callback=copy,
        )

    def _copy(self, value: CopyValue, *, why: str = "") -> None:
        self.run_worker(
            self._send_to_clipboard(value, why),
            name=f"Copying the {value.label.lower()}",
            group="copy",
            exclusive=True,
            exit_on_error=False,
        )

    async def _send_to_clipboard(self, value: CopyValue, why: str) -> None:
        driver = self.app._driver
        result = await copy_text(
            value.value,
            driver.write if driver is not None else _discard,
            copy=self.app.copy_to_clipboard,  # also what Textual's own paste inside the app uses
        )
        title = f"Copied: {value.label}"
        message = f"{why}{value.value}\n(to the {result.route})"
        if result.problem:
            message += f"; {result.problem}"
        self.notify(message, title=title, timeout=8)

    def action_open(self) -> None:
        url = app_url(self.org_tree.current)
        if url is None:
            return
        self.run_worker(
            self._open(url),
            name="Opening the browser",
            group="open",
            exclusive=True,
            exit_on_error=False,
        )

    async def _open(self, url: str) -> None:
        problem = browser_problem() or await open_in_browser(url)
        if not problem:
            self.notify(url, title="Opened in the browser", timeout=6)
            return
        self._copy(CopyValue("App URL", url), why=f"{problem}: copied instead.\n")


def _discard(_text: str) -> None:
    """Without a terminal (headless) there is nowhere to send the escape sequence."""
