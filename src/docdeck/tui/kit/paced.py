"""Repeating work that only matters while someone uses the app, asleep while nobody does.

The app keeps two schedules of its own: the idle collector (`heap.IdleCollector`, every
second) and the place keeper (where the user is, every two seconds). Both have nothing to do
once input has stopped and what followed it is done, yet each woke the process all the same:
an app left open on an organization or a page (over SSH, all day) woke up to three times a
second, where a bare Textual app never wakes, ~10-20 ms of CPU a wake-up on this shared
machine (its caches cold after the pause). `InputPaced` pauses its timer when a tick says
it is settled, and the app wakes it on the next input (a key, the mouse, a paste) or screen
change: the timer then starts a whole interval from there, so the key that woke it is
handled first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.app import App
    from textual.timer import Timer

__all__ = ["InputPaced"]


class InputPaced:
    """Runs `work` every `interval` seconds until it returns True (settled: nothing left to
    do until the user does something), then sleeps until `wake`."""

    def __init__(self, app: App[Any], interval: float, work: Callable[[], bool], name: str):
        self._work = work
        self._timer: Timer = app.set_interval(interval, self._tick, name=name)
        self.asleep = False
        """True while paused: no tick until `wake`."""
        self.ticks = 0
        """Ticks run so far (what a test counts)."""

    def _tick(self) -> None:
        self.ticks += 1
        if self._work():
            self._timer.pause()
            self.asleep = True

    def wake(self) -> None:
        """Input (or a screen change): ticking again, the next a whole interval from now.
        Nothing changes while awake: a running schedule is not pushed back by every key."""
        if self.asleep:
            self.asleep = False
            self._timer.reset()  # resumes it; the interval counts from now
