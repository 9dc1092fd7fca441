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
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, ClassVar

from rich.console import RenderableType
from rich.text import Text
from textual import events, on
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches
from textual.driver import Driver
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.timer import Timer
from textual.worker import Worker, WorkerState

from docdeck.tui.kit.beneath import Beneath, install_beneath
from docdeck.tui.kit.escape_then_key import split_escape
from docdeck.tui.kit.heap import (
    HOLD_AT_MOST_S,
    IdleCollector,
    keep_long_lived,
    release_collections,
)
from docdeck.tui.kit.navigation import (
    Navigation,
    OpenAdmin,
    OpenChangeRequest,
    OpenInbox,
    OpenSite,
    OpenSpace,
)
from docdeck.tui.kit.paced import InputPaced
from docdeck.tui.kit.session import SessionApp
from docdeck.tui.kit.typeahead import KeyHold
from docdeck.tui.kit.workers import read
from docdeck.tui.last_place import Place, load_place, place_of, place_path, save_place
from docdeck.tui.orgs.first_view import FirstView, load_first_view, save_first_view
from docdeck.tui.shell import ShellScreen

if TYPE_CHECKING:
    from textual.command import Provider
    from textual.theme import Theme

    from docdeck.gateway import Client
    from docdeck.tui.kit.entries import Entry
    from docdeck.tui.kit.errors import Problem
    from docdeck.tui.kit.open_target import OpenTarget
    from docdeck.tui.open_at import OpenReads
    from docdeck.tui.orgs import MainScreen

__all__ = ["BENCH_READY_ENV", "DocdeckApp"]

DEBUG_ENV = "DOCDECK_DEBUG"
"""Set (to anything) to see an internal error's traceback; as `docdeck.cli` reads it."""

BENCH_READY_ENV = "DOCDECK_BENCH_READY_FILE"
"""If set, the time the organizations first show is written there (for the cold-start benchmark)."""


def _screen_commands() -> type[Provider]:
    from docdeck.tui.kit.palette import ScreenCommands

    return ScreenCommands


def _go_to_commands() -> type[Provider]:
    from docdeck.tui.kit.palette import GoToCommands

    return GoToCommands


def _profile_commands() -> type[Provider]:
    from docdeck.tui.kit.profiles import ProfileCommands

    return ProfileCommands


