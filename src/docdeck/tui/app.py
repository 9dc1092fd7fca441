"""The docdeck app: paints its shell at once, loads the browser and connects, then fills it.

Only Textual and `shell` are imported with this module. The browser (gateway,
models, pydantic, httpx) is imported right after the first frame, so the shell
is on screen as fast as a bare Textual app's while the sandbox server starts in
its own process. The import runs on the event loop, not in a thread: the shell
has nothing to interact with yet, and a thread doubled the import's time by
contending with the loop for the GIL.
"""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual.app import App
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from docdeck.tui.shell import ShellScreen

if TYPE_CHECKING:
    from docdeck.gateway import Client
    from docdeck.tui.screens import MainScreen

__all__ = ["BENCH_READY_ENV", "DocdeckApp"]

DEBUG_ENV = "DOCDECK_DEBUG"
"""Set (to anything) to see an internal error's traceback; as `docdeck.cli` reads it."""

BENCH_READY_ENV = "DOCDECK_BENCH_READY_FILE"
"""If set, the time the organizations first show is written there (for the cold-start benchmark)."""


class DocdeckApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "docdeck"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", id="app.quit", tooltip="Leave docdeck"),
        Binding(
            "question_mark",
            "help",
            "Help",
            id="app.help",
            tooltip="Every key and what it does",
        ),
    ]
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]

    def __init__(
        self,
        connect: Callable[[], Awaitable[Client]],
        account_label: str,
        *,
        keymap: dict[str, str] | None = None,
        theme: str | None = None,
    ) -> None:
        super().__init__()
        self._connect = connect
        self.account_label = account_label
        self.sub_title = account_label
        self.client: Client | None = None
        self._keymap_setting = keymap or {}
        self._theme_setting = theme
        self._ready_reported = False
        self.browser: MainScreen | None = None
        """The browser once its code has loaded and it has replaced the shell."""
        self.use_command_palette = False  # nothing to command until the browser is in
        self._internal_error: RenderableType | None = None
        """The first internal error (a bug), printed once the terminal is restored."""

    def get_default_screen(self) -> Screen[None]:
        return ShellScreen()

    def on_mount(self) -> None:
        if self._keymap_setting:
            self.set_keymap(self._keymap_setting)
        if self._theme_setting:
            if self._theme_setting in self.available_themes:
                self.theme = self._theme_setting
            else:
                known = ", ".join(sorted(self.available_themes))
                self.notify(
                    f"Unknown theme “{self._theme_setting}”; using the default. Known: {known}",
                    title="Theme",
                    severity="warning",
                )

    def on_ready(self) -> None:
        # After the first frame, so the import does not delay painting the shell.
        self._install_browser(_import_browser())

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Help lists the browser's keys: nothing to list before it is in.
        return not (action == "help" and self.browser is None)

    def _install_browser(self, browser_class: type[MainScreen]) -> None:
        browser = self.browser = browser_class(self.account_label)
        self.use_command_palette = True
        # The browser is the base of a mode of its own, so it is `screen_stack[0]` from now on
        # (Textual cannot switch the default screen itself); the shell stays behind, unused.
        self.add_mode("browser", lambda: browser)
        self.switch_mode("browser")
        self.connect()

    # ----- connecting ------------------------------------------------------------------------

    def connect(self) -> None:
        self.run_worker(
            self._open_client(),
            name="Connecting",
            group="connect",
            exclusive=True,
            exit_on_error=False,
        )

    async def _open_client(self) -> Client:
        return await self._connect()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "connect":
            return
        if event.state is WorkerState.SUCCESS:
            self.client = event.worker.result
            if self.browser is not None:
                self.browser.start()
        elif event.state is WorkerState.ERROR and event.worker.error is not None:
            from docdeck.tui.errors import describe
            from docdeck.tui.screens import ConnectErrorScreen

            problem = describe(event.worker.error, f"Connecting to {self.account_label}")
            self.push_screen(ConnectErrorScreen(problem, self.account_label), self._retry)

    def _retry(self, retry: bool | None) -> None:
        if not retry:
            return
        if self.client is None:
            self.connect()
        elif self.browser is not None:
            self.browser.org_tree.load_root()

    def organizations_shown(self) -> None:
        """The cold-start benchmark's finish line: the tree shows organizations."""
        if self._ready_reported:
            return
        self._ready_reported = True
        path = os.environ.get(BENCH_READY_ENV)
        if path:
            with open(path, "w", encoding="utf-8") as file:
                file.write(str(time.time()))

    # ----- errors, help, exit ----------------------------------------------------------------

    def report_error(self, error: BaseException, doing: str) -> None:
        """The one place a failed request becomes a notification: what, why, what to do."""
        from docdeck.tui.errors import describe
        from docdeck.tui.screens import ConnectErrorScreen

        problem = describe(error, doing)
        if problem.fatal and not isinstance(self.screen, ConnectErrorScreen):
            self.push_screen(ConnectErrorScreen(problem, self.account_label), self._retry)
            return
        self.notify(problem.message, title=problem.title, severity="error", timeout=10)

    def action_help(self) -> None:
        from docdeck.tui.screens import HelpScreen

        if isinstance(self.screen, HelpScreen):
            return
        rows_of = getattr(self.screen, "help_rows", None)
        rows = rows_of() if rows_of is not None else []
        self.push_screen(HelpScreen(rows))

    def _handle_exception(self, error: Exception) -> None:
        """An internal error (a bug) ends the app with one line, as the CLI promises.

        Textual's own handler prints a traceback with every frame's local variables,
        which showed member names and emails. With DOCDECK_DEBUG=1 the traceback is
        printed, still without locals.
        """
        self._return_code = 1
        if self._exception is None:  # what `run_test` re-raises in tests
            self._exception = error
            self._exception_event.set()
        self.bell()
        if self._internal_error is None:
            self._internal_error = internal_error_report(error)
        self._close_messages_no_wait()

    def _print_error_renderables(self) -> None:
        # Printed after the terminal is restored; soft_wrap keeps the one line whole (the
        # terminal wraps it) instead of cut into lines of the console's width.
        if self._internal_error is None:
            super()._print_error_renderables()
            return
        self._exit_renderables.clear()
        self.error_console.print(self._internal_error, soft_wrap=True)
        self._internal_error = None

    async def on_unmount(self) -> None:
        if self.client is not None:
            await self.client.aclose()
            self.client = None


def internal_error_report(error: BaseException) -> RenderableType:
    """What is printed when docdeck ends on a bug: one line, or without locals the traceback."""
    if os.environ.get(DEBUG_ENV):
        import rich
        from rich.traceback import Traceback

        return Traceback.from_exception(
            type(error), error, error.__traceback__, show_locals=False, suppress=[rich]
        )
    what = " ".join(f"{type(error).__name__}: {error}".split())
    return Text(
        f"docdeck: error: internal error: {what} "
        f"(set {DEBUG_ENV}=1 to see the traceback, and please report it)"
    )


def _import_browser() -> type[MainScreen]:
    from docdeck.tui.screens import MainScreen

    return MainScreen
