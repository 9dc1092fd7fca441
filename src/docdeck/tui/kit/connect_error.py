"""Shown when the app cannot connect: what went wrong, what to do, retry or quit."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Button, Footer, Label, Static

from docdeck.tui.kit.errors import Problem
from docdeck.tui.kit.header import Header

__all__ = ["ConnectErrorScreen"]


class ConnectErrorScreen(Screen[bool]):
    """Dismisses with True to retry; quitting is the app's own binding."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "retry", "Retry", id="connect.retry", tooltip="Try to connect again"),
        Binding("q", "app.quit", "Quit", id="connect.quit", tooltip="Leave docdeck"),
    ]

    help_intro = (
        "docdeck could not open the account: the message says why and what to check. "
        "Press r to try again once it is fixed, or q to quit and change the settings.\n"
    )

    def __init__(self, problem: Problem, account_label: str, *, advice: str = "") -> None:
        super().__init__()
        self.problem = problem
        self.account_label = account_label
        self.advice = advice
        """Which setting the address and token came from (flag, environment, profile)."""

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="connect-error"):
            yield Label(
                f"Could not open “{self.account_label}”", id="connect-error-title", markup=False
            )
            message = self.problem.message
            if self.advice:
                message += f"\n{self.advice}"
            yield Static(message, id="connect-error-message", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Retry (r)", variant="primary", id="connect-retry")
                yield Button("Quit (q)", id="connect-quit")
        yield Footer()

    def action_retry(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#connect-retry")
    def _retry(self) -> None:
        self.action_retry()

    @on(Button.Pressed, "#connect-quit")
    def _quit(self) -> None:
        self.app.exit()