class DocdeckApp(SessionApp):
    CSS_PATH = "app.tcss"
    TITLE = "docdeck"
    COMMANDS = SessionApp.COMMANDS | {_screen_commands, _go_to_commands, _profile_commands}
    """Textual's commands, the actions of whichever screen is in front, "Go to site…" and
    "Switch profile…"."""
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
    # Below 80 columns the tree and the detail pane are stacked: side by side, the pane was a
    # few cells wide and broke every word of its values.
    HORIZONTAL_BREAKPOINTS = [(0, "-stacked"), (80, "-narrow"), (110, "-wide")]
    _heap: IdleCollector | None = None
    """Full garbage-collector passes at idle moments (`docdeck.tui.kit.heap`)."""
    _hold_ends: Timer | None = None
    """Ends the start-up's hold on collections if the organizations never come."""

    def __init__(
        self,
        connect: Callable[[], Awaitable[Client]],
        account_label: str,
        *,
        keymap: dict[str, str] | None = None,
        theme: str | None = None,
        first_view: str | None = None,
        sandbox_log: str | None = None,
        account_source: str | None = None,
        open_at: OpenTarget | None = None,
        mouse: bool = True,
    ) -> None:
        """`first_view`: this account's first-view cache file (None: keep nothing).
        `sandbox_log`: for the embedded sandbox, its log, to point at when it has died;
        calling `connect` again then looks for (or starts) a sandbox anew."""
        super().__init__()
        self._connect = connect
        self.first_view_path = first_view
        self.first_view: FirstView | None = load_first_view(first_view)
        """The last session's first view, painted until the live organizations arrive."""
        self.place_path = place_path(first_view)
        saved = load_place(self.place_path) if open_at is None else None
        self._saved_place: Place | None = saved
        """Where the user was last time (`docdeck.tui.last_place`), then where they are as
        last written: `docdeck open` wins over it (nothing is restored then)."""
        self._resume = saved if saved is not None and saved.kind != "tree" else None
        self.resume_node = saved.node if saved is not None else None
        """The org tree's cursor last time: the tree puts it back as the entry arrives."""
        self._place_kept = False
        """True once the saved place has been restored (or there was none to restore): from
        then on where the user is replaces it."""
        self.sandbox_log = sandbox_log
        self._early_keys: list[events.Key] | None = []
        """Keys pressed before the tree is live, replayed to it then (None: replayed)."""
        self._key_hold = KeyHold(self, self._deliver_key)
        """Keys pressed while a new screen is on its way or being set up, delivered to it
        once it is ready (the screen stack's rule: `docdeck.tui.kit.typeahead`)."""
        self.account_label = account_label
        self.account_source = account_source
        self.open_at = open_at
        self._browser_later = open_at is not None and not open_at.site
        """`docdeck open` at a space or a change request: its screen is built and drawn
        first, the browser beneath it only then (`beneath`)."""
        self.beneath = Beneath(self, opening=self._target_opening)
        """The screens a target opened alone is put over, once its first content is drawn
        (`docdeck.tui.kit.beneath`): the browser, the space screen under a review pane."""
        self.mouse = mouse
        """False (`[ui] mouse = false`): the terminal keeps the mouse, for its own selection."""
        """Where `docdeck open` starts: opened once the tree is live."""
        """How the account was chosen ("flags", "environment", "profile", "sandbox"): the
        connection screen's advice names the setting the user actually used."""
        self._reached = False
        """True once the server has answered; until then "unreachable" is a connection
        problem (the connection screen), not a connection lost."""
        self.sub_title = account_label
        self.session.reports_to(self.report_error)
        self._keymap_setting = keymap or {}
        self._theme_setting = theme
        self._ready_reported = False
        self._restarting_sandbox = False
        self._reconnected = False
        self._view_root: Entry | None = None
        """The tree's model once live: the first view saved at exit is taken from it."""
        self._root_prefetch: Awaitable[list[Entry]] | None = None
        self.open_reads: OpenReads | None = None
        """`docdeck open`: the first screen's reads, sent as the client arrives."""
        self._paced: list[InputPaced] = []
        """The schedules that sleep while nobody uses the app (`kit.paced`)."""
        self._saved_theme = ""
        self.browser: MainScreen | None = None
        """The browser once its code has loaded and it has replaced the shell."""
        self.use_command_palette = False  # nothing to command until the browser is in
        self._internal_error: RenderableType | None = None
        """The first internal error (a bug), printed once the terminal is restored."""

    @property
    def client(self) -> Client | None:
        """The session's client (`session_of(widget).client` for widgets)."""
        return self.session.client

    @client.setter
    def client(self, client: Client | None) -> None:
        self.session.client = client

    def run(self, **options: Any) -> Any:
        """Textual's run with the mouse setting; its return value (what `exit()` was given,
        e.g. a snapshot's SVG) is passed on."""
        options.setdefault("mouse", self.mouse)
        return super().run(**options)

    def get_driver_class(self) -> type[Driver]:
        driver = super().get_driver_class()
        if driver.__name__ == "LinuxDriver":
            from docdeck.tui.quick_exit import QuickExitDriver

            return QuickExitDriver
        return driver

    def get_default_screen(self) -> Screen[None]:
        return ShellScreen(self.first_view)

    def _working(self) -> bool:
        return any(worker.is_running for worker in self.workers)

    def on_mount(self) -> None:
        heap = self._heap = IdleCollector(busy=self._working)
        # Both schedules sleep once settled and wake on input (`kit.paced`): an app left
        # open does not wake the process.
        self._paced.append(InputPaced(self, 1.0, heap.tick, "idle collector"))
        self._hold_ends = self.set_timer(
            HOLD_AT_MOST_S, release_collections, name="start-up collections"
        )
        if self._keymap_setting:
            self._apply_keymap_setting()
        self._apply_theme_setting()
        self._saved_theme = self.theme
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        if self.place_path is not None:  # this account keeps its place
            self.screen_change_signal.subscribe(self, self._screen_changed)
            keeper = InputPaced(self, PLACE_EVERY_S, self._keep_place_now, "place keeper")
            self._paced.append(keeper)

    # ----- navigation: a screen pushed for a message; keys typed meanwhile wait for it --------

    def post_message(self, message: Message) -> bool:
        hold: KeyHold | None = getattr(self, "_key_hold", None)
        if isinstance(message, Navigation) and hold is not None:
            hold.expect_screen()  # before the next key is routed to the screen below
        return super().post_message(message)

    @on(OpenSpace)
    def _open_space(self, message: OpenSpace) -> None:
        with self._opening():
            from docdeck.tui.space import SpaceScreen

            screen = SpaceScreen(message.space, list(message.trail or ()))
            self.push_screen(screen)
            if message.trail is None:
                from docdeck.tui.open_at import read_breadcrumb

                read_breadcrumb(self, screen)

    @on(OpenChangeRequest)
    def _open_change_request(self, message: OpenChangeRequest) -> None:
        with self._opening():
            from docdeck.tui.review import ReviewScreen

            pane = ReviewScreen(message.space, message.change_request)
            self.push_screen(pane)
            if message.then_edit is not None:
                pane.call_after_refresh(pane.edit_page, message.then_edit)

    @on(OpenInbox)
    def _open_inbox(self, message: OpenInbox) -> None:
        with self._opening():
            from docdeck.tui.review import ReviewInboxScreen

            self.push_screen(ReviewInboxScreen(message.organization))

    @contextmanager
    def _opening(self) -> Iterator[None]:
        """Around a navigation handler: the held keys go to what it pushed (or, if it
        pushed nothing, to the screen in front) once that is ready."""
        try:
            yield
        finally:
            self._key_hold.screen_opened()

    @on(OpenAdmin)
    def _open_admin(self, message: OpenAdmin) -> None:
        with self._opening():
            from docdeck.tui.admin import admin_screen

            self.push_screen(admin_screen(message.organization, message.view))

    @on(OpenSite)
    def _open_site(self, message: OpenSite) -> None:
        with self._opening():
            from docdeck.tui.sites import SiteScreen

            self.push_screen(SiteScreen(message.organization, message.site, message.trail))

    def _apply_keymap_setting(self) -> None:
        """The `[keymap]` table, old ids under their new names; an id no binding has is a
        warning (a typo would otherwise leave the key unchanged without a word)."""
        from docdeck.tui.kit.keymap import resolve_keymap

        keymap, unknown, invalid = resolve_keymap(self._keymap_setting)
        if unknown:
            self.notify(
                f"No key binding has the id {', '.join(repr(i) for i in unknown)}; "
                "those [keymap] entries are ignored (docs/tui.md lists the ids).",
                title="Unknown keymap id",
                severity="warning",
            )
        for binding_id, problem in invalid.items():
            self.notify(
                f"[keymap] {binding_id!r}: {problem}. The key keeps its default.",
                title="Keymap entry ignored",
                severity="warning",
            )
        self.set_keymap(keymap)

    def _theme_changed(self, theme: Theme) -> None:
        """A theme picked in the palette is written to the config file for the next start."""
        if theme.name == self._saved_theme:
            return
        self._saved_theme = theme.name
        from docdeck.config import ConfigError
        from docdeck.tui.kit.theme_setting import save_theme

        try:
            path = save_theme(theme.name)
        except ConfigError as error:
            self.notify(
                f"{error}. The theme applies until docdeck quits.",
                title="Theme not saved",
                severity="warning",
            )
            return
        self.notify(f"“{theme.name}” is saved in {path}.", title="Theme saved")

    def _apply_theme_setting(self) -> None:
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
        # After the first frame, so the import does not delay painting the shell. Connecting
        # (and the first request) is started before the browser is composed: its answer then
        # comes while the browser mounts instead of after it.
        if self._browser_later:
            self.connect()  # `docdeck open`: the target's screen first, the browser under it
            return
        browser_class = _import_browser()
        self.connect()
        self._install_browser(browser_class)
        keep_long_lived("browser")

    def _ensure_browser(self) -> None:
        """The browser, imported and installed now if it is not in yet (`docdeck open`)."""
        if self.browser is None:
            self._install_browser(_import_browser())
            keep_long_lived("browser")

    def _target_opening(self) -> bool:
        return any(w.group == "open-target" and not w.is_finished for w in self.workers)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Help lists the keys of the screen in front: nothing to list over the shell.
        return not (
            action == "help" and self.browser is None and isinstance(self.screen, ShellScreen)
        )

    def _install_browser(self, browser_class: type[MainScreen]) -> None:
        browser = self.browser = browser_class(self.account_label)
        self.use_command_palette = True
        if len(self._screen_stack) > 1:
            # `docdeck open`: the target is in front, over the shell; the browser takes the
            # shell's place beneath it, composed in the background.
            install_beneath(self, browser, None)
            return
        # The browser is the base of a mode of its own, so it is `screen_stack[0]` from now on
        # (Textual cannot switch the default screen itself); the shell stays behind, unused.
        self.add_mode("browser", lambda: browser)
        # A new screen is styled as it mounts, by the stylesheet as it is now; left at its
        # initial count, Textual would re-parse every CSS source and restyle the app for it.
        browser._css_update_count = self._css_update_count
        # And with the shell's width classes (`HORIZONTAL_BREAKPOINTS`): its widgets are then
        # styled for the terminal's width as they mount, not restyled all over on its first
        # resize event.
        widths = {name for _, name in self.HORIZONTAL_BREAKPOINTS}
        browser.add_class(*(self.screen.classes & widths))
        self.switch_mode("browser")

    # ----- connecting ------------------------------------------------------------------------

    def connect(self) -> None:
        self._open_client()

    @read("connect", "Connecting")
    async def _open_client(self) -> Client:
        client = await self._connect()
        if self.open_at is not None and not self.open_at.site:
            from docdeck.tui.open_at import OpenReads

            # Before the org tree's first request: the target's screen is what is looked at.
            self.open_reads = OpenReads(self, client, self.open_at)
        if self.browser is not None or not self._browser_later:
            # (Not for a target opened first: the browser, built once it is drawn, asks then.)
            self._prefetch_root(client)
        # At once, not when the worker's state message arrives: a browser mounting meanwhile
        # then starts its first load without waiting for its first paint.
        self.client = client
        return client

    def _prefetch_root(self, client: Client) -> None:
        """Ask for the organizations as soon as there is a client, for the tree's first load."""
        from docdeck.tui.kit.entries import RootEntry
        from docdeck.tui.kit.workers import read_ahead
        from docdeck.tui.orgs.loaders import load_children

        self._root_prefetch = read_ahead(load_children(client, RootEntry()))

    def take_root_prefetch(self) -> Awaitable[list[Entry]] | None:
        """The organizations asked for while connecting, once (later loads ask anew)."""
        task, self._root_prefetch = self._root_prefetch, None
        return task

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group == "open-target" and event.worker.is_finished:
            self._place_kept = True  # opened (or not): where the user is now counts
            self._keep_place()
            return
        if event.worker.group != "connect":
            return
        if event.state is WorkerState.SUCCESS:
            self.client = event.worker.result
            if self.browser is not None:
                if not self.browser.started:
                    self.browser.start()
                elif self._reconnected:
                    self.browser.org_tree.load_root()  # a new client (a restarted sandbox)
            self._reconnected = False
            self._open_target()
        elif event.state is WorkerState.ERROR and event.worker.error is not None:
            self._drop_early_keys()
            if self.browser is not None:
                self.browser.org_tree.mark_unreachable()
            else:  # `docdeck open`: no target without a connection; the tree says why
                self._ensure_browser()
                browser = self.browser
                if browser is not None:  # marked once composed (its messages wait till then)
                    browser.call_later(lambda: browser.org_tree.mark_unreachable())
            self._show_connect_error(
                event.worker.error, f"Connecting to {self.account_label}", connecting=True
            )

    def _show_connect_error(
        self, error: BaseException, doing: str, *, connecting: bool = False
    ) -> None:
        """The connection screen: what failed, and where the address and token came from
        (or, for the embedded sandbox that died, its log)."""
        from docdeck.tui.kit.connect_error import ConnectErrorScreen
        from docdeck.tui.kit.errors import account_advice, describe

        if isinstance(self.screen, ConnectErrorScreen):
            return
        problem = describe(error, doing)
        sandbox = self._sandbox_problem(error, problem, connecting=connecting)
        advice = (
            "" if sandbox is not None else account_advice(self.account_source, self.account_label)
        )
        self.push_screen(
            ConnectErrorScreen(sandbox or problem, self.account_label, advice=advice), self._retry
        )

    def _sandbox_problem(
        self, error: BaseException, problem: Problem, *, connecting: bool = False
    ) -> Problem | None:
        """For the embedded sandbox, a refused connection means its server is gone; while
        connecting, any failure (it could not start) is the sandbox's."""
        from docdeck.gateway import APIError
        from docdeck.tui.kit.errors import Problem, sandbox_gone

        if self.sandbox_log is None:
            return None
        if not sandbox_gone(error) and not (connecting and not isinstance(error, APIError)):
            return None
        why = problem.message.split("\n", 1)[0]
        return Problem(
            title="The embedded sandbox is not running",
            message=(
                f"The sandbox server has stopped or could not start ({why}).\n"
                f"Its log: {self.sandbox_log}\n"
                "Press r to start it again (your data is kept in its database)."
            ),
            fatal=True,
        )

    def _retry(self, retry: bool | None) -> None:
        if not retry:
            return
        if self.client is None or self._restarting_sandbox:
            self._restarting_sandbox = False
            self._reconnect()
        elif self.browser is not None:
            if self.browser.started:
                self.browser.org_tree.load_root()
            else:  # built just now (`docdeck open`): it loads once composed
                self.browser.start()

    def _reconnect(self) -> None:
        """Drop the client and call `connect` again: for the sandbox, that restarts it."""
        client, self.client = self.client, None
        self._reconnected = True
        if client is not None:
            self.run_worker(client.aclose, group="close", exit_on_error=False)  # type: ignore[arg-type]
        self.connect()

    def organizations_shown(self) -> None:
        """The organizations are in (or failed): replay early keys; the cold-start benchmark's
        finish line, once they are live."""
        release_collections()
        if self._hold_ends is not None:
            self._hold_ends.stop()  # released: no wake-up at HOLD_AT_MOST_S for nothing
        self._replay_early_keys()
        if self.browser is None or self.browser.org_tree.model.children is None:
            return
        self._reached = True
        self._view_root = self.browser.org_tree.model
        if self._resume is not None:
            from docdeck.tui.open_at import resume_place

            place, self._resume = self._resume, None
            resume_place(self, place)
        elif not self._place_kept and not any(w.group == "open-target" for w in self.workers):
            self._place_kept = True
        if self._ready_reported:
            return
        self._ready_reported = True
        if self.client is not None:
            # httpx (its client, httpcore's pool, anyio's backend: ~60 ms) after the live
            # tree's frame, not in the first request the user's next key sends.
            self.call_after_refresh(self.client.transport.warm_up)
        path = os.environ.get(BENCH_READY_ENV)
        if path:
            with open(path, "w", encoding="utf-8") as file:
                file.write(str(time.time()))

    def _open_target(self) -> None:
        """`docdeck open`: the target's screen, as soon as there is a client (not after the
        org tree: it is not what is looked at). For a space or a change request it is the
        first screen built: the browser is put beneath it once its first content is drawn
        (or when the user acts first, or when it could not be opened). Keys typed before
        then go to the screen it opens."""
        if self.open_at is None or self.client is None:
            return
        if self.browser is None and not self._browser_later:
            return
        from docdeck.tui.open_at import open_target

        target, self.open_at = self.open_at, None
        open_target(self, target)
        if self.browser is None:
            self.beneath.later(self._ensure_browser)
        self._replay_early_keys()

    # ----- errors, help, exit ----------------------------------------------------------------

    def report_error(self, error: BaseException, doing: str) -> None:
        """The one place a failed request becomes a notification: what, why, what to do."""
        from docdeck.tui.kit.connect_error import ConnectErrorScreen
        from docdeck.tui.kit.errors import account_advice, describe

        problem = describe(error, doing)
        sandbox = self._sandbox_problem(error, problem) if self.client is not None else None
        if sandbox is not None:
            problem = sandbox
            self._restarting_sandbox = True
        if problem.fatal or (problem.unreachable and not self._reached):
            # A refused token, a dead sandbox, or a server never reached since the start:
            # nothing can work until it is fixed.
            if not isinstance(self.screen, ConnectErrorScreen):
                advice = (
                    ""
                    if sandbox is not None
                    else account_advice(self.account_source, self.account_label)
                )
                self.push_screen(
                    ConnectErrorScreen(problem, self.account_label, advice=advice), self._retry
                )
            return
        if isinstance(self.screen, ConnectErrorScreen):
            return
        # One notification per failure: a refresh that asks for a resource and its children
        # fails twice for one cause (the server is down); the same words are shown once.
        for shown in self._notifications:
            if shown.message == (problem.brief or problem.message) and not shown.has_expired:
                return
        self.notify(
            problem.brief or problem.message, title=problem.title, severity="error", timeout=10
        )

    def action_help(self) -> None:
        from docdeck.tui.kit.help import HelpScreen, bindings_help, intro_of

        if isinstance(self.screen, HelpScreen):
            return
        rows_of = getattr(self.screen, "help_rows", None)
        rows = rows_of() if rows_of is not None else bindings_help(self.screen)
        self.push_screen(HelpScreen(rows, intro=intro_of(self.screen)))

    def _handle_exception(self, error: Exception) -> None:
        """An internal error (a bug) ends the app with one line, as the CLI promises.

        Textual's own handler prints a traceback with every frame's local variables,
        which showed member names and emails. With DOCDECK_DEBUG=1 the traceback is
        printed, still without locals.

        Once the app is exiting (q, ctrl+c), a query that finds no part (`NoMatches`) is a
        screen still mounting while the shutdown takes its parts away (`docdeck open`'s
        target, q pressed 0.4 s after launch): not a bug, and the exit keeps its code.
        """
        if getattr(self, "_exit", False) and isinstance(error, NoMatches):
            return
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

    # ----- notifications ---------------------------------------------------------------------

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """As Textual's, except that a notification already on screen is not stacked again:
        a key held at the end of a list ("This is the last page.") drew a column of copies.
        The copy on screen is replaced by the new one, so it stays its whole time from the
        latest key: a reason given again is seen again, not dropped as already said.

        And a notification is plain text, whatever `markup` says (a widget's `notify` passes
        Textual's default, True): none is written as markup, and what they quote holds
        brackets that markup would eat: "those [keymap] entries are ignored" showed as
        "those  entries", a space titled "Docs [beta]" as "Docs "."""
        try:
            same = [
                n
                for n in self._notifications
                if (n.message, n.title, n.severity) == (message, title, severity)
            ]
        except RuntimeError:  # called from a thread while the loop changed them: show it
            same = []
        for notification in same:
            self._unnotify(notification, refresh=False)
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    # ----- keys before the tree is live --------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        """Keep the keys pressed while the shell starts, for the tree once it is live.

        Quitting is never held back; on a connection failure the kept keys are
        dropped (they were meant for a tree that is not there).
        """
        if isinstance(event, events.Key | events.MouseEvent | events.Paste):
            self._input_seen()
        if isinstance(event, events.Key) and not event.is_forwarded and "alt+" in event.key:
            typed = split_escape(event, self.screen if self._screen_stack else None)
            if typed is not None:  # Escape then a key, arrived together (tmux)
                for key in typed:
                    await self.on_event(key)
                return
        if isinstance(event, events.MouseDown):
            self.beneath.now()  # what the click may go back to is there first
        if (
            isinstance(event, events.Key)
            and not event.is_forwarded
            and self._early_keys is not None
            and event.key not in _NEVER_HELD
            and (self.browser is None or self.screen is self.browser)
        ):
            self._early_keys.append(event)
            return
        if isinstance(event, events.Key) and event.key not in _NEVER_KEPT:
            if not event.is_forwarded:
                await self._key_hold.route(event)  # delivers it, now or in turn
                return
            if not self._screen_stack:
                return  # back from the widgets while the app closes: no screen to bind on
            await super().on_event(event)  # back from the widgets: the bindings run
            await self._key_hold.returned(event)
            return
        await super().on_event(event)

    async def _deliver_key(self, event: events.Key) -> None:
        """A key on its way to the screen in front (`KeyHold`): what it may go back to (the
        screens put beneath a target later, `beneath`) is there first."""
        self.beneath.now()
        await super().on_event(event)

    def _replay_early_keys(self) -> None:
        keys, self._early_keys = self._early_keys, None
        for key in keys or ():
            self.post_message(events.Key(key.key, key.character))

    def _drop_early_keys(self) -> None:
        self._early_keys = None

    # ----- where the user is, for the next start (`docdeck.tui.last_place`) -------------------

    def _input_seen(self) -> None:
        if self._heap is not None:
            self._heap.input_seen()
        self._wake_schedules()

    def _wake_schedules(self) -> None:
        for paced in self._paced:
            paced.wake()

    def _screen_changed(self, *_: object) -> None:
        self._keep_place()
        self._wake_schedules()  # what follows a new screen (its page read) may change the place

    def _keep_place_now(self) -> bool:
        """The place keeper's tick: True (settled) once input has been idle a while and no
        work is in flight (`IdleCollector.quiet`), so nothing changes the place until the
        next input."""
        self._keep_place()
        return self._heap is None or self._heap.quiet()

    def _keep_place(self, *_: object) -> None:
        """Write where the user is when it changed (the screen in front, the page read, the
        tree's cursor): so a crash or a kill keeps it too."""
        if self.place_path is None or not self._place_kept or self.browser is None:
            return
        try:
            stack = list(self.screen_stack)
        except Exception:  # no screens any more (shutting down)
            return
        if self.browser not in stack:
            return  # the connection screen, or the shell: not a place
        from textual.css.query import NoMatches

        from docdeck.tui.orgs.first_view_capture import entry_key

        try:
            current = self.browser.org_tree.current
        except NoMatches:  # its tree is not composed yet (a start restoring another place)
            return
        node = entry_key(current) if current is not None else None
        place = place_of(stack, node)
        if place != self._saved_place:
            self._saved_place = place
            save_place(self.place_path, place)

    async def _shutdown(self) -> None:
        # Before Textual closes the screens: where the user was is read from them.
        self._keep_place()
        await super()._shutdown()

    # ----- exit --------------------------------------------------------------------------------

    def _save_first_view(self) -> None:
        if self.first_view_path is None or self._view_root is None:
            return
        from docdeck.tui.orgs.first_view_capture import capture_first_view

        view = capture_first_view(self._view_root)
        if view is not None:
            save_first_view(self.first_view_path, view)

    async def on_unmount(self) -> None:
        if self._heap is not None:
            self._heap.close()
        self._save_first_view()
        if self.client is not None:
            client, self.client = self.client, None
            await client.aclose()


PLACE_EVERY_S = 2.0
"""How often where the user is (the page read changes without a screen change) is looked at;
written only when it changed."""

_NEVER_HELD = frozenset({"q", "ctrl+c", "ctrl+q"})
_NEVER_KEPT = frozenset({"ctrl+c", "ctrl+q"})
"""Keys `KeyHold` never holds back (a typed-ahead `q` is a letter in a field, not quit)."""


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
    from docdeck.tui.orgs import MainScreen

    return MainScreen
