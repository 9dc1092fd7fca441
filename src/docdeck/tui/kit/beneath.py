"""Screens built beneath the one in front, once its first content is on screen.

`docdeck open URL` shows one screen, but Escape must lead back through the screens a user
would have come by: the review pane to its space screen, the space screen to the org
tree. Composing those first put their whole build (imports, compose, styling, all CPU
on the one thread) before the target's first frame. So the target is pushed alone, and
the screens behind it are put beneath it afterwards (`Beneath.later`): once its first
load is done (`typeahead.first_load_done`) and, where the screen says what that is, its
first content is there (`first_content_shown()`: the space screen's page renders in a
thread after its load), then drawn (its next refresh); or at once when the user acts
first (a key delivered, a click), so Escape always finds them there.

`install_beneath` does what `App.push_screen` does for a screen, except that the screen
goes under the one in front (or in place of the stack's base) and is not resumed: it is
composed and styled in the background, and drawn only once what covers it is popped.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.app import App, ScreenStackError, UnknownModeError
from textual.screen import Screen
from textual.timer import Timer

from docdeck.tui.kit.typeahead import LOAD_LIMIT, first_load_done

__all__ = ["Beneath", "install_beneath", "later"]

POLL = 0.02
"""How often the screen in front is looked at while something waits to go beneath it."""


def install_beneath(app: App[Any], screen: Screen[Any], above: Screen[Any] | None) -> None:
    """Put `screen` in the current screen stack right under `above`, as if pushed before it;
    `above` None: at the stack's base, in place of the screen there (removed). If `above`
    has left the stack meanwhile, `screen` is pushed as usual."""
    stack = app._screen_stack  # Textual's own list for the current mode
    if above is not None and above not in stack:
        app.push_screen(screen)
        return
    widths = {name for _, name in app.HORIZONTAL_BREAKPOINTS or ()}
    # Styled for the terminal's width as it mounts (the breakpoint classes are set on a
    # screen's resize, which one beneath gets only once it is in front again).
    screen.add_class(*(app.screen.classes & widths))
    # A new screen is styled by the stylesheet as it is now; left at its initial count,
    # Textual re-parses every CSS source and restyles the app for it.
    screen._css_update_count = app._css_update_count
    app._get_screen(screen)  # registered: composed in the background
    screen._push_result_callback(app, None)  # what `dismiss` and `pop_screen` expect
    app._load_screen_css(screen)
    if above is None:
        replaced, stack[0] = stack[0], screen
        if all(replaced not in other for other in app._screen_stacks.values()):
            app.call_later(replaced.remove)
    else:
        stack.insert(stack.index(above), screen)


class Beneath:
    """What waits to be put beneath the screen in front (`later`), and when it goes."""

    def __init__(self, app: App[Any], *, opening: Callable[[], bool]) -> None:
        """`opening`: True while the screen to wait for is still on its way (the worker
        opening the target); its first load is waited for only once it is in front."""
        self._app = app
        self._opening = opening
        self._waiting: list[Callable[[], None]] = []
        self._timer: Timer | None = None
        self._since = 0.0
        self._drawing = False

    @property
    def waiting(self) -> bool:
        """Something is still to be put beneath the screen in front (for tests)."""
        return bool(self._waiting)

    def later(self, install: Callable[[], None]) -> None:
        """Run `install` once the screen in front has its first content drawn (or sooner,
        `now`). Runs in the order given."""
        self._waiting.append(install)
        if self._timer is None:
            self._since = time.monotonic()
            self._timer = self._app.set_interval(POLL, self._look, name="beneath")

    def now(self) -> None:
        """Put everything waiting beneath at once (the user acts: Escape must find it)."""
        waiting, self._waiting = self._waiting, []
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        for install in waiting:
            install()

    def _look(self) -> None:
        try:
            screen = self._app.screen
        except (ScreenStackError, UnknownModeError):
            # The app is closing (quit before the target's first content was drawn): its
            # screens are gone and nothing goes beneath any more; the timer stops.
            self._waiting.clear()
            self.now()
            return
        if time.monotonic() - self._since > LOAD_LIMIT:
            self.now()  # a first load that never ends (or a screen closed before drawn)
            return
        if not self._waiting or self._drawing or self._opening():
            return
        if screen.stack_updates == 0 or not screen.is_mounted or not first_load_done(screen):
            return
        shown: Callable[[], bool] | None = getattr(screen, "first_content_shown", None)
        if shown is not None and not shown():
            return  # its first load is in, not yet its content (a page rendering in a thread)
        self._drawing = True  # its first load is in: once it is drawn, the rest goes
        screen.call_after_refresh(self._drawn)

    def _drawn(self) -> None:
        self._drawing = False
        self.now()


def later(app: App[Any], install: Callable[[], None]) -> None:
    """`install` once the screen in front has its first content drawn, where the app keeps
    a `Beneath` (as `app.beneath`); at once elsewhere."""
    beneath = getattr(app, "beneath", None)
    if isinstance(beneath, Beneath):
        beneath.later(install)
    else:
        install()
