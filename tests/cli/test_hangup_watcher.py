"""The hang-up watcher (`docdeck.tui.quick_exit`) sleeps until the terminal hangs up or the
reader stops: it woke every second to look for the reader's stop, one of the wake-ups of an
app left open."""

from __future__ import annotations

import os
import threading
from typing import Any

from docdeck.tui.quick_exit import QuickExitDriver


class _App:
    def __init__(self) -> None:
        self.later: list[tuple[Any, ...]] = []

    def exit(self, *_: object) -> None:  # pragma: no cover - only scheduled here
        pass

    def call_later(self, *call: object) -> None:
        self.later.append(call)


def _driver(fileno: int) -> tuple[QuickExitDriver, _App]:
    """The driver's watcher alone: no terminal set up, no input thread."""
    driver = QuickExitDriver.__new__(QuickExitDriver)
    app = _App()
    driver._app = app  # type: ignore[assignment]
    driver.fileno = fileno
    driver.exit_event = threading.Event()
    return driver, app


def test_the_watcher_ends_when_the_reader_stops_not_a_second_later() -> None:
    master, slave = os.openpty()
    try:
        driver, app = _driver(slave)
        watcher = driver._start_watching()
        watcher.join(0.2)
        assert watcher.is_alive()  # waiting, with nothing to look at
        driver._stop_watching()
        watcher.join(5)
        assert not watcher.is_alive()
        assert app.later == []  # no hang-up: the app goes on
        driver._stop_watching()  # twice is harmless
    finally:
        os.close(master)
        os.close(slave)


def test_a_hangup_stops_the_reader_and_ends_the_app() -> None:
    master, slave = os.openpty()
    try:
        driver, app = _driver(slave)
        watcher = driver._start_watching()
        os.close(master)  # the terminal goes away
        master = -1
        watcher.join(5)
        assert not watcher.is_alive()
        assert driver.exit_event.is_set()
        assert [call[1:] for call in app.later] == [(None, 129)]
        driver._stop_watching()
    finally:
        if master >= 0:
            os.close(master)
        os.close(slave)


def test_a_quit_tells_a_profile_switch_without_importing_the_profiles_module() -> None:
    """`disable_input` asks whether another app comes next (a profile switch); a plain quit
    imported the profiles' and the palette's modules to ask it (~10-20 ms of every quit)."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from docdeck.tui.quick_exit import _relaunch\n"
        "class App: return_value = None\n"
        "assert _relaunch(App()) is False\n"
        "assert 'docdeck.tui.kit.profiles' not in sys.modules\n"
        "from docdeck.tui.kit.profiles import SwitchProfile\n"
        "App.return_value = SwitchProfile('work')\n"
        "assert _relaunch(App()) is True\n"
        "App.return_value = 0\n"
        "assert _relaunch(App()) is False\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
