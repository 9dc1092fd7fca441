"""The yardstick: a bare Textual app that records when its first frame is on screen."""

from __future__ import annotations

import os
import time

from textual.app import App, ComposeResult
from textual.widgets import Footer, Header, Static


class BareApp(App[None]):
    BINDINGS = [("q", "quit", "Quit")]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("hello")
        yield Footer()

    def on_ready(self) -> None:
        # Ready is sent once the first frame has been written to the terminal.
        with open(os.environ["DOCDECK_BENCH_READY_FILE"], "w", encoding="utf-8") as file:
            file.write(str(time.time()))
        if not os.environ.get("BENCH_BARE_STAY"):  # staying: the bench times its quit with q
            self.exit()


if __name__ == "__main__":
    BareApp().run()
